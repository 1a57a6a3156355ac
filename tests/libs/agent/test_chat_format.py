import pytest

from phonebuddy.agent import build_prompt, render_chat, render_completion
from phonebuddy.agent.chat_format import SPECIAL_TOKEN_IDS
from phonebuddy.protocol import Click

TOOL = {"type": "function", "function": {"name": "mobile_use", "parameters": {"type": "object"}}}
IMAGE = {"type": "image", "frame": {"sha256": "0" * 64, "media_type": "image/png"}}
CALL = {
    "type": "function",
    "function": {"name": "mobile_use", "arguments": '{"action": "click", "coordinate": [1, 2]}'},
}
TOOLS_BLOCK = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
    '{"type": "function", "function": {"name": "mobile_use", "parameters": {"type": "object"}}}\n'
    "</tools>\n\nFor each function call, return a json object with function name and arguments "
    "within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n'
)
CONVERSATION = [
    {"role": "system", "content": "You are an agent."},
    {"role": "user", "content": [{"type": "text", "text": "Task: 你好\n"}, IMAGE]},
    {"role": "assistant", "content": "", "tool_calls": [CALL]},
    {"role": "user", "content": [IMAGE, {"type": "text", "text": "next"}]},
]


def test_golden_conversation_with_tools_images_and_a_tool_call(render):
    text = render(CONVERSATION, tools=[TOOL], add_generation_prompt=True)
    assert text == (
        "<|im_start|>system\nYou are an agent.\n\n" + TOOLS_BLOCK + "<|im_start|>user\n"
        "Task: 你好\n<|vision_start|><|image_pad|><|vision_end|><|im_end|>\n"
        "<|im_start|>assistant\n<tool_call>\n"
        '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, 2]}}\n'
        "</tool_call><|im_end|>\n"
        "<|im_start|>user\n<|vision_start|><|image_pad|><|vision_end|>next<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def test_golden_without_tools(render):
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    assert render(messages) == (
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n"
    )


def test_golden_tools_without_a_system_message(render):
    text = render([{"role": "user", "content": "hi"}], tools=[TOOL])
    assert text == "<|im_start|>system\n" + TOOLS_BLOCK + "<|im_start|>user\nhi<|im_end|>\n"


def test_golden_thinking_content_and_several_calls(render):
    object_call = {"function": {"name": "mobile_use", "arguments": {"action": "wait", "t": "é"}}}
    message = {
        "role": "assistant",
        "reasoning_content": "The button is at the top.",
        "content": "Clicking.",
        "tool_calls": [CALL, object_call],
    }
    assert render([message]) == (
        "<|im_start|>assistant\n<think>\nThe button is at the top.\n</think>\n\nClicking.\n"
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
        '"coordinate": [1, 2]}}\n</tool_call>\n'
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "wait", "t": "é"}}\n'
        "</tool_call><|im_end|>\n"
    )


@pytest.mark.parametrize(
    ("enable_thinking", "suffix"),
    [(None, ""), (True, ""), (False, "<think>\n\n</think>\n\n")],
)
def test_generation_prompt_and_thinking_switch(render, enable_thinking, suffix):
    kwargs = {} if enable_thinking is None else {"enable_thinking": enable_thinking}
    text = render([{"role": "user", "content": "hi"}], add_generation_prompt=True, **kwargs)
    assert text == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n" + suffix


def test_vision_ids_number_images_across_messages(render):
    text = render(CONVERSATION[1:2] + CONVERSATION[3:], add_vision_id=True)
    assert "Picture 1: <|vision_start|>" in text
    assert "Picture 2: <|vision_start|>" in text


def test_generation_prompt_is_a_prefix_of_the_answered_conversation():
    prompt = render_chat(CONVERSATION[:2], tools=[TOOL], add_generation_prompt=True)
    full = render_chat(CONVERSATION[:3], tools=[TOOL])
    assert full == prompt + render_completion(CONVERSATION[2])
    assert render_completion(CONVERSATION[2]).endswith("</tool_call><|im_end|>\n")


def test_special_token_ids_match_the_qwen35_tokenizer():
    assert SPECIAL_TOKEN_IDS == {
        "<|im_start|>": 248045,
        "<|im_end|>": 248046,
        "<|vision_start|>": 248053,
        "<|image_pad|>": 248056,
    }


def test_rendered_agent_prompt_agrees(render, task, make_step, observation_of):
    history = (make_step(0, Click(coordinate=(5, 6))), make_step(1, invalid_reason="bad"))
    prompt = build_prompt(task, history, observation_of("now"))
    text = render(prompt.chat_messages(), tools=list(prompt.tools), add_generation_prompt=True)
    assert text == prompt.render()
