import contextlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phonebuddy.protocol import (
    ACTION_NAMES,
    Action,
    Answer,
    CallTool,
    Click,
    Direction,
    InvalidActionError,
    Key,
    LongPress,
    Open,
    Swipe,
    SystemButton,
    SystemButtonName,
    Terminate,
    TerminateStatus,
    Type,
    Wait,
    parse_action,
    parse_tool_call,
    to_tool_call,
    to_tool_call_json,
)

points = st.tuples(st.integers(0, 1000), st.integers(0, 1000))
texts = st.text(min_size=1, max_size=200)
actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(Click, coordinate=points),
    st.builds(LongPress, coordinate=points, time=st.floats(0.1, 60)),
    st.builds(Swipe, coordinate=points, coordinate2=points),
    st.builds(Swipe, direction=st.sampled_from(Direction)),
    st.builds(Type, text=texts),
    st.builds(Key, text=st.from_regex(r"[A-Za-z0-9_]{1,20}", fullmatch=True)),
    st.builds(SystemButton, button=st.sampled_from(SystemButtonName)),
    st.builds(Open, text=texts),
    st.builds(Wait, time=st.floats(0.1, 60)),
    st.builds(Answer, text=st.text(max_size=200)),
    st.builds(Terminate, status=st.sampled_from(TerminateStatus)),
    st.builds(
        CallTool,
        name=st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True),
        arguments=st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5)),
    ),
)


@given(action=actions)
def test_every_action_survives_a_tool_call_json_round_trip(action: Action) -> None:
    assert parse_tool_call(to_tool_call_json(action)) == action
    assert parse_tool_call(to_tool_call(action)) == action


def test_every_action_name_is_covered_by_the_strategy() -> None:
    assert set(ACTION_NAMES) == {
        "click", "long_press", "swipe", "type", "key", "system_button", "open", "wait",
        "answer", "terminate", "call_tool",
    }  # fmt: skip


def test_tool_call_has_the_qwen_shape() -> None:
    assert to_tool_call(Click(coordinate=(10, 20))) == {
        "name": "mobile_use",
        "arguments": {"action": "click", "coordinate": [10, 20]},
    }


def test_arguments_may_arrive_as_a_json_string() -> None:
    call = {"name": "mobile_use", "arguments": json.dumps({"action": "type", "text": "你好"})}
    assert parse_tool_call(call) == Type(text="你好")


def test_enum_arguments_ignore_letter_case() -> None:
    args: dict[str, Any] = {"action": "system_button", "button": "back"}
    assert parse_action(args) == SystemButton(button=SystemButtonName.BACK)
    assert parse_action({"action": "swipe", "direction": "UP"}) == Swipe(direction=Direction.UP)


def test_direction_swipe_goes_through_the_middle_of_the_screen() -> None:
    assert Swipe(direction=Direction.UP).endpoints() == ((500, 800), (500, 200))
    assert Swipe(coordinate=(1, 2), coordinate2=(3, 4)).endpoints() == ((1, 2), (3, 4))


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        ("{not json", "tool call is not valid JSON"),
        ("[1, 2]", "tool call must be a JSON object, got list"),
        ({"name": "computer_use", "arguments": {}}, "tool 'computer_use' is not 'mobile_use'"),
        ({"name": "mobile_use"}, "tool call has no 'arguments'"),
        ({"name": "mobile_use", "arguments": "{oops"}, "tool call arguments are not valid JSON"),
        ({"name": "mobile_use", "arguments": [1]}, "arguments must be a JSON object, got list"),
        ({"name": "mobile_use", "arguments": {"coordinate": [1, 2]}}, "arguments have no 'action'"),
        ({"name": "mobile_use", "arguments": {"action": "tap"}}, "unknown action 'tap'"),
        (
            {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1200, 5]}},
            "click: coordinate.0 Input should be less than or equal to 1000 (got 1200)",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [5, -1]}},
            "click: coordinate.1 Input should be greater than or equal to 0 (got -1)",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [5]}},
            "click: coordinate.1 is required",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1.5, 2]}},
            "click: coordinate.0 Input should be a valid integer",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [True, 2]}},
            "click: coordinate.0 must be an integer, not a boolean",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "click", "coordinate": ["500", 2]}},
            "click: coordinate.0 Input should be a valid integer (got '500')",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [500.0, 2]}},
            "click: coordinate.0 Input should be a valid integer (got 500.0)",
        ),
        (
            '{"name": "mobile_use", "arguments": {"action": "long_press", "coordinate": [1, 2.0]}}',
            "long_press: coordinate.1 Input should be a valid integer (got 2.0)",
        ),
        (
            {
                "name": "mobile_use",
                "arguments": {"action": "swipe", "coordinate": [1, 2], "coordinate2": ["3", 4]},
            },
            "swipe: coordinate2.0 Input should be a valid integer (got '3')",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "click"}},
            "click: needs a coordinate or an element",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, 2], "x": 1}},
            "click: x is not an argument of this action",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [1, 2]}},
            "swipe: needs both coordinate and coordinate2, or a direction",
        ),
        (
            {
                "name": "mobile_use",
                "arguments": {"action": "swipe", "direction": "up", "coordinate": [1, 2]},
            },
            "swipe: give either direction or coordinate and coordinate2, not both",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "system_button", "button": "Power"}},
            "system_button: button Input should be 'Back', 'Home', 'Menu' or 'Enter'",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "type", "text": ""}},
            "type: text String should have at least 1 character",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "wait", "time": 600}},
            "wait: time Input should be less than or equal to 60",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "key", "text": "KEYCODE; reboot"}},
            "key: text String should match pattern",
        ),
        (
            {"name": "mobile_use", "arguments": {"action": "terminate", "status": "maybe"}},
            "terminate: status Input should be 'success' or 'failure'",
        ),
    ],
)
def test_invalid_tool_calls_say_exactly_what_is_wrong(call: Any, reason: str) -> None:
    with pytest.raises(InvalidActionError) as raised:
        parse_tool_call(call)
    assert str(raised.value).startswith(reason), str(raised.value)
    assert raised.value.reason == str(raised.value)


@given(junk=st.one_of(st.text(max_size=50), st.binary(max_size=50)))
def test_arbitrary_text_never_escapes_as_another_exception(junk: str | bytes) -> None:
    with contextlib.suppress(InvalidActionError):
        parse_tool_call(junk)


@given(
    arguments=st.dictionaries(
        st.sampled_from(
            ["action", "coordinate", "coordinate2", "text", "time", "button", "status", "direction"]
        ),
        st.one_of(
            st.none(),
            st.integers(),
            st.text(max_size=10),
            st.lists(st.integers(), max_size=3),
            st.booleans(),
        ),
    )
)
def test_arbitrary_arguments_parse_or_raise_invalid_action(arguments: dict[str, Any]) -> None:
    with contextlib.suppress(InvalidActionError):
        parse_action(arguments)


def test_actions_are_frozen() -> None:
    click = Click(coordinate=(1, 2))
    with pytest.raises(ValueError, match="frozen"):
        click.coordinate = (3, 4)  # type: ignore[misc]


def test_tool_calls_name_the_action_first() -> None:
    """As Qwen's `mobile_use` calls do, whatever field order the action's model has."""
    from phonebuddy.protocol import Click, Type, to_tool_call_json

    assert to_tool_call_json(Click(coordinate=(1, 2))) == (
        '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, 2]}}'
    )
    assert to_tool_call_json(Click(element=7)).endswith('{"action": "click", "element": 7}}')
    assert to_tool_call_json(Type(text="a", element=3)).endswith(
        '{"action": "type", "text": "a", "element": 3}}'
    )
