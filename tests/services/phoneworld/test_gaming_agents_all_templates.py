"""Every template on several seeds against agents that do not try to do the task: a random
agent, a do-nothing agent and a click-everything agent (which also answers by listing every
text it saw). None of them may ever pass: RL finds any verifier such an agent can satisfy and
learns that instead of the task.

The agents act through the normal action interface from the task's start state, with the
training step budget (30) for the random agent and the evaluation budget (50) for the
click-everything one. Every agent is seeded, so a failure here replays exactly."""

from __future__ import annotations

import random
import string
from collections.abc import Callable

import pytest

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import texts
from phonebuddy.phoneworld.tasks.registry import all_templates, get_template
from phonebuddy.phoneworld.tasks.runner import (
    TaskInstance,
    evaluate,
    instantiate,
    run_oracle,
    start,
)
from phonebuddy.phoneworld.world import World, seeded_rng
from phonebuddy.protocol import (
    Action,
    Click,
    Direction,
    LongPress,
    Open,
    Swipe,
    SystemButton,
    SystemButtonName,
    Type,
    Verdict,
    from_pixels,
)

TEMPLATES = all_templates()
IDS = [t.id for t in TEMPLATES]
SEEDS = (0, 1, 2)
TRAIN_BUDGET = 30
EVAL_BUDGET = 50
WORDS = ("1", "2", "10", "100", "8:00", "明天", "好的", "hello", "yes", "确认", "北京", "0")


def _play(
    world: World, template: TaskTemplate, seed: int, agent: Callable[[Device, int], Action | None]
) -> tuple[TaskInstance, Device, dict]:
    device = Device(world, device_id="gaming")
    instance = instantiate(template, world, seed)
    before = start(device, instance)
    for step in range(EVAL_BUDGET):
        action = agent(device, step)
        if action is None:
            break
        device.act(action)
    return instance, device, before


def _verdict(world: World, instance: TaskInstance, device: Device, before: dict,
             answer: str | None) -> Verdict:  # fmt: skip
    return evaluate(world, instance.template, instance.params, before, device.snapshot(), answer)


def _random_agent(world: World, rng: random.Random) -> Callable[[Device, int], Action | None]:
    labels = [app.label.zh for app in world.apps] + [app.label.en for app in world.apps]

    def act(device: Device, step: int) -> Action | None:
        if step >= TRAIN_BUDGET:
            return None
        point = (rng.randint(0, 1000), rng.randint(0, 1000))
        roll = rng.random()
        if roll < 0.55:
            return Click(coordinate=point)
        if roll < 0.65:
            return Swipe(direction=rng.choice(list(Direction)))
        if roll < 0.75:
            return Type(text=rng.choice(WORDS))
        if roll < 0.85:
            return SystemButton(button=rng.choice([SystemButtonName.BACK, SystemButtonName.HOME,
                                                   SystemButtonName.ENTER]))  # fmt: skip
        if roll < 0.93:
            return Open(text=rng.choice(labels))
        return LongPress(coordinate=point)

    return act


def _random_answer(rng: random.Random) -> str:
    return rng.choice([
        str(rng.randint(0, 500)), rng.choice(WORDS),
        "".join(rng.choices(string.ascii_letters, k=6)),
        f"{rng.randint(1, 12)}月{rng.randint(1, 28)}日", "是", "no",
    ])  # fmt: skip


class ClickEverything:
    """Taps every clickable thing it has not tapped yet, topmost first, and goes back when a
    screen has nothing new; remembers every text it saw (its answer lists them all)."""

    def __init__(self) -> None:
        self.tapped: set[tuple[str, str, str, tuple[int, int]]] = set()
        self.seen: list[str] = []

    def __call__(self, device: Device, step: int) -> Action | None:
        tree = device.ui_tree()
        for text in texts(tree):
            if text not in self.seen:
                self.seen.append(text)
        for node in reversed(list(tree.walk())):
            box = node.bounds
            if not node.clickable or box.right <= box.left or box.bottom <= box.top:
                continue
            key = (node.package, node.resource_id, node.text, node.bounds.center)
            if key in self.tapped:
                continue
            self.tapped.add(key)
            return Click(coordinate=from_pixels(node.bounds.center, device.screen))
        return SystemButton(button=SystemButtonName.BACK)

    def answer(self) -> str:
        return "\n".join(self.seen)[:4000]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_a_random_agent_never_passes(world: World, template: TaskTemplate, seed: int) -> None:
    rng = seeded_rng("random-agent", world.seed, seed, template.id)
    instance, device, before = _play(world, template, seed, _random_agent(world, rng))
    answer = _random_answer(rng) if template.answers else None
    verdict = _verdict(world, instance, device, before, answer)
    assert not verdict.success, f"a random agent passed (answer {answer!r})"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_doing_nothing_never_passes(world: World, template: TaskTemplate, seed: int) -> None:
    instance, device, before = _play(world, template, seed, lambda device, step: None)
    for answer in (None, "", "done", "完成"):
        assert not _verdict(world, instance, device, before, answer).success, answer


@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_clicking_everything_and_listing_every_text_never_passes(
    world: World, template: TaskTemplate, seed: int
) -> None:
    agent = ClickEverything()
    instance, device, before = _play(world, template, seed, agent)
    for answer in (None, agent.answer()):
        verdict = _verdict(world, instance, device, before, answer)
        assert not verdict.success, f"clicking everything passed (answer {answer!r:.200})"


def test_the_agents_do_find_a_verifier_that_can_be_gamed(world: World) -> None:
    """The agents above have teeth: a verifier that accepts any change of the app data is passed
    by both acting agents, and the click-everything agent's list of every text it saw does hold
    the right value of several question-answer tasks (which their verifiers still reject)."""
    toggle = type(get_template("settings.toggle"))

    class AnyChange(toggle):  # type: ignore[misc, valid-type]
        id = "gameable.any_change"

        def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
            changed = [c for c in diff.touched("os") + diff.touched("apps") if c.path != "os/clock"]
            return [] if changed else ["nothing changed"]

    any_change = AnyChange()
    rng = seeded_rng("random-agent", world.seed, 0, any_change.id)
    random_passes = sum(
        _verdict(world, *_play(world, any_change, seed, _random_agent(world, rng)), None).success
        for seed in range(10)
    )
    assert random_passes >= 3
    assert _verdict(world, *_play(world, any_change, 0, ClickEverything()), None).success

    # The list-every-text answer holds the right value for several question-answer templates,
    # so a verifier that looked for the value inside the answer would pay it; theirs do not.
    listed_right = []
    for template in (t for t in TEMPLATES if t.answers):
        oracle = Device(world, device_id="oracle")
        instance = instantiate(template, world, 0)
        start(oracle, instance)
        _, right = run_oracle(oracle, template, instance.params)
        agent = ClickEverything()
        played = _play(world, template, 0, agent)
        if right and right in agent.answer():
            listed_right.append(template.id)
            assert not _verdict(world, *played, agent.answer()).success, template.id
    assert len(listed_right) >= 5, listed_right
