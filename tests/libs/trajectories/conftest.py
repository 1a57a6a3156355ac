"""A realistic stored run: scripted episodes (real JPEG screenshots, the verifiers' verdicts,
see `scripted`) grouped the way the broker groups them, some groups complete and one failed.

The run `demo` holds (group -> episodes):

- `g-notes` complete, sim: `notes-ok` (oracle, success), `notes-miss` (3 actions, failure)
- `g-marks` complete, sim: `marks` (tap, long press, swipe by points, swipe by direction, an
  invalid answer that contains `<script>`, terminate(failure)): a failure
- `g-wallet` complete, sim: `wallet-ok` (answers a question, success)
- `g-cross` complete, sim: `cross-ok` (gallery -> notes, cross_app, success)
- `g-real` complete, real: `real-ok` (judged success, with a judge record), `real-err`
  (judge_error)
- `g-failed` FAILED, sim: `failed-ok` (a success that must never count)
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest

from phonebuddy.protocol import (
    Answer,
    Click,
    Episode,
    Frame,
    Instruction,
    LongPress,
    Open,
    PolicyRef,
    Source,
    Step,
    Swipe,
    Terminate,
    Type,
    Verdict,
)
from phonebuddy.storage import LocalStore
from phonebuddy.trajectories import (
    GroupRecord,
    GroupStatus,
    RunManifest,
    RunStatus,
    TrajectoryStore,
)

from .scripted import Demonstration, Task, scripted_episode

RUN_ID = "demo"
SCRIPT_ANSWER = '<script>alert("pwned")</script><b>bold?</b> & done'
MARK_ACTIONS = [
    Click(coordinate=(500, 300)),
    LongPress(coordinate=(250, 750), time=1.5),
    Swipe(coordinate=(500, 800), coordinate2=(520, 200)),
    Swipe(direction="left"),
    Terminate(status="failure"),
]
INVALID_AT = 2  # the invalid answer is the third step of `marks`
JUDGE_RECORD = {
    "rubric": {"items": [
        {"id": "r1", "criterion": "A note titled <i>rent</i> exists"},
        {"id": "r2", "criterion": "The note's body mentions the transfer"},
    ]},
    "results": [
        {"id": "r1", "passed": True, "evidence": "the list shows <i>rent</i>"},
        {"id": "r2", "passed": True, "evidence": "body visible in the last screenshot"},
    ],
    "models": {"rubric": "scripted", "grader": "scripted"},
}  # fmt: skip


@dataclass
class DemoRun:
    """A run as stored, and what the tests expect of it."""

    run_id: str
    manifest: RunManifest
    episodes: dict[str, Episode]  # by episode id, every stored episode
    frames: dict[str, bytes]  # every screenshot, by sha256
    groups: dict[str, str] = field(default_factory=dict)  # episode id -> group id

    def counted(self) -> list[Episode]:
        complete = {g.group_id for g in self.manifest.groups if g.status == GroupStatus.COMPLETE}
        return [e for e in self.episodes.values() if e.group_id in complete]


NOTES = Task(
    "notes.create", Instruction(en="Create a note titled rent", zh="新建一条标题为 rent 的笔记"),
    apps=("com.pw.notes",),
)  # fmt: skip
WALLET = Task(
    "wallet.balance", Instruction(en="What is my wallet balance?", zh="我的钱包余额是多少？"),
    apps=("com.pw.wallet",),
)  # fmt: skip
CROSS = Task(
    "gallery.share_to_notes",
    Instruction(en="Share the newest photo to a new note", zh="把最新的照片分享到一条新笔记"),
    apps=("com.pw.gallery", "com.pw.notes"), category="cross_app",
)  # fmt: skip
NOTES_ACTIONS = [
    Open(text="Notes"), Click(coordinate=(900, 920)), Type(text="rent"),
    Click(coordinate=(950, 60)), Terminate(status="success"),
]  # fmt: skip
CROSS_ACTIONS = [
    Open(text="Gallery"), Click(coordinate=(180, 170)), Click(coordinate=(540, 940)),
    Click(coordinate=(300, 620)), Click(coordinate=(950, 60)), Terminate(status="success"),
]  # fmt: skip


@pytest.fixture(scope="session")
def demos() -> dict[str, Demonstration]:
    options = {"run_id": RUN_ID, "episode_id": "x"}
    return {
        "notes-ok": scripted_episode(NOTES, 0, NOTES_ACTIONS, success=True, **options),
        "notes-miss": scripted_episode(NOTES, 0, NOTES_ACTIONS[:3], success=False, **options),
        "marks": scripted_episode(NOTES, 1, MARK_ACTIONS, success=False, **options),
        "wallet-ok": scripted_episode(
            WALLET, 0, [Open(text="Wallet"), Answer(text="¥1,024.50")], success=True, **options
        ),
        "cross-ok": scripted_episode(
            CROSS, 0, CROSS_ACTIONS, success=True,
            foreground=["com.pw.gallery"] * 3 + ["com.pw.notes"] * 3, **options,
        ),
    }  # fmt: skip


def _with_invalid_step(episode: Episode) -> Episode:
    """`episode` with an unparseable answer inserted as step INVALID_AT."""
    steps = list(episode.steps)
    invalid = Step(
        index=INVALID_AT,
        observation=steps[INVALID_AT].observation,
        raw_output=SCRIPT_ANSWER,
        invalid_reason="no <tool_call> found in the answer",
        policy_version="oracle",
    )
    steps.insert(INVALID_AT, invalid)
    steps = [step.model_copy(update={"index": i}) for i, step in enumerate(steps)]
    return episode.model_copy(update={"steps": tuple(steps)})


def _as_real(episode: Episode, verdict: Verdict) -> Episode:
    task = episode.task.model_copy(update={"source": Source.REAL})
    return episode.model_copy(update={"task": task, "verdict": verdict})


def build_episodes(demos: dict[str, Demonstration], run_id: str) -> dict[str, tuple[str, Episode]]:
    """episode id -> (group id, episode)."""
    judged_ok = Verdict(success=True, reward=1.0, grader="judge", reason="every rubric item passed")
    judge_error = Verdict(
        success=False, reward=0.0, grader="judge", judge_error=True, reason="grader timed out"
    )
    chosen = {
        "notes-ok": ("g-notes", demos["notes-ok"].episode),
        "notes-miss": ("g-notes", demos["notes-miss"].episode),
        "marks": ("g-marks", _with_invalid_step(demos["marks"].episode)),
        "wallet-ok": ("g-wallet", demos["wallet-ok"].episode),
        "cross-ok": ("g-cross", demos["cross-ok"].episode),
        "real-ok": ("g-real", _as_real(demos["notes-ok"].episode, judged_ok)),
        "real-err": ("g-real", _as_real(demos["notes-miss"].episode, judge_error)),
        "failed-ok": ("g-failed", demos["wallet-ok"].episode),
    }
    out = {}
    for position, (episode_id, (group_id, episode)) in enumerate(chosen.items()):
        start = episode.started_at + timedelta(seconds=position)
        out[episode_id] = (
            group_id,
            episode.model_copy(update={
                "run_id": run_id, "episode_id": episode_id, "group_id": group_id,
                "started_at": start, "finished_at": start + timedelta(seconds=2),
                "policy": PolicyRef(model="phoneworld-oracle", version="oracle"),
            }),
        )  # fmt: skip
    return out


async def store_run(
    trajectories: TrajectoryStore, demos: dict[str, Demonstration], run_id: str = RUN_ID
) -> DemoRun:
    frames: dict[str, bytes] = {}
    for demo in demos.values():
        frames.update(demo.frames)
    for data in frames.values():
        await trajectories.put_frame(Frame.from_bytes(data, "image/jpeg"))
    chosen = build_episodes(demos, run_id)
    groups: dict[str, list[Episode]] = {}
    for group_id, episode in chosen.values():
        assert await trajectories.put_episode(episode)
        groups.setdefault(group_id, []).append(episode)
    records = []
    for group_id, members in groups.items():
        task = members[0].task
        failed = group_id == "g-failed"
        records.append(
            GroupRecord(
                group_id=group_id, task_id=task.task_id, template_id=task.template_id,
                category=task.category, apps=task.apps, source=task.source, size=len(members),
                status=GroupStatus.FAILED if failed else GroupStatus.COMPLETE,
                episodes=[e.episode_id for e in members],
                reason="device lost twice" if failed else None,
            )
        )  # fmt: skip
    manifest = RunManifest(
        run_id=run_id,
        status=RunStatus.DONE,
        policy={"model": "phoneworld-oracle", "version": "oracle"},
        settings={"group_size": 2},
        groups=records,
    )
    await trajectories.write_manifest(manifest)
    await trajectories.put_judge_record(run_id, "real-ok", JUDGE_RECORD)
    return DemoRun(
        run_id=run_id,
        manifest=manifest,
        episodes={episode_id: episode for episode_id, (_, episode) in chosen.items()},
        frames=frames,
        groups={episode_id: group_id for episode_id, (group_id, _) in chosen.items()},
    )


@pytest.fixture
def store_root(tmp_path: Path) -> Path:
    return tmp_path / "store"


@pytest.fixture
def trajectories(store_root: Path) -> TrajectoryStore:
    return TrajectoryStore(LocalStore(store_root))


@pytest.fixture
async def demo_run(trajectories: TrajectoryStore, demos: dict[str, Demonstration]) -> DemoRun:
    return await store_run(trajectories, demos)


@pytest.fixture(scope="module")
def stored_demo(
    tmp_path_factory: pytest.TempPathFactory, demos: dict[str, Demonstration]
) -> tuple[Path, DemoRun]:
    """The demo run in a local store shared by a module's (read-only) tests."""
    root = tmp_path_factory.mktemp("store")
    # On a thread of its own: a sync Playwright session keeps an event loop on this one.
    with ThreadPoolExecutor(1) as pool:
        run = pool.submit(
            lambda: asyncio.run(store_run(TrajectoryStore(LocalStore(root)), demos))
        ).result()
    return root, run
