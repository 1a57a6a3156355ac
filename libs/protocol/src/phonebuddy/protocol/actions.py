"""The action space: every action of the `mobile_use` tool that Qwen VL models are trained on.

An action travels as a Qwen tool call,
`{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}`, with
coordinates normalized to [0, 1000]. `parse_tool_call` is strict on meaning: anything it cannot
turn into exactly one valid action raises `InvalidActionError` with a message saying what is
wrong. Swipes also accept `direction` (a PhoneBuddy extension) instead of two points.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any, Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from phonebuddy.protocol.geometry import Point, StrictIndex

TOOL_NAME = "mobile_use"
# Element indices a UI-tree prompt can show (`phonebuddy.protocol.elements.MAX_ELEMENTS`).
MAX_ELEMENT_INDEX = 63
ElementIndex = Annotated[StrictIndex, Field(le=MAX_ELEMENT_INDEX)]
MAX_TEXT_CHARS = 4096
MAX_WAIT_S = 60.0


class _CaseInsensitiveEnum(StrEnum):
    """Accepts any letter case of a member's value ('back' means Back)."""

    @classmethod
    def _missing_(cls, value: object) -> _CaseInsensitiveEnum | None:
        if isinstance(value, str):
            for member in cls:
                if member.value.lower() == value.strip().lower():
                    return member
        return None


class SystemButtonName(_CaseInsensitiveEnum):
    BACK = "Back"
    HOME = "Home"
    MENU = "Menu"
    ENTER = "Enter"


class Direction(_CaseInsensitiveEnum):
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"


class TerminateStatus(_CaseInsensitiveEnum):
    SUCCESS = "success"
    FAILURE = "failure"


class _ActionBase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Targeted(_ActionBase):
    """An action aimed at a point, given as `coordinate` or as the `element` of the current UI
    tree (`phonebuddy.protocol.elements`) that the device edge resolves to its centre. A stored
    step keeps both: the element the policy named and the point it was resolved to."""

    coordinate: Point | None = None
    element: ElementIndex | None = None

    @model_validator(mode="after")
    def _has_target(self) -> Self:
        if self.coordinate is None and self.element is None:
            raise ValueError("needs a coordinate or an element")
        return self


class Click(_Targeted):
    action: Literal["click"] = "click"


class LongPress(_Targeted):
    action: Literal["long_press"] = "long_press"
    time: float = Field(default=1.0, gt=0, le=MAX_WAIT_S)


class Swipe(_ActionBase):
    """A swipe from `coordinate` to `coordinate2`, or in a `direction` across the screen."""

    action: Literal["swipe"] = "swipe"
    coordinate: Point | None = None
    coordinate2: Point | None = None
    direction: Direction | None = None

    @model_validator(mode="after")
    def _exactly_one_form(self) -> Self:
        has_points = self.coordinate is not None or self.coordinate2 is not None
        if self.direction is not None and has_points:
            raise ValueError("give either direction or coordinate and coordinate2, not both")
        if self.direction is None and (self.coordinate is None or self.coordinate2 is None):
            raise ValueError("needs both coordinate and coordinate2, or a direction")
        return self

    def endpoints(self) -> tuple[Point, Point]:
        """Start and end points; a direction swipes 60 % of the screen through its middle."""
        if self.direction is None:
            assert self.coordinate is not None  # guaranteed by the validator
            assert self.coordinate2 is not None
            return self.coordinate, self.coordinate2
        near, far = 200, 800
        return {
            Direction.UP: ((500, far), (500, near)),
            Direction.DOWN: ((500, near), (500, far)),
            Direction.LEFT: ((far, 500), (near, 500)),
            Direction.RIGHT: ((near, 500), (far, 500)),
        }[self.direction]


class Type(_ActionBase):
    """Type into the focused field as a phone keyboard does (`phonebuddy.protocol.text_entry`):
    a line break is the Enter key, control characters type nothing. With a `coordinate` or an
    `element`, tap there first (to focus that field)."""

    action: Literal["type"] = "type"
    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)
    coordinate: Point | None = None
    element: ElementIndex | None = None


class Key(_ActionBase):
    """A key by Android name (`KEYCODE_DEL`, `DEL`, `enter`...)."""

    action: Literal["key"] = "key"
    text: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_]+$")


class SystemButton(_ActionBase):
    action: Literal["system_button"] = "system_button"
    button: SystemButtonName


class Open(_ActionBase):
    """Launch an app by its display name or package name."""

    action: Literal["open"] = "open"
    text: str = Field(min_length=1, max_length=256)


class Wait(_ActionBase):
    action: Literal["wait"] = "wait"
    time: float = Field(default=1.0, gt=0, le=MAX_WAIT_S)


class Answer(_ActionBase):
    action: Literal["answer"] = "answer"
    text: str = Field(max_length=MAX_TEXT_CHARS)


