import pytest

from phonebuddy.agent import InvalidOutput, ParsedAction, parse_output
from phonebuddy.protocol import (
    Answer,
    CallTool,
    Click,
    Direction,
    Swipe,
    SystemButton,
    Terminate,
    Type,
    Wait,
)

CLICK = '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 800]}}'
TAGGED = f"<tool_call>\n{CLICK}\n</tool_call>"


def tagged(arguments: str, name: str = "mobile_use") -> str:
    """A tagged call of `name` with `arguments` (JSON text)."""
    return f'<tool_call>{{"name": "{name}", "arguments": {arguments}}}</tool_call>'


VALID = [
    ("canonical", TAGGED, Click(coordinate=(540, 800))),
    ("with im_end", TAGGED + "<|im_end|>", Click(coordinate=(540, 800))),
    ("whitespace", f"\n\n  <tool_call>  {CLICK}  </tool_call>\n ", Click(coordinate=(540, 800))),
    (
        "think block",
        f"<think>\nFind the button.\n</think>\n\n{TAGGED}",
        Click(coordinate=(540, 800)),
    ),
    (
        "think opened by the prompt",
        f"The button is up.\n</think>\n{TAGGED}",
        Click(coordinate=(540, 800)),
    ),
    ("prose around", f"I will click it.\n{TAGGED}\nDone.", Click(coordinate=(540, 800))),
    (
        "fence inside tags",
        f"<tool_call>\n```json\n{CLICK}\n```\n</tool_call>",
        Click(coordinate=(540, 800)),
    ),
    ("fence without tags", f"Here:\n```json\n{CLICK}\n```", Click(coordinate=(540, 800))),
    ("bare json", CLICK, Click(coordinate=(540, 800))),
    ("lone opening tag", f"<tool_call>\n{CLICK}", Click(coordinate=(540, 800))),
    ("lone closing tag", f"{CLICK}\n</tool_call>", Click(coordinate=(540, 800))),
    (
        "arguments as a JSON string",
        '<tool_call>{"name": "mobile_use", "arguments": "{\\"action\\": \\"type\\", '
        '\\"text\\": \\"你好\\"}"}</tool_call>',
        Type(text="你好"),
    ),
    (
        "swipe direction",
        '<tool_call>{"name": "mobile_use", "arguments": {"action": "swipe", "direction": "UP"}}'
        "</tool_call>",
        Swipe(direction=Direction.UP),
    ),
    (
        "button any case",
        '{"name": "mobile_use", "arguments": {"action": "system_button", "button": "back"}}',
        SystemButton(button="Back"),
    ),
    (
        "wait default",
        '<tool_call>{"name": "mobile_use", "arguments": {"action": "wait"}}</tool_call>',
        Wait(),
    ),
    (
        "answer with braces in text",
        '<tool_call>{"name": "mobile_use", "arguments": {"action": "answer", "text": "{x}"}}'
        "</tool_call>",
        Answer(text="{x}"),
    ),
    (
        "nested call_tool arguments",
        '{"name": "mobile_use", "arguments": {"action": "call_tool", "name": "chat.send", '
        '"arguments": {"to": {"id": 1}}}}',
        CallTool(name="chat.send", arguments={"to": {"id": 1}}),
    ),
    (
        "terminate",
        '<tool_call>{"name": "mobile_use", "arguments": {"action": "terminate", '
        '"status": "success"}}</tool_call>',
        Terminate(status="success"),
    ),
]

INVALID = [
    ("empty", "", "empty output"),
    ("whitespace only", " \n\t", "empty output"),
    ("prose only", "I think I should click the button.", "no tool call found"),
    ("only thinking", "<think>hmm</think>\n", "no tool call found after the <think> block"),
    (
        "unclosed think",
        f"<think>I will {TAGGED}",
        "the answer ends inside an unclosed <think> block",
    ),
    ("two tagged calls", f"{TAGGED}\n{TAGGED}", "2 tool calls; expected exactly one"),
    ("two bare calls", f"{CLICK}\n{CLICK}", "2 tool calls; expected exactly one"),
    (
        "two calls in one block",
        f"<tool_call>{CLICK}\n{CLICK}</tool_call>",
        "2 tool calls; expected exactly one",
    ),
    (
        "malformed json in tags",
        '<tool_call>{"name": "mobile_use", "arguments": {</tool_call>',
        "tool call is not valid JSON: Expecting property name enclosed in double quotes",
    ),
    (
        "malformed json untagged",
        '{"name": "mobile_use", "arguments": {"action": "click"',
        "no tool call found; the JSON in the answer is malformed: Expecting ',' delimiter",
    ),
    ("empty block", "<tool_call>\n</tool_call>", "the <tool_call> block is empty"),
    ("unbalanced tags", f"<tool_call>{CLICK}<tool_call>", "unbalanced <tool_call> tags"),
    (
        "x out of range",
        tagged('{"action": "click", "coordinate": [1001, 5]}'),
        "click: coordinate.0 Input should be less than or equal to 1000 (got 1001)",
    ),
    (
        "negative y",
        tagged('{"action": "click", "coordinate": [5, -1]}'),
        "click: coordinate.1 Input should be greater than or equal to 0 (got -1)",
    ),
    (
        "coordinate as a string",
        tagged('{"action": "click", "coordinate": ["540", 800]}'),
        "click: coordinate.0 Input should be a valid integer (got '540')",
    ),
    (
        "coordinate as a float",
        tagged('{"action": "click", "coordinate": [540, 800.0]}'),
        "click: coordinate.1 Input should be a valid integer (got 800.0)",
    ),
    (
        "unknown action",
        tagged('{"action": "fly"}'),
        "unknown action 'fly'; expected one of click, long_press, swipe, type, key, "
        "system_button, open, wait, answer, terminate, call_tool",
    ),
    ("other tool", tagged('{"action": "click"}', "browser"), "tool 'browser' is not 'mobile_use'"),
    (
        "bare arguments",
        '{"action": "click", "coordinate": [1, 2]}',
        'a bare arguments object; expected {"name": "mobile_use", "arguments": {...}}',
    ),
    (
        "missing arguments",
        '<tool_call>{"name": "mobile_use"}</tool_call>',
        "tool call has no 'arguments'",
    ),
    (
        "arguments string malformed",
        tagged('"{oops"'),
        "tool call arguments are not valid JSON: Expecting property name enclosed in double quotes",
    ),
    (
        "missing coordinate",
        tagged('{"action": "click"}'),
        "click: needs a coordinate or an element",
    ),
    (
        "extra argument",
        tagged('{"action": "wait", "text": "x"}'),
        "wait: text is not an argument of this action",
    ),
    (
        "list instead of object",
        "<tool_call>[1, 2]</tool_call>",
        "tool call must be a JSON object, got list",
    ),
    (
        "swipe both forms",
        tagged('{"action": "swipe", "direction": "up", "coordinate": [1, 2]}'),
        "swipe: give either direction or coordinate and coordinate2, not both",
    ),
]


@pytest.mark.parametrize(("raw", "expected"), [c[1:] for c in VALID], ids=[c[0] for c in VALID])
def test_parses_one_valid_call(raw, expected):
    result = parse_output(raw)
    assert result == ParsedAction(raw=raw, action=expected)
    assert result.invalid_reason is None


@pytest.mark.parametrize(("raw", "reason"), [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_invalid_output_says_why(raw, reason):
    result = parse_output(raw)
    assert result == InvalidOutput(raw=raw, reason=reason)
    assert result.action is None
    assert result.invalid_reason == reason


def test_the_case_table_is_large():
    assert len(VALID) + len(INVALID) >= 20
