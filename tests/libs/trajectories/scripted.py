"""Scripted episodes as a rollout records them — real JPEG screenshots stored by reference, raw
answers as a model writes them, a verifier's verdict — built from the protocol alone, so the
trajectory lib's tests need no env service."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from PIL import Image, ImageDraw

from phonebuddy.protocol import (
    Action,
    Answer,
    Episode,
    EpisodeStatus,
    Frame,
    Instruction,
    Observation,
    PolicyRef,
    ScreenSize,
    Step,
    StepTimings,
    TaskSpec,
    Terminate,
    Verdict,
    to_tool_call_json,
)

ORACLE = PolicyRef(model="phoneworld-oracle", version="oracle")
SCREEN = ScreenSize(width=1080, height=2400)
SHOT = (SCREEN.width, SCREEN.height)  # real JPEGs of the full screen, as a phone takes them


@dataclass(frozen=True, slots=True)
class Demonstration:
    episode: Episode
    frames: dict[str, bytes]  # screenshot bytes by sha256, for the trajectory store


@dataclass(frozen=True)
class Task:
    template_id: str
    instruction: Instruction
    apps: tuple[str, ...]
    category: str = "single_app"


def raw_answer(action: Action) -> str:
    """The text a model writes for `action` (a Qwen tool call)."""
    return f"<tool_call>\n{to_tool_call_json(action)}\n</tool_call>"


def screenshot(label: str, shade: int) -> bytes:
    image = Image.new("RGB", SHOT, (shade % 256, (shade * 7) % 256, 200))
    ImageDraw.Draw(image).text((40, 40), label, fill=(0, 0, 0), font_size=64)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=80)
    return out.getvalue()


def scripted_episode(
    task: Task,
    seed: int,
    actions: Sequence[Action],
    *,
    success: bool,
    run_id: str,
    episode_id: str,
    foreground: Sequence[str | None] | None = None,
) -> Demonstration:
    """An episode of `actions` on `task`: one screenshot per step and a final one (each unique
    to the task, seed and step), `answered` / `terminated` / `budget_exhausted` by the last
    action, and the verifier's `success`. `foreground[i]` is the app in front at step i."""
    spec = TaskSpec(
        template_id=task.template_id, seed=seed, instruction=task.instruction,
        category=task.category, apps=task.apps,  # type: ignore[arg-type]
    )  # fmt: skip
    in_front = list(foreground) if foreground is not None else [task.apps[0]] * len(actions)
    frames: dict[str, bytes] = {}

    def observe(index: int, app: str | None) -> Observation:
        data = screenshot(f"{task.template_id} s{seed} #{index}", shade=seed * 31 + index * 17)
        frame = Frame.from_bytes(data, "image/jpeg")
        frames[frame.ref.sha256] = data
        return Observation(frame=frame.ref, screen=SCREEN, foreground_app=app)

    started = datetime(2026, 1, 5, 9, 0, tzinfo=UTC) + timedelta(minutes=seed)
    steps = []
    status, answer = EpisodeStatus.BUDGET_EXHAUSTED, None
    for index, action in enumerate(actions):
        steps.append(
            Step(
                index=index, observation=observe(index, in_front[index]),
                raw_output=raw_answer(action), action=action,
                timings=StepTimings(policy_s=0.01, env_s=0.02), policy_version=ORACLE.version,
            )
        )  # fmt: skip
        if isinstance(action, Answer):
            status, answer = EpisodeStatus.ANSWERED, action.text
            break
        if isinstance(action, Terminate):
            status = EpisodeStatus.TERMINATED
            break
    final = observe(len(steps), in_front[-1] if in_front else None)
    problems = [] if success else [f"{task.template_id}: the expected change is missing"]
    verdict = Verdict(
        success=success, reward=float(success), grader="verifier",
        reason="; ".join(problems) or "every expectation met, no side effects",
        details={"problems": problems, "changes": [f"apps.{task.apps[0]}"] if success else []},
    )  # fmt: skip
    episode = Episode(
        episode_id=episode_id, run_id=run_id, task=spec, policy=ORACLE, device_id="pw-demo",
        steps=tuple(steps), final_observation=final, status=status, answer=answer,
        verdict=verdict, started_at=started, finished_at=started + timedelta(seconds=2),
    )  # fmt: skip
    return Demonstration(episode=episode, frames=frames)