class Terminate(_ActionBase):
    action: Literal["terminate"] = "terminate"
    status: TerminateStatus


class CallTool(_ActionBase):
    """Call a direct tool of the foreground app (a PhoneBuddy extension of `mobile_use`; the
    observation lists the tools on offer)."""

    action: Literal["call_tool"] = "call_tool"
    name: str = Field(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9_.]*$")
    arguments: dict[str, JsonValue] = Field(default_factory=dict)


Action = Annotated[
    Click
    | LongPress
    | Swipe
    | Type
    | Key
    | SystemButton
    | Open
    | Wait
    | Answer
    | Terminate
    | CallTool,
    Field(discriminator="action"),
]
ACTION_TYPES: tuple[type[_ActionBase], ...] = (
    Click, LongPress, Swipe, Type, Key, SystemButton, Open, Wait, Answer, Terminate, CallTool,
)  # fmt: skip
ACTION_NAMES: tuple[str, ...] = tuple(t.model_fields["action"].default for t in ACTION_TYPES)
action_adapter: TypeAdapter[Action] = TypeAdapter(Action)

# Actions after which an episode ends.
FINAL_ACTIONS = frozenset({"answer", "terminate"})


class InvalidActionError(ValueError):
    """A tool call or action that is not exactly one valid action; `reason` says what is wrong."""

    def __init__(self, reason: str, *, payload: object = None) -> None:
        self.reason = reason
        self.payload = payload
        super().__init__(reason)


def _describe_validation_error(action_name: str, error: ValidationError) -> str:
    problems = []
    for item in error.errors(include_url=False):
        # Drop the union tag pydantic puts first in the location of a discriminated union.
        loc = [str(part) for part in item["loc"] if part != action_name]
        where = ".".join(loc)
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = "is not an argument of this action"
        elif item["type"] == "missing":
            message = "is required"
        text = f"{where} {message}" if where else message
        if "input" in item and item["type"] not in {"missing", "extra_forbidden"} and where:
            text += f" (got {item['input']!r})"
        problems.append(text)
    return f"{action_name}: " + "; ".join(problems)


def parse_action(arguments: Mapping[str, Any]) -> Action:
    """The arguments of a `mobile_use` call (`{"action": "click", ...}`) -> Action."""
    if not isinstance(arguments, Mapping):
        raise InvalidActionError(
            f"arguments must be a JSON object, got {type(arguments).__name__}", payload=arguments
        )
    name = arguments.get("action")
    if name is None:
        raise InvalidActionError("arguments have no 'action'", payload=arguments)
    if name not in ACTION_NAMES:
        raise InvalidActionError(
            f"unknown action {name!r}; expected one of {', '.join(ACTION_NAMES)}",
            payload=arguments,
        )
    try:
        return action_adapter.validate_python(dict(arguments))
    except ValidationError as exc:
        raise InvalidActionError(
            _describe_validation_error(str(name), exc), payload=arguments
        ) from exc


def parse_tool_call(call: str | bytes | Mapping[str, Any]) -> Action:
    """A Qwen tool call (JSON text or already-decoded object) -> Action.

    `arguments` may itself be a JSON string, as in OpenAI-style tool calls.
    """
    if isinstance(call, str | bytes):
        try:
            call = json.loads(call)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            detail = exc.msg if isinstance(exc, json.JSONDecodeError) else exc.reason
            raise InvalidActionError(
                f"tool call is not valid JSON: {detail}", payload=call
            ) from exc
    if not isinstance(call, Mapping):
        raise InvalidActionError(
            f"tool call must be a JSON object, got {type(call).__name__}", payload=call
        )
    name = call.get("name")
    if name != TOOL_NAME:
        raise InvalidActionError(f"tool {name!r} is not {TOOL_NAME!r}", payload=call)
    arguments = call.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError as exc:
            raise InvalidActionError(
                f"tool call arguments are not valid JSON: {exc.msg}", payload=call
            ) from exc
    if arguments is None:
        raise InvalidActionError("tool call has no 'arguments'", payload=call)
    return parse_action(arguments)


def to_arguments(action: Action) -> dict[str, Any]:
    """The `arguments` object of the tool call for `action` (unset optional fields left out),
    `action` first as Qwen's `mobile_use` calls write it."""
    dumped = action.model_dump(mode="json", exclude_none=True)
    return {"action": dumped.pop("action"), **dumped}


def to_tool_call(action: Action) -> dict[str, Any]:
    """`action` as a Qwen tool call object."""
    return {"name": TOOL_NAME, "arguments": to_arguments(action)}


def to_tool_call_json(action: Action) -> str:
    return json.dumps(to_tool_call(action), ensure_ascii=False, separators=(", ", ": "))
