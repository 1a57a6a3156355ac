"""Scripted demonstrations: a task's oracle solution played on a fresh phone and recorded as an
`Episode`, exactly as a rollout would record it (screenshots by reference, raw answers as the
model would write them, the verifier's verdict).

Used by the teacher policy (which answers with the oracle's actions), to build test and demo
data, and to calibrate the rubric judge against ground truth. Clearly a teacher: the policy
is named `phoneworld-oracle`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from phonebuddy.phoneworld.device import Device, ImageFormat
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.phoneworld.tasks.runner import (
    TaskInstance,
    evaluate,
    instantiate,
    run_oracle,
    start,
)
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import (
    Action,
    Answer,
    Episode,
    EpisodeStatus,
    PolicyRef,
    Step,
    StepTimings,
    Terminate,
    TerminateStatus,
    to_tool_call_json,
)

ORACLE_POLICY = PolicyRef(model="phoneworld-oracle", version="oracle")


@dataclass(frozen=True, slots=True)
class Demonstration:
    episode: Episode
    frames: dict[str, bytes]  # screenshot bytes by sha256, for the trajectory store


def oracle_actions(world: World, instance: TaskInstance) -> list[Action]:
    """The oracle's actions from the task's start state, ending with `answer` or
    `terminate(success)` as a policy's episode must."""
    device = Device(world)
    start(device, instance)
    actions, _ = run_oracle(device, instance.template, instance.params)
    if not actions or not isinstance(actions[-1], Answer | Terminate):
        actions.append(Terminate(status=TerminateStatus.SUCCESS))
    return actions


def raw_answer(action: Action) -> str:
    """The text a model writes for `action` (a Qwen tool call)."""
    return f"<tool_call>\n{to_tool_call_json(action)}\n</tool_call>"


def record_demonstration(
    world: World,
    template_id: str,
    seed: int,
    *,
    run_id: str,
    episode_id: str,
    language: str = "en",
    stop_after: int | None = None,
    actions: Sequence[Action] | None = None,
    image_format: ImageFormat = "jpeg",
    device_id: str = "pw-demo",
) -> Demonstration:
    """Play the oracle (or `actions`) for a task on a fresh phone and record the episode.
    `stop_after=N` keeps only the first N actions: a near miss the verifier rejects."""
    instance = instantiate(get_template(template_id), world, seed, language=language)
    planned = list(actions) if actions is not None else oracle_actions(world, instance)
    if stop_after is not None:
        planned = planned[:stop_after]
    device = Device(world, device_id=device_id)
    before = start(device, instance)
    started_at = datetime.now(UTC)
    frames: dict[str, bytes] = {}
    steps: list[Step] = []
    answer: str | None = None
    status = EpisodeStatus.BUDGET_EXHAUSTED
    for index, action in enumerate(planned):
        observation, frame = device.observe(image_format=image_format)
        frames[frame.ref.sha256] = frame.data
        began = time.perf_counter()
        device.act(action)
        steps.append(
            Step(
                index=index,
                observation=observation,
                raw_output=raw_answer(action),
                action=action,
                timings=StepTimings(env_s=time.perf_counter() - began),
                policy_version=ORACLE_POLICY.version,
            )
        )
        if isinstance(action, Answer):
            answer, status = action.text, EpisodeStatus.ANSWERED
            break
        if isinstance(action, Terminate):
            status = EpisodeStatus.TERMINATED
            break
    final, final_frame = device.observe(image_format=image_format)
    frames[final_frame.ref.sha256] = final_frame.data
    verdict = evaluate(world, instance.template, instance.params, before, device.snapshot(), answer)
    episode = Episode(
        episode_id=episode_id,
        run_id=run_id,
        task=instance.spec,
        policy=ORACLE_POLICY,
        device_id=device_id,
        steps=tuple(steps),
        final_observation=final,
        status=status,
        answer=answer,
        verdict=verdict,
        started_at=started_at,
        finished_at=datetime.now(UTC),
    )
    return Demonstration(episode=episode, frames=frames)
