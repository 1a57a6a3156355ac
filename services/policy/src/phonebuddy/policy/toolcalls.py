"""Generated text -> an assistant message: `<think>` reasoning, content, tool calls.

Qwen writes tool calls as `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` (the
"hermes" format, which vLLM parses with `--tool-call-parser hermes`). When every block parses,
the calls become `tool_calls` and the text before them `content`; when any block is broken the
whole answer stays `content`, so nothing the model wrote is lost and the caller's parser can
say what is wrong with it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from phonebuddy.agent.chat_format import THINK_END, THINK_START, TOOL_CALL_END, TOOL_CALL_START

_TOOL_CALL = re.compile(
    re.escape(TOOL_CALL_START) + r"(.*?)(?:" + re.escape(TOOL_CALL_END) + r"|$)", re.DOTALL
)


@dataclass(frozen=True, slots=True)
class ParsedCall:
    name: str
    arguments: str  # JSON text, as OpenAI sends it


@dataclass(frozen=True, slots=True)
class AssistantText:
    content: str | None
    tool_calls: tuple[ParsedCall, ...]
    reasoning: str | None


def split_reasoning(text: str) -> tuple[str | None, str]:
    """(reasoning, rest): the `<think>` block's text, or None when there is none. A lone
    `</think>` closes a block the generation prompt opened."""
    if THINK_END not in text:
        return None, text
    head, _, rest = text.partition(THINK_END)
    return head.removeprefix(THINK_START).strip("\n"), rest.lstrip("\n")


def _call(block: str) -> ParsedCall | None:
    try:
        value = json.loads(block.strip())
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    arguments = value.get("arguments", {})
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, dict):
        return None
    return ParsedCall(value["name"], json.dumps(arguments, ensure_ascii=False))


def parse_assistant_text(text: str, *, tools_enabled: bool) -> AssistantText:
    reasoning, rest = split_reasoning(text)
    if not tools_enabled or TOOL_CALL_START not in rest:
        return AssistantText(rest.strip() or None, (), reasoning)
    blocks = _TOOL_CALL.findall(rest)
    calls = [_call(block) for block in blocks]
    if not calls or any(call is None for call in calls):
        return AssistantText(rest.strip() or None, (), reasoning)
    content = rest.split(TOOL_CALL_START, 1)[0].strip() or None
    return AssistantText(content, tuple(call for call in calls if call is not None), reasoning)
