import json

import pytest

from phonebuddy.agent import action_text, mobile_use_tool
from phonebuddy.agent.tool import ACTION_DESCRIPTIONS, PARAMETER_DESCRIPTIONS
from phonebuddy.protocol import (
    ACTION_NAMES,
    Answer,
    CallTool,
    Click,
    Direction,
    Key,
    LongPress,
    Open,
    Swipe,
    SystemButton,
    Terminate,
    Type,
    Wait,
)
from phonebuddy.protocol.actions import ACTION_TYPES

ACTION_TEXTS = [
    (Click(coordinate=(540, 800)), "click(540, 800)"),
    (LongPress(coordinate=(10, 20), time=2.5), "long_press(10, 20, time=2.5)"),
    (Swipe(coordinate=(500, 800), coordinate2=(500, 200)), "swipe((500, 800), (500, 200))"),
    (Swipe(direction=Direction.UP), 'swipe("up")'),
    (Type(text="你好"), 'type("你好")'),
    (Type(text='say "hi"'), 'type("say \\"hi\\"")'),
    (Key(text="KEYCODE_DEL"), 'key("KEYCODE_DEL")'),
    (SystemButton(button="Back"), 'system_button("Back")'),
    (Open(text="微信"), 'open("微信")'),
    (Wait(time=2), "wait(2)"),
    (Answer(text="42"), 'answer("42")'),
    (Terminate(status="success"), 'terminate("success")'),
    (
        CallTool(name="chat.send", arguments={"to": "张三"}),
        'call_tool("chat.send", {"to": "张三"})',
    ),
]


@pytest.mark.parametrize(("action", "expected"), ACTION_TEXTS)
def test_action_text_is_short_and_readable(action, expected):
    assert action_text(action) == expected


def test_action_text_examples_cover_every_action():
    assert {action.action for action, _ in ACTION_TEXTS} == set(ACTION_NAMES)


def test_schema_enumerates_every_action_of_the_protocol():
    parameters = mobile_use_tool()["function"]["parameters"]
    assert parameters["properties"]["action"]["enum"] == list(ACTION_NAMES)
    assert parameters["required"] == ["action"]
    for name in ACTION_NAMES:
        assert f"`{name}`:" in parameters["properties"]["action"]["description"]


def test_schema_has_every_argument_of_every_action():
    properties = mobile_use_tool()["function"]["parameters"]["properties"]
    fields = {field for action_type in ACTION_TYPES for field in action_type.model_fields}
    assert set(properties) == fields


def test_hand_written_descriptions_cover_the_protocol():
    fields = {field for action_type in ACTION_TYPES for field in action_type.model_fields}
    assert set(ACTION_DESCRIPTIONS) == set(ACTION_NAMES)
    assert set(PARAMETER_DESCRIPTIONS) == fields


def test_coordinates_are_normalized_to_1000_on_both_axes():
    properties = mobile_use_tool()["function"]["parameters"]["properties"]
    for name in ("coordinate", "coordinate2"):
        assert properties[name]["items"] == {"minimum": 0, "maximum": 1000, "type": "integer"}
        assert properties[name]["minItems"] == properties[name]["maxItems"] == 2


def test_enums_come_from_the_protocol():
    properties = mobile_use_tool()["function"]["parameters"]["properties"]
    assert properties["button"]["enum"] == ["Back", "Home", "Menu", "Enter"]
    assert properties["status"]["enum"] == ["success", "failure"]
    assert properties["direction"]["enum"] == ["up", "down", "left", "right"]


def test_schema_is_plain_json_in_openai_tools_format():
    tool = mobile_use_tool()
    assert tool["type"] == "function"
    assert tool["function"]["name"] == "mobile_use"
    text = json.dumps(tool)
    assert "$ref" not in text
    assert '"title"' not in text
    tool["function"]["name"] = "changed"
    assert mobile_use_tool()["function"]["name"] == "mobile_use"
