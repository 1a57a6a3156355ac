"""PhoneWorld's ground-truth grader on its own: the action log read back into actions, the task
set-up broadcast over ADB giving exactly the `sim` start state, and replayed verdicts that agree
with the verifier — the oracle's episode passes; an idle, a give-up and a wrong-answer one fail.
The grader behind the judge and the gateway is tested in tests/services/broker."""

from __future__ import annotations

import asyncio
import json

import pytest

from phonebuddy.agent.tool import action_text
from phonebuddy.phoneworld.adb.phone import AdbPhone
from phonebuddy.phoneworld.adb.task_setup import TASK_SETUP_ACTION
from phonebuddy.phoneworld.demonstrations import oracle_actions
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.ground_truth import (
    RUBRIC,
    GradingRequestError,
    answer,
    parse_action_text,
)
from phonebuddy.phoneworld.tasks.registry import all_templates, get_template
from phonebuddy.phoneworld.tasks.runner import instantiate, start
from phonebuddy.phoneworld.world import World, default_world
from phonebuddy.protocol import (
    Action,
    Answer,
    CallTool,
    Click,
    Key,
    LongPress,
    Open,
    ScreenSize,
    Swipe,
    SystemButton,
    Terminate,
    Type,
    Wait,
    task_metadata,
)

SCREEN = ScreenSize(width=1080, height=2400)
# Templates of several apps and kinds: toggles, typed text, answers (qa), cross-app.
TEMPLATES = (
    "settings.toggle", "notes.create", "wallet.balance", "contacts.add", "clock.alarm_once",
)  # fmt: skip

EVERY_KIND: list[Action] = [
    Click(coordinate=(0, 1000)),
    LongPress(coordinate=(540, 12), time=2.5),
    Swipe(direction="up"),
    Swipe(coordinate=(10, 900), coordinate2=(10, 100)),
    Type(text='say "hi"\nand 你好 \\ ok'),
    Key(text="enter"),
    Open(text="Notes"),
    Answer(text="42 元"),
    SystemButton(button="Back"),
    Wait(time=0.5),
    Terminate(status="failure"),
    CallTool(name="set_alarm", arguments={"hour": 7, "on": True, "label": None, "days": [1, 2]}),
]


@pytest.mark.parametrize("action", EVERY_KIND, ids=lambda a: a.action)
def test_the_action_log_reads_back_into_the_very_actions(action: Action) -> None:
    assert parse_action_text(action_text(action)) == action


@pytest.mark.parametrize(
    "text", ["click(1, 2", "__import__('os')", "click(x, 2)", "fly(1)", "click(1, 2000)"]
)
def test_an_unreadable_or_invalid_action_is_a_clear_error(text: str) -> None:
    with pytest.raises(GradingRequestError):
        parse_action_text(text)


def grading_body(
    template_id: str, seed: int, actions: list[Action], *, answer_text: str | None = None
) -> dict:
    """A grading request shaped like the judge's (phonebuddy.judge.grading)."""
    instance = instantiate(get_template(template_id), default_world(0), seed, language="en")
    log = "\n".join(f"Step {n}: {action_text(a)}" for n, a in enumerate(actions, 1))
    final = (
        f"The agent's final answer: {json.dumps(answer_text)}"
        if answer_text is not None
        else "The agent gave no answer."
    )
    text = (
        f"Task instruction:\n{instance.spec.instruction_text}\n\n"
        "Rubric items:\n- task_done: done\n- no_side_effects: nothing else changed\n\n"
        f"What the agent did ({len(actions)} steps):\n{log or '(no steps)'}\n\n{final}\n"
    )
    return {
        "model": "phoneworld-ground-truth",
        "messages": [
            {"role": "system", "content": "You are a strict grader."},
            {"role": "user", "content": [{"type": "text", "text": text}]},
        ],
        "metadata": task_metadata(instance.spec),
    }


def passed(body: dict, world: World) -> bool:
    results = answer(world, SCREEN, body)["results"]
    assert [r["id"] for r in results] == ["task_done", "no_side_effects"]
    assert all("stand-in" in r["evidence"] for r in results)
    verdicts = {r["passed"] for r in results}
    assert len(verdicts) == 1
    return verdicts.pop()


