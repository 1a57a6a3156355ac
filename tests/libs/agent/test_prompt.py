import pytest

from phonebuddy.agent import (
    SYSTEM_PROMPT,
    ImagePart,
    PromptConfig,
    TextPart,
    build_prompt,
    history_text,
    mobile_use_tool,
)
from phonebuddy.protocol import ACTION_NAMES, Click, ToolSpec, Type


def test_first_step_prompt_layout(frame_of, observation_of, task):
    prompt = build_prompt(task, (), observation_of("now"))
    system, user = prompt.messages
    assert system.role == "system"
    assert system.content == SYSTEM_PROMPT
    assert prompt.tools == (mobile_use_tool(),)
    assert user.role == "user"
    assert user.content == (
        TextPart(
            text="Task: Send 张三 the message 你好\n\nPrevious actions: none\n"
            "\nCurrent screenshot (step 1):\n"
        ),
        ImagePart(frame=frame_of("now")),
    )


def test_history_lists_actions_and_invalid_steps(frame_of, observation_of, task, make_step):
    history = (
        make_step(0, Click(coordinate=(540, 800))),
        make_step(1, invalid_reason="no tool call found"),
        make_step(2, Type(text="你好")),
    )
    assert history_text(history) == (
        "Previous actions:\n"
        "Step 1: click(540, 800)\n"
        "Step 2: invalid output (no tool call found)\n"
        'Step 3: type("你好")'
    )
    user = build_prompt(task, history, observation_of("now")).messages[1]
    assert user.content[0].text.startswith(
        "Task: Send 张三 the message 你好\n\nPrevious actions:\nStep 1: click(540, 800)\n"
    )
    assert user.content[0].text.endswith('Step 3: type("你好")\n\nCurrent screenshot (step 4):\n')


def test_chinese_task_uses_the_chinese_instruction(frame_of, observation_of, task):
    zh_task = task.model_copy(update={"language": "zh"})
    user = build_prompt(zh_task, (), observation_of("now")).messages[1]
    assert user.content[0].text.startswith("Task: 给张三发消息说你好\n")


def test_system_turn_carries_the_schema_with_every_action(frame_of, observation_of, task):
    text = build_prompt(task, (), observation_of("now")).render()
    system_turn = text.split("<|im_end|>")[0]
    assert system_turn.startswith("<|im_start|>system\n" + SYSTEM_PROMPT + "\n\n# Tools\n")
    assert '"name": "mobile_use"' in system_turn
    for name in ACTION_NAMES:
        assert f'"{name}"' in system_turn
    assert "[0, 1000]" in system_turn
    assert text.endswith("<|im_end|>\n<|im_start|>assistant\n")


def test_default_shows_only_the_current_screenshot(frame_of, observation_of, task, make_step):
    history = tuple(make_step(i, Click(coordinate=(i, i))) for i in range(5))
    prompt = build_prompt(task, history, observation_of("now"))
    assert prompt.frames == (frame_of("now"),)
    assert prompt.render().count("<|vision_start|><|image_pad|><|vision_end|>") == 1


def test_last_k_screenshots_earlier_first(frame_of, observation_of, task, make_step):
    history = tuple(make_step(i, Click(coordinate=(i, i))) for i in range(5))
    prompt = build_prompt(task, history, observation_of("now"), config=PromptConfig(screenshots=3))
    assert prompt.frames == (frame_of("screen-3"), frame_of("screen-4"), frame_of("now"))
    texts = [part.text for part in prompt.messages[1].content if isinstance(part, TextPart)]
    assert texts[1:] == [
        "\nScreenshot at step 5:\n",
        "\nCurrent screenshot (step 6):\n",
    ]
    assert texts[0].endswith("Step 5: click(4, 4)\n\nScreenshot at step 4:\n")


@pytest.mark.parametrize(("steps", "expected"), [(0, 1), (1, 2), (3, 4), (4, 5), (9, 5)])
def test_screenshot_count_is_capped_by_history(
    frame_of, observation_of, task, make_step, steps, expected
):
    history = tuple(make_step(i, Click(coordinate=(i, i))) for i in range(steps))
    prompt = build_prompt(task, history, observation_of("now"), config=PromptConfig(screenshots=5))
    assert len(prompt.frames) == expected
    assert prompt.frames[-1] == frame_of("now")


def test_observation_context_lists_app_time_and_tools(frame_of, observation_of, task):
    current = observation_of(
        "now",
        foreground_app="com.example.chat",
        device_time="2026-01-01T09:00:00+08:00",
        tools=(
            ToolSpec(
                name="chat.send",
                description="Send a message.",
                parameters={"type": "object", "properties": {"to": {"type": "string"}}},
            ),
        ),
    )
    user = build_prompt(task, (), current).messages[1]
    assert user.content[-1] == TextPart(
        text="\nForeground app: com.example.chat\n"
        "Device time: 2026-01-01T09:00:00+08:00\n"
        "App tools (call them with the `call_tool` action):\n"
        '- chat.send: Send a message. Parameters: {"type": "object", "properties": '
        '{"to": {"type": "string"}}}'
    )


def test_to_openai_attaches_images_by_reference(frame_of, observation_of, task):
    prompt = build_prompt(task, (), observation_of("now"))
    request = prompt.to_openai(lambda ref: f"data:{ref.media_type};base64,{ref.sha256[:8]}")
    user = request["messages"][1]
    assert user["content"][1] == {
        "type": "image_url",
        "image_url": {"url": f"data:image/png;base64,{frame_of('now').sha256[:8]}"},
    }
    assert request["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert request["tools"] == [mobile_use_tool()]
