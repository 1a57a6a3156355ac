"""A model's answer -> one protocol Action, or an `InvalidOutput` saying precisely why not.

Tolerant of form: whitespace, a `<think>` block (or only its closing tag, when the generation
prompt opened it), prose around the call, code fences, a lone `<tool_call>` or `</tool_call>` tag,
`arguments` given as a JSON string, a call with no tags at all. Strict on meaning: exactly one
valid `mobile_use` call; everything else is an `InvalidOutput` — never an exception, since an
unusable answer is data for the trajectory, not the end of an episode.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from phonebuddy.agent.chat_format import THINK_END, THINK_START, TOOL_CALL_END, TOOL_CALL_START
from phonebuddy.protocol import TOOL_NAME, Action, InvalidActionError, parse_tool_call

_THINK_BLOCK = re.compile(re.escape(THINK_START) + r".*?" + re.escape(THINK_END), re.DOTALL)
_TOOL_CALL_BLOCK = re.compile(
    re.escape(TOOL_CALL_START) + r"(.*?)" + re.escape(TOOL_CALL_END), re.DOTALL
)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)


@dataclass(frozen=True, slots=True)
class ParsedAction:
    """An answer that holds exactly one valid action."""

    raw: str
    action: Action

    @property
    def invalid_reason(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class InvalidOutput:
    """An answer that holds no usable action; `reason` says what is wrong."""

    raw: str
    reason: str

    @property
    def action(self) -> None:
        return None

    @property
    def invalid_reason(self) -> str:
        return self.reason


ParsedOutput = ParsedAction | InvalidOutput


class _Invalid(Exception):  # noqa: N818 - internal control flow, never escapes this module
    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def _strip_fences(text: str) -> str:
    text = text.strip()
    match = _FENCE.fullmatch(text)
    return match.group(1).strip() if match else text


def _json_values(text: str) -> tuple[list[Any], str | None]:
    """Every JSON object found in `text` (outermost only), and the first decoding error."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    first_error = None
    position = text.find("{")
    while position != -1:
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError as exc:
            first_error = first_error or exc.msg
            position = text.find("{", position + 1)
            continue
        values.append(value)
        position = text.find("{", end)
    return values, first_error


def _without_thinking(text: str) -> str:
    text = _THINK_BLOCK.sub("", text)
    if THINK_END in text:  # the generation prompt opened the block
        text = text.rsplit(THINK_END, 1)[1]
    if THINK_START in text:
        raise _Invalid("the answer ends inside an unclosed <think> block")
    return text


def _call_in_tags(text: str) -> str | None:
    """The inside of the one `<tool_call>` block, or None when there are no tags."""
    blocks = _TOOL_CALL_BLOCK.findall(text)
    if len(blocks) > 1:
        raise _Invalid(f"{len(blocks)} tool calls; expected exactly one")
    if blocks:
        rest = _TOOL_CALL_BLOCK.sub("", text)
        if TOOL_CALL_START in rest or TOOL_CALL_END in rest:
            raise _Invalid("unbalanced <tool_call> tags beside a complete tool call")
        return blocks[0]
    opens, closes = text.count(TOOL_CALL_START), text.count(TOOL_CALL_END)
    if opens + closes > 1:
        raise _Invalid("unbalanced <tool_call> tags")
    if opens:
        return text.split(TOOL_CALL_START, 1)[1]
    if closes:
        return text.split(TOOL_CALL_END, 1)[0]
    return None


def _decode_tagged(inside: str) -> Any:
    body = _strip_fences(inside)
    if not body:
        raise _Invalid("the <tool_call> block is empty")
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        values, _ = _json_values(body)
        if len(values) > 1:
            raise _Invalid(f"{len(values)} tool calls; expected exactly one") from exc
        raise _Invalid(f"tool call is not valid JSON: {exc.msg}") from exc


def _find_untagged(text: str) -> Any:
    values, first_error = _json_values(text)
    calls = [value for value in values if isinstance(value, dict) and "name" in value]
    if len(calls) > 1:
        raise _Invalid(f"{len(calls)} tool calls; expected exactly one")
    if calls:
        return calls[0]
    if any(isinstance(value, dict) and "action" in value for value in values):
        raise _Invalid(
            f'a bare arguments object; expected {{"name": "{TOOL_NAME}", "arguments": {{...}}}}'
        )
    if first_error is not None:
        raise _Invalid(f"no tool call found; the JSON in the answer is malformed: {first_error}")
    raise _Invalid("no tool call found")


def _parse(raw: str) -> Action:
    if not raw.strip():
        raise _Invalid("empty output")
    text = _without_thinking(raw)
    if not text.strip():
        raise _Invalid("no tool call found after the <think> block")
    inside = _call_in_tags(text)
    call = _decode_tagged(inside) if inside is not None else _find_untagged(text)
    try:
        return parse_tool_call(call)
    except InvalidActionError as exc:
        raise _Invalid(exc.reason) from exc


def parse_output(raw: str) -> ParsedOutput:
    """A model's answer -> `ParsedAction`, or `InvalidOutput` with a precise reason."""
    try:
        return ParsedAction(raw=raw, action=_parse(raw))
    except _Invalid as invalid:
        return InvalidOutput(raw=raw, reason=invalid.reason)