@pytest.mark.parametrize("template_id", TEMPLATES)
def test_the_oracle_episode_passes_and_idle_or_giving_up_fails(
    template_id: str, world: World
) -> None:
    instance = instantiate(get_template(template_id), world, 3, language="en")
    solution = oracle_actions(world, instance)
    final = solution[-1]
    answer_text = final.text if isinstance(final, Answer) else None
    assert passed(grading_body(template_id, 3, solution, answer_text=answer_text), world)
    assert not passed(grading_body(template_id, 3, []), world)
    assert not passed(grading_body(template_id, 3, [Terminate(status="success")]), world)
    if answer_text is not None:
        wrong = [*solution[:-1], Answer(text="I do not know")]
        assert not passed(grading_body(template_id, 3, wrong, answer_text="I do not know"), world)
    else:  # half the solution, then a claim of success
        half = [*solution[: max(1, (len(solution) - 1) // 2)], Terminate(status="success")]
        if len(solution) > 2:
            assert not passed(grading_body(template_id, 3, half), world)


def test_without_task_metadata_it_writes_the_rubric(world: World) -> None:
    body = grading_body("settings.toggle", 0, [])
    del body["metadata"]
    assert answer(world, SCREEN, body) == RUBRIC


@pytest.mark.parametrize(
    ("metadata", "message"),
    [
        ({"phonebuddy_template_id": "no.such", "phonebuddy_seed": "0"}, "unknown task template"),
        ({"phonebuddy_template_id": "settings.toggle", "phonebuddy_seed": "x"}, "not an integer"),
    ],
)
def test_a_request_for_an_unknown_task_is_refused(
    metadata: dict[str, str], message: str, world: World
) -> None:
    body = grading_body("settings.toggle", 0, []) | {"metadata": metadata}
    with pytest.raises(GradingRequestError, match=message):
        answer(world, SCREEN, body)


def _broadcast(phone: AdbPhone, *extras: str) -> str:
    line = f"am broadcast -a {TASK_SETUP_ACTION} " + " ".join(extras)
    result = phone.run_blocking(line)
    assert result.exit_code == 0
    return result.stdout.decode()


@pytest.mark.parametrize("template_id", [t.id for t in all_templates()][::23])
def test_the_setup_broadcast_gives_the_sim_start_state(template_id: str, world: World) -> None:
    phone = AdbPhone(Device(world, screen=SCREEN), asyncio.Lock(), serial="pw-setup")
    phone.run_blocking("input tap 500 500")  # whatever state it was in before
    out = _broadcast(phone, "--es template_id", template_id, "--ei seed 7 --es language en")
    instance = instantiate(get_template(template_id), world, 7, language="en")
    assert f'result=-1, data="{instance.spec.task_id}"' in out
    sim = Device(world, screen=SCREEN)
    assert phone.device.snapshot() == start(sim, instance)


@pytest.mark.parametrize(
    ("extras", "message"),
    [
        (("--es template_id no.such",), "unknown task template"),
        (("--ei seed 3",), "template_id"),
        (("--es template_id settings.toggle --es seed 3",), "seed"),
        (("--es template_id settings.toggle --es language fr",), "language"),
    ],
)
def test_a_bad_setup_broadcast_fails_and_leaves_the_phone_as_it_was(
    extras: tuple[str, ...], message: str, world: World
) -> None:
    phone = AdbPhone(Device(world, screen=SCREEN), asyncio.Lock(), serial="pw-setup")
    before = phone.device.snapshot()
    out = _broadcast(phone, *extras)
    assert "result=1, data=" in out
    assert message in out
    assert phone.device.snapshot() == before


def test_replayed_verdicts_agree_with_the_verifier_on_every_template(world: World) -> None:
    """Every template's oracle episode, read back from its log and replayed, passes; the same
    task left idle fails."""
    disagreements = []
    for template in all_templates():
        instance = instantiate(template, world, 1, language="en")
        solution = oracle_actions(world, instance)
        final = solution[-1]
        answer_text = final.text if isinstance(final, Answer) else None
        if not passed(grading_body(template.id, 1, solution, answer_text=answer_text), world):
            disagreements.append(f"{template.id}: the oracle's episode failed")
        if passed(grading_body(template.id, 1, []), world):
            disagreements.append(f"{template.id}: the idle episode passed")
    assert not disagreements, disagreements
