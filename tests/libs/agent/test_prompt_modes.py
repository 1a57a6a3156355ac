"""Observation modes, element actions and the brief tool description: one `PromptConfig` that
rollouts, SFT and evaluation share."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from phonebuddy.agent import (
    BRIEF_SYSTEM_PROMPT,
    ImagePart,
    PromptConfig,
    TextPart,
    build_prompt,
    element_form,
    parse_output,
    read_record,
    sft_example,
    write_record,
)
from phonebuddy.agent.record import RecordError
from phonebuddy.protocol import (
    Bounds,
    Click,
    Observation,
    PromptMismatchError,
    ScreenSize,
    Step,
    Swipe,
    Type,
    UINode,
    check_prompt_match,
    from_pixels,
)

SCREEN = ScreenSize(width=1000, height=2000)
TREE_MODE = PromptConfig(observation="ui_tree", element_actions=True)


def _node(top: int, bottom: int, **fields: object) -> UINode:
    return UINode(bounds=Bounds(left=0, top=top, right=1000, bottom=bottom), **fields)  # type: ignore[arg-type]


def screen(observation: Observation) -> Observation:
    tree = _node(0, 2000, children=(
        _node(0, 100, text="Chats"),
        _node(100, 300, text="张三", clickable=True),
        _node(300, 500, text="李四", clickable=True),
    ))  # fmt: skip
    return observation.model_copy(update={"ui_tree": tree, "screen": SCREEN})


def test_ui_tree_mode_shows_numbered_elements_and_no_image(observation_of, task) -> None:
    prompt = build_prompt(task, (), screen(observation_of("now")), config=TREE_MODE)
    user = prompt.messages[1]
    assert prompt.frames == ()
    assert not any(isinstance(part, ImagePart) for part in user.content)
    assert user.content == (
        TextPart(
            text="Task: Send 张三 the message 你好\n\nPrevious actions: none\n"
            "\nScreen elements (step 1):\n[0] Chats\n[1] 张三\n[2] 李四\n"
        ),
    )


def test_screenshot_and_tree_mode_shows_both(observation_of, task) -> None:
    config = PromptConfig(observation="screenshot+ui_tree")
    prompt = build_prompt(task, (), screen(observation_of("now")), config=config)
    assert len(prompt.frames) == 1
    assert "[1] 张三" in prompt.render()


def test_a_missing_tree_is_said_not_hidden(observation_of, task) -> None:
    prompt = build_prompt(task, (), observation_of("now"), config=TREE_MODE)
    assert "(the device sent no UI tree)" in prompt.render()


def test_brief_tools_history_window_and_repeated_task(observation_of, task, make_step) -> None:
    config = TREE_MODE.model_copy(
        update={"tool_schema": "brief", "history_steps": 2, "repeat_task": True}
    )
    history = [make_step(i, Swipe(direction="up")) for i in range(5)]
    prompt = build_prompt(task, history, screen(observation_of("now")), config=config)
    assert prompt.tools == ()
    assert prompt.messages[0].content == BRIEF_SYSTEM_PROMPT
    text = prompt.render()
    assert "# Tools" not in text
    assert '(3 earlier)\nStep 4: swipe("up")\nStep 5: swipe("up")' in text
    assert "Step 3:" not in text
    assert text.count("Task: Send 张三 the message 你好") == 2
    assert (
        len(prompt.render())
        < len(build_prompt(task, history, screen(observation_of("now"))).render()) / 3
    )


def test_device_info_lines_can_be_left_out(observation_of, task) -> None:
    seen = screen(observation_of("now")).model_copy(
        update={"foreground_app": "com.pw.notes", "device_time": "2026-04-10T09:00:00+08:00"}
    )
    shown = build_prompt(task, (), seen, config=TREE_MODE).render()
    assert "Foreground app: com.pw.notes\nDevice time: 2026-04-10T09:00:00+08:00" in shown
    quiet = TREE_MODE.model_copy(update={"device_info": False})
    hidden = build_prompt(task, (), seen, config=quiet).render()
    assert "Foreground app" not in hidden
    assert "Device time" not in hidden
    assert "no device info" in quiet.describe()


def test_element_actions_need_a_tree() -> None:
    with pytest.raises(ValidationError, match="element_actions needs a UI-tree observation"):
        PromptConfig(element_actions=True)


def test_sft_targets_name_the_element_a_tap_landed_on(observation_of, task) -> None:
    seen = screen(observation_of("now"))
    tap = Click(coordinate=from_pixels((500, 400), SCREEN))  # inside 李四
    step = Step(index=1, observation=seen, raw_output="", action=tap)
    earlier = Step(
        index=0,
        observation=seen,
        raw_output="",
        action=Click(coordinate=from_pixels((500, 200), SCREEN)),
    )
    example = sft_example(step, task, [earlier], config=TREE_MODE)
    assert '"element": 2' in example.completion_text()
    assert "coordinate" not in example.completion_text()
    assert "Step 1: click(#1)" in example.prompt_text()
    # what the model learns to write is what the harness reads back
    parsed = parse_output(example.completion_text().removesuffix("<|im_end|>\n"))
    assert parsed.action == Click(element=2)  # type: ignore[union-attr]
    # in coordinate mode the same step keeps its point
    assert "coordinate" in sft_example(step, task, [earlier]).completion_text()


def test_element_form_of_stored_and_unlisted_actions(observation_of) -> None:
    seen = screen(observation_of("now"))
    stored = Click(element=1, coordinate=(500, 100))
    assert element_form(stored, seen) == Click(element=1)
    nowhere = Click(coordinate=from_pixels((500, 1500), SCREEN))
    assert element_form(nowhere, seen) == nowhere
    typed = Type(text="hi", coordinate=from_pixels((10, 150), SCREEN))
    assert element_form(typed, seen) == Type(text="hi", element=1)
    assert element_form(Swipe(direction="up"), seen) == Swipe(direction="up")


def test_checkpoint_records_its_prompt_and_a_mismatch_is_refused(tmp_path) -> None:
    assert read_record(tmp_path) is None
    write_record(tmp_path, TREE_MODE)
    assert read_record(tmp_path) == TREE_MODE
    check_prompt_match(read_record(tmp_path), TREE_MODE, what="ckpt")
    check_prompt_match(None, PromptConfig(), what="a base model")
    with pytest.raises(PromptMismatchError, match=r"ckpt was trained with prompts of \(ui_tree"):
        check_prompt_match(read_record(tmp_path), PromptConfig(), what="ckpt")
    (tmp_path / "phonebuddy.json").write_text("{not json")
    with pytest.raises(RecordError, match=r"phonebuddy\.json is not a valid checkpoint record"):
        read_record(tmp_path)
