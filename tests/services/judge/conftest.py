"""Shared pieces of the judge's tests: PhoneWorld demonstrations (real episodes with real JPEG
screenshots and the verifier's verdict), a trajectory store in a folder, judge settings pointing
at a `ScriptedLLM`, and scripts that answer as a rubric writer and a grader would."""

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from phonebuddy.judge import JudgeSettings
from phonebuddy.phoneworld.demonstrations import Demonstration, record_demonstration
from phonebuddy.phoneworld.world import World, default_world
from phonebuddy.protocol import Episode, Frame
from phonebuddy.storage import LocalStore
from phonebuddy.testing import ScriptedReply
from phonebuddy.testing.scripted_llm import ScriptResult
from phonebuddy.trajectories import TrajectoryStore

WRITER = "rubric-writer"
GRADER = "grader"
ITEMS = ("right_item", "saved")


@pytest.fixture(autouse=True)
def _no_judge_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's own PHONEBUDDY_JUDGE_* must not leak into the tests."""
    for name in list(os.environ):
        if name.startswith("PHONEBUDDY_JUDGE_"):
            monkeypatch.delenv(name)


@pytest.fixture(scope="session")
def world() -> World:
    return default_world()


DemoFactory = Callable[..., Demonstration]


@pytest.fixture(scope="session")
def demo(world: World) -> DemoFactory:
    """`demo(template_id, seed=0, stop_after=None, run_id=..., episode_id=...)`: a recorded
    PhoneWorld episode (cached: recording the same one twice only renames it)."""
    cache: dict[tuple[str, int, int | None], Demonstration] = {}

    def make(
        template_id: str,
        seed: int = 0,
        *,
        stop_after: int | None = None,
        run_id: str = "run-1",
        episode_id: str | None = None,
    ) -> Demonstration:
        key = (template_id, seed, stop_after)
        if key not in cache:
            cache[key] = record_demonstration(
                world, template_id, seed, run_id="r", episode_id="e", stop_after=stop_after
            )
        recorded = cache[key]
        name = episode_id or f"{template_id}-{seed}-{stop_after}".replace(".", "-")
        episode = recorded.episode.model_copy(update={"run_id": run_id, "episode_id": name})
        return Demonstration(episode=episode, frames=recorded.frames)

    return make


@pytest.fixture
def store(tmp_path: Path) -> LocalStore:
    return LocalStore(tmp_path / "store")


@pytest.fixture
def trajectories(store: LocalStore) -> TrajectoryStore:
    return TrajectoryStore(store)


async def put_demo(trajectories: TrajectoryStore, demonstration: Demonstration) -> Episode:
    """Store a demonstration's screenshots and episode as a rollout would."""
    for data in demonstration.frames.values():
        await trajectories.put_frame(Frame.from_bytes(data, "image/jpeg"))
    await trajectories.put_episode(demonstration.episode)
    return demonstration.episode


def judge_settings(base_url: str, **overrides: Any) -> JudgeSettings:
    values: dict[str, Any] = {
        "rubric_base_url": base_url,
        "rubric_model": WRITER,
        "grader_base_url": base_url,
        "grader_model": GRADER,
        "timeout_s": 10.0,
        "max_retries": 2,
        "backoff_s": 0.0,
        "backoff_max_s": 0.0,
        "requests_per_minute": 0,
        **overrides,
    }
    return JudgeSettings(**values)


def rubric_reply(ids: tuple[str, ...] = ITEMS) -> ScriptedReply:
    return ScriptedReply.json_object(
        {"items": [{"id": item_id, "criterion": f"the episode shows {item_id}"} for item_id in ids]}
    )


def grades_reply(passed: dict[str, bool], *, fenced: bool = False) -> ScriptedReply:
    results = [
        {"id": item_id, "passed": ok, "evidence": f"{item_id} {'seen' if ok else 'missing'}"}
        for item_id, ok in passed.items()
    ]
    return ScriptedReply.json_object({"results": results}, fenced=fenced)


def all_pass(ids: tuple[str, ...] = ITEMS) -> ScriptedReply:
    return grades_reply(dict.fromkeys(ids, True))


Answer = ScriptResult | Callable[[dict[str, Any]], ScriptResult]


def by_role(*, rubric: Answer, grader: Answer) -> Callable[[dict[str, Any]], ScriptResult]:
    """A script answering the rubric writer's requests with `rubric` and the grader's with
    `grader` (each a reply, or a script of its own)."""

    def script(body: dict[str, Any]) -> ScriptResult:
        answer = rubric if body["model"] == WRITER else grader
        return answer(body) if callable(answer) else answer

    return script
