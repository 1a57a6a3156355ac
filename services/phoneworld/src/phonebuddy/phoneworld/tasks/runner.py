"""Instantiate, start, solve and verify tasks; prove each verifier against near misses."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from phonebuddy.phoneworld.device import ActResult, Device
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import Doc
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import DEFAULT_IGNORABLE, StateDiff, diff_states
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World, seeded_rng
from phonebuddy.protocol import Action, Answer, TaskSpec, Verdict

MAX_ORACLE_STEPS = 120


@dataclass(frozen=True, slots=True)
class TaskInstance:
    template: TaskTemplate
    params: Params
    seed: int
    spec: TaskSpec


def instantiate(
    template: TaskTemplate, world: World, seed: int, *, language: str = "zh"
) -> TaskInstance:
    params = template.sample(world, seeded_rng("task", world.seed, seed, template.id))
    return TaskInstance(template, params, seed, template.spec(params, seed=seed, language=language))


def start(device: Device, instance: TaskInstance) -> Doc:
    """Reset the device to the task's start state, with the friction its seed plans (splash
    screens, pop-ups); returns the `before` snapshot."""
    device.reset(instance.seed, friction=True)
    instance.template.setup(Interaction(device, instance.template.apps[0]), instance.params)
    device.version += 1
    return device.snapshot()


def ignorable_paths(world: World, template: TaskTemplate) -> tuple[str, ...]:
    per_app = tuple(f"apps/{app.package}/{path}" for app in world.apps for path in app.ignorable)
    return DEFAULT_IGNORABLE + per_app + template.ignorable


def evaluate(
    world: World,
    template: TaskTemplate,
    params: Params,
    before: Doc,
    after: Doc,
    answer: str | None,
) -> Verdict:
    diff = StateDiff(before, after, ignorable=ignorable_paths(world, template))
    problems = list(template.verify(diff, params, answer))
    problems += [f"unexpected change: {change.describe()}" for change in diff.unexpected()]
    return Verdict(
        success=not problems,
        reward=0.0 if problems else 1.0,
        grader="verifier",
        reason="; ".join(problems) if problems else "every expectation met, no side effects",
        details={"problems": problems, "changes": [c.path for c in diff.changes]},
    )


def oracle_steps(
    device: Device, template: TaskTemplate, params: Params
) -> Iterator[tuple[Action, ActResult]]:
    """Play the scripted solution through the normal action interface, getting past any splash
    screen or pop-up the way a user would (the template's script never sees them); yields each
    action with its result. A step that has no effect means the oracle is broken: it raises."""
    ui = OracleUI(device)
    steps = 0

    def step(action: Action) -> ActResult:
        nonlocal steps
        if steps >= MAX_ORACLE_STEPS:
            raise OracleError(f"{template.id}: more than {MAX_ORACLE_STEPS} steps")
        steps += 1
        result = device.act(action)
        if result.effect == "no_op":
            raise OracleError(
                f"{template.id}: step {steps} {action!r} had no effect ({result.note})"
            )
        return result

    for action in template.solve(ui, params):
        if ui.keyboard_hides(action):  # the keyboard covers the target: hide it, aim again
            hide = ui.back()
            yield hide, step(hide)
            action = ui.tap_again()
        yield action, step(action)
        while (dismiss := ui.past_friction()) is not None:
            yield dismiss, step(dismiss)


def run_oracle(
    device: Device, template: TaskTemplate, params: Params
) -> tuple[list[Action], str | None]:
    """The scripted solution's actions (see `oracle_steps`) and its answer, if any."""
    actions: list[Action] = []
    answer = None
    for action, _ in oracle_steps(device, template, params):
        actions.append(action)
        if isinstance(action, Answer):
            answer = action.text
    return actions, answer


NearMissOutcome = Literal["rejected", "ACCEPTED", "not applicable"]


@dataclass
class TemplateCheck:
    """One template on one seed: did the oracle pass, and were the near misses rejected?"""

    template_id: str
    seed: int
    oracle_steps: int = 0
    verdict: Verdict | None = None
    near_misses: dict[str, NearMissOutcome] = field(default_factory=dict)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return (
            self.error is None
            and self.verdict is not None
            and self.verdict.success
            and "ACCEPTED" not in self.near_misses.values()
            and any(outcome == "rejected" for outcome in self.near_misses.values())
        )


def _app_state(doc: Doc) -> Doc:
    return {"os": doc["os"], "apps": doc["apps"]}


def _replay(device: Device, before: Doc, actions: Sequence[Action]) -> None:
    device.restore(before)
    for action in actions:
        device.act(action)


def check_template(world: World, template: TaskTemplate, seed: int) -> TemplateCheck:
    report = TemplateCheck(template.id, seed)
    device = Device(world, device_id="check")
    instance = instantiate(template, world, seed)
    before = start(device, instance)
    try:
        actions, answer = run_oracle(device, template, instance.params)
    except OracleError as exc:
        report.error = str(exc)
        return report
    after = device.snapshot()
    report.oracle_steps = len(actions)
    report.verdict = evaluate(world, template, instance.params, before, after, answer)
    if not report.verdict.success:
        return report

    def judge(state: Doc, given_answer: str | None) -> NearMissOutcome:
        verdict = evaluate(world, template, instance.params, before, state, given_answer)
        return "ACCEPTED" if verdict.success else "rejected"

    # 1. Stopping early: the answer left out, or the last state-changing step not taken.
    if template.answers:
        report.near_misses["no answer"] = judge(after, None)
    else:
        for cut in range(1, len(actions) + 1):
            _replay(device, before, actions[:-cut])
            if diff_states(_app_state(device.state), _app_state(after)):
                report.near_misses["one step short"] = judge(device.snapshot(), answer)
                break
    # 2. The wrong thing: the oracle of other parameters, or a wrong answer.
    report.near_misses["wrong parameters"] = "not applicable"
    wrong = template.wrong_answer(instance.params) if template.answers else None
    if wrong is not None:
        report.near_misses["wrong answer"] = judge(after, wrong)
    for attempt in range(20):
        other = template.sample(world, seeded_rng("near-miss", world.seed, seed, attempt))
        if other == instance.params:
            continue
        device.restore(before)
        try:
            _, other_answer = run_oracle(device, template, other)
        except OracleError:
            continue  # those parameters cannot be solved from this start state
        changed = bool(diff_states(_app_state(device.state), _app_state(after)))
        if template.answers and other_answer is not None and other_answer != answer:
            report.near_misses["wrong parameters"] = judge(device.snapshot(), other_answer)
            break
        if not template.answers and changed:
            report.near_misses["wrong parameters"] = judge(device.snapshot(), other_answer)
            break
    # 3. An extra side effect: the right result plus an unrelated settings change.
    device.restore(after)
    touched = {c.path for c in diff_states(before, after)}
    for key in ("bluetooth", "do_not_disturb", "dark_mode", "airplane_mode"):
        if f"os/settings/{key}" not in touched:
            device.state["os"]["settings"][key] = not device.state["os"]["settings"][key]
            report.near_misses["extra side effect"] = judge(device.snapshot(), answer)
            break
    return report
