"""Generated text -> reasoning, content and hermes-style tool calls."""

import json

import pytest

from phonebuddy.policy.toolcalls import (
    AssistantText,
    ParsedCall,
    parse_assistant_text,
    split_reasoning,
)


def call_block(name: str, arguments: object) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


# -- split_reasoning ---------------------------------------------------------------------------


def test_text_without_think_end_has_no_reasoning() -> None:
    assert split_reasoning("Tap the Settings icon.") == (None, "Tap the Settings icon.")


def test_think_block_is_split_from_the_rest_without_surrounding_newlines() -> None:
    text = "<think>\nThe Wi-Fi toggle is at the top.\n</think>\n\nTap it."
    assert split_reasoning(text) == ("The Wi-Fi toggle is at the top.", "Tap it.")


def test_lone_think_end_closes_the_block_the_prompt_opened() -> None:
    text = "I should go back first.\n</think>\n\nPress back."
    assert split_reasoning(text) == ("I should go back first.", "Press back.")


def test_empty_think_block_gives_empty_reasoning() -> None:
    assert split_reasoning("<think>\n\n</think>\n\nDone.") == ("", "Done.")


def test_only_the_first_think_end_splits() -> None:
    reasoning, rest = split_reasoning("<think>a</think>b</think>c")
    assert reasoning == "a"
    assert rest == "b</think>c"


# -- parse_assistant_text: content and reasoning ----------------------------------------------


def test_plain_text_becomes_stripped_content() -> None:
    parsed = parse_assistant_text("  \nHello there.\n", tools_enabled=True)
    assert parsed == AssistantText(content="Hello there.", tool_calls=(), reasoning=None)


def test_blank_text_gives_no_content() -> None:
    assert parse_assistant_text(" \n ", tools_enabled=True).content is None


def test_reasoning_only_answer_has_no_content() -> None:
    parsed = parse_assistant_text("<think>\nthinking\n</think>\n\n", tools_enabled=True)
    assert parsed == AssistantText(content=None, tool_calls=(), reasoning="thinking")


# -- parse_assistant_text: tool calls ---------------------------------------------------------


def test_one_tool_call_is_parsed_and_preamble_kept_as_content() -> None:
    text = "I will tap it.\n" + call_block("tap", {"x": 10, "y": 20})
    parsed = parse_assistant_text(text, tools_enabled=True)
    assert parsed.content == "I will tap it."
    assert parsed.tool_calls == (ParsedCall("tap", '{"x": 10, "y": 20}'),)
    assert parsed.reasoning is None


def test_tool_call_without_preamble_has_no_content() -> None:
    parsed = parse_assistant_text(call_block("home", {}), tools_enabled=True)
    assert parsed.content is None
    assert parsed.tool_calls == (ParsedCall("home", "{}"),)


def test_reasoning_content_and_tool_call_are_all_separated() -> None:
    text = "<think>\nSettings is open.\n</think>\n\nScrolling.\n" + call_block(
        "swipe", {"direction": "up"}
    )
    parsed = parse_assistant_text(text, tools_enabled=True)
    assert parsed.reasoning == "Settings is open."
    assert parsed.content == "Scrolling."
    assert [call.name for call in parsed.tool_calls] == ["swipe"]
    assert json.loads(parsed.tool_calls[0].arguments) == {"direction": "up"}


def test_several_tool_calls_keep_their_order() -> None:
    text = "\n".join(
        [
            call_block("type", {"text": "hello"}),
            call_block("tap", {"x": 1, "y": 2}),
            call_block("back", {}),
        ]
    )
    parsed = parse_assistant_text(text, tools_enabled=True)
    assert [call.name for call in parsed.tool_calls] == ["type", "tap", "back"]
    assert [json.loads(call.arguments) for call in parsed.tool_calls] == [
        {"text": "hello"},
        {"x": 1, "y": 2},
        {},
    ]


def test_arguments_given_as_a_json_string_become_a_json_object() -> None:
    block = json.dumps({"name": "tap", "arguments": json.dumps({"x": 3, "y": 4})})
    parsed = parse_assistant_text(f"<tool_call>{block}</tool_call>", tools_enabled=True)
    assert parsed.tool_calls == (ParsedCall("tap", '{"x": 3, "y": 4}'),)


def test_missing_arguments_become_an_empty_object() -> None:
    parsed = parse_assistant_text('<tool_call>{"name": "home"}</tool_call>', tools_enabled=True)
    assert parsed.tool_calls == (ParsedCall("home", "{}"),)


def test_non_ascii_arguments_are_kept_literally() -> None:
    parsed = parse_assistant_text(call_block("type", {"text": "你好 张三"}), tools_enabled=True)
    assert parsed.tool_calls[0].arguments == '{"text": "你好 张三"}'


def test_unclosed_last_tool_call_still_parses() -> None:
    parsed = parse_assistant_text(
        '<tool_call>\n{"name": "back", "arguments": {}}\n', tools_enabled=True
    )
    assert parsed.tool_calls == (ParsedCall("back", "{}"),)


@pytest.mark.parametrize(
    "block",
    [
        '{"name": "tap", "arguments": {"x": 1,',  # broken JSON
        '{"arguments": {"x": 1}}',  # no name
        '{"name": 7, "arguments": {}}',  # name not a string
        '["tap", {"x": 1}]',  # not an object
        '{"name": "tap", "arguments": "not json"}',  # string arguments that do not parse
        '{"name": "tap", "arguments": "[1, 2]"}',  # string arguments that are not an object
        '{"name": "tap", "arguments": [1, 2]}',  # arguments not an object
        "",  # empty block
    ],
)
def test_one_broken_block_keeps_the_whole_answer_as_content(block: str) -> None:
    text = f"Going home.\n{call_block('home', {})}\n<tool_call>{block}</tool_call>"
    parsed = parse_assistant_text(text, tools_enabled=True)
    assert parsed.tool_calls == ()
    assert parsed.content == text


def test_tool_call_text_stays_content_when_tools_are_disabled() -> None:
    text = "<think>r</think>\n" + call_block("tap", {"x": 1, "y": 2})
    parsed = parse_assistant_text(text, tools_enabled=False)
    assert parsed.tool_calls == ()
    assert parsed.content == call_block("tap", {"x": 1, "y": 2})
    assert parsed.reasoning == "r"


def test_tool_call_inside_the_think_block_is_not_a_call() -> None:
    text = "<think>\nmaybe " + call_block("tap", {"x": 1}) + "\n</think>\n\nNo action needed."
    parsed = parse_assistant_text(text, tools_enabled=True)
    assert parsed.tool_calls == ()
    assert parsed.content == "No action needed."
    assert parsed.reasoning is not None
    assert "<tool_call>" in parsed.reasoning
