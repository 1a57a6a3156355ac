"""The `mobile_use` tool as the model sees it, generated from the protocol's action types.

The JSON Schema of every argument comes from the pydantic models in `phonebuddy.protocol.actions`,
so a new action or argument reaches the prompt without anyone editing it here; only the one-line
descriptions below are written by hand (a test checks that they cover every action and argument).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from phonebuddy.protocol import (
    ACTION_NAMES,
    NORMALIZED_MAX,
    TOOL_NAME,
    Action,
    Answer,
    CallTool,
    Click,
    Key,
    LongPress,
    Open,
    Swipe,
    SystemButton,
    Terminate,
    Type,
    Wait,
    to_arguments,
)
from phonebuddy.protocol.actions import ACTION_TYPES

ACTION_DESCRIPTIONS: dict[str, str] = {
    "click": "Click the point `coordinate`, or the centre of UI element `element`.",
    "long_press": (
        "Press and hold the point `coordinate` (or UI element `element`) for `time` seconds."
    ),
    "swipe": "Swipe from `coordinate` to `coordinate2`, or across the screen in `direction`.",
    "type": (
        "Type `text` into the focused input box (with `coordinate` or `element`: tap it first)."
    ),
    "key": "Press the Android key named `text` (e.g. KEYCODE_DEL, ENTER).",
    "system_button": "Press the system `button`.",
    "open": "Open the app named `text` (display name or package name).",
    "wait": "Wait `time` seconds for the screen to change.",
    "answer": "Give `text` as the answer to the user's question.",
    "terminate": "End the task, reporting `status` success or failure.",
    "call_tool": (
        "Call the foreground app's direct tool `name` with `arguments` "
        "(the tools on offer are listed with the screenshot)."
    ),
}

PARAMETER_DESCRIPTIONS: dict[str, str] = {
    "action": "The action to perform.",
    "coordinate": (
        f"(x, y): a point on the screen, x and y in [0, {NORMALIZED_MAX}]: "
        f"(0, 0) is the top-left corner, ({NORMALIZED_MAX}, {NORMALIZED_MAX}) the bottom-right."
    ),
    "element": (
        "The number of a UI element in the screen's element list, `[7] label`, instead of a "
        "coordinate (only when the observation lists elements)."
    ),
    "coordinate2": f"(x, y): where a swipe ends, x and y in [0, {NORMALIZED_MAX}].",
    "direction": "The direction of a swipe across the screen, instead of two points.",
    "text": "The text to type, the key name, the app to open, or the answer.",
    "time": "Seconds to wait or to hold the press.",
    "button": "The system button to press.",
    "status": "How the task ended.",
    "name": "The name of the app's direct tool.",
    "arguments": "The arguments of the app's direct tool.",
}

_DROPPED_KEYS = frozenset({"title", "default", "description", "const"})
_RENAMED_KEYS = {
    "ge": "minimum",
    "le": "maximum",
    "gt": "exclusiveMinimum",
    "lt": "exclusiveMaximum",
}


def _clean(schema: Any, defs: dict[str, Any]) -> Any:
    """Pydantic's schema of one field -> plain JSON Schema a model reads easily."""
    if isinstance(schema, list):
        return [_clean(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        return _clean(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    options = schema.get("anyOf")
    if options is not None:
        not_null = [option for option in options if option != {"type": "null"}]
        if len(not_null) == 1:
            return _clean(not_null[0], defs)
    cleaned = {
        _RENAMED_KEYS.get(key, key): _clean(value, defs)
        for key, value in schema.items()
        if key not in _DROPPED_KEYS
    }
    items = cleaned.pop("prefixItems", None)
    if items is not None:
        if all(item == items[0] for item in items):
            cleaned["items"] = items[0]
        else:
            cleaned["prefixItems"] = items
    if cleaned.get("additionalProperties") == {}:
        del cleaned["additionalProperties"]
    return cleaned


def _common(schemas: list[dict[str, Any]]) -> dict[str, Any]:
    """The loosest schema all `schemas` satisfy: the keys on which they agree."""
    first, *rest = schemas
    return {key: value for key, value in first.items() if all(s.get(key) == value for s in rest)}


@cache
def _parameters_json() -> str:
    by_field: dict[str, list[dict[str, Any]]] = {}
    used_by: dict[str, list[str]] = {}
    required_by: dict[str, list[str]] = {}
    for action_type in ACTION_TYPES:
        schema = action_type.model_json_schema()
        action_name = schema["properties"]["action"]["const"]
        for field, field_schema in schema["properties"].items():
            if field == "action":
                continue
            by_field.setdefault(field, []).append(_clean(field_schema, schema.get("$defs", {})))
            used_by.setdefault(field, []).append(action_name)
            if field in schema.get("required", ()):
                required_by.setdefault(field, []).append(action_name)
    properties: dict[str, Any] = {
        "action": {
            "description": PARAMETER_DESCRIPTIONS["action"]
            + "".join(
                f"\n* `{name}`: {ACTION_DESCRIPTIONS.get(name, name)}" for name in ACTION_NAMES
            ),
            "enum": list(ACTION_NAMES),
            "type": "string",
        }
    }
    for field, schemas in by_field.items():
        description = PARAMETER_DESCRIPTIONS.get(field, field)
        description += f" Used by: {', '.join(used_by[field])}."
        if field in required_by:
            description += f" Required by: {', '.join(required_by[field])}."
        properties[field] = {"description": description, **_common(schemas)}
    parameters = {"properties": properties, "required": ["action"], "type": "object"}
    return json.dumps(parameters, ensure_ascii=False)


TOOL_DESCRIPTION = (
    "Use a touchscreen to interact with a mobile device, and take screenshots.\n"
    "* This is an interface to a mobile device with touchscreen. You can perform actions like "
    "clicking, typing, swiping, etc.\n"
    "* Some applications may take time to start or process actions, so you may need to wait "
    "and take successive screenshots to see the results of your actions.\n"
    f"* Coordinates are normalized to [0, {NORMALIZED_MAX}] on both axes, whatever the screen's "
    "size in pixels: x grows to the right, y grows downwards."
)


def mobile_use_tool() -> dict[str, Any]:
    """The `mobile_use` tool in OpenAI `tools` format (a fresh copy each call)."""
    return {
        "type": "function",
        "function": {
            "name": TOOL_NAME,
            "description": TOOL_DESCRIPTION,
            "parameters": json.loads(_parameters_json()),
        },
    }


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def action_text(action: Action) -> str:
    """A short, readable form of `action` for the history: `click(540, 800)`, `type("你好")`."""
    match action:
        case Click(element=int(element)):
            return f"click(#{element})"
        case Click(coordinate=(x, y)):
            return f"click({x}, {y})"
        case LongPress(element=int(element), time=time):
            return f"long_press(#{element}, time={time:g})"
        case LongPress(coordinate=(x, y), time=time):
            return f"long_press({x}, {y}, time={time:g})"
        case Type(text=text, element=int(element)):
            return f"type({_quote(text)}, #{element})"
        case Type(text=text, coordinate=(x, y)):
            return f"type({_quote(text)}, at=({x}, {y}))"
        case Swipe(direction=direction) if direction is not None:
            return f"swipe({_quote(direction.value)})"
        case Swipe(coordinate=(x1, y1), coordinate2=(x2, y2)):
            return f"swipe(({x1}, {y1}), ({x2}, {y2}))"
        case Type(text=text) | Key(text=text) | Open(text=text) | Answer(text=text):
            return f"{action.action}({_quote(text)})"
        case SystemButton(button=button):
            return f"system_button({_quote(button.value)})"
        case Wait(time=time):
            return f"wait({time:g})"
        case Terminate(status=status):
            return f"terminate({_quote(status.value)})"
        case CallTool(name=name, arguments=arguments):
            return f"call_tool({_quote(name)}, {json.dumps(arguments, ensure_ascii=False)})"
    arguments = to_arguments(action)
    name = arguments.pop("action")
    return f"{name}({json.dumps(arguments, ensure_ascii=False)})"
