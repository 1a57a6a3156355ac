"""Fixtures for the training jobs: a tiny Qwen3.5-VL checkpoint, a store of teacher episodes, and
a checkpoint SFT-ed until it memorizes one episode (a policy that sometimes succeeds, for RL).

Teacher episodes are PhoneWorld oracle demonstrations recorded exactly as a rollout records them
(screenshots by hash, raw tool-call answers, the verifier's verdict), written into a real local
trajectory store with a run manifest, so the job reads them as it reads any broker run.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phonebuddy.phoneworld.demonstrations import record_demonstration
from phonebuddy.phoneworld.world import default_world
from phonebuddy.protocol import Episode, Frame
from phonebuddy.sft.cli import app as sft_app
from phonebuddy.stack.local import ServiceProcess
from phonebuddy.storage import LocalStore
from phonebuddy.testing import NatsServer, free_port
from phonebuddy.trajectories import TrajectoryStore
from phonebuddy.trajectories.manifest import RunManifest, RunStatus

TEMPLATES = ("settings.toggle", "clock.alarm_toggle")


@dataclass(frozen=True)
class TeacherRun:
    store_url: str
    run_id: str
    episodes: tuple[Episode, ...]


async def write_run(
    root: Path, run_id: str, templates: Sequence[str], seeds: Sequence[int], *, fail: int = 0
) -> TeacherRun:
    """Oracle episodes of `templates` x `seeds` as run `run_id` in the local store at `root`;
    the first `fail` of them stop one action short (a near miss the verifier rejects)."""
    world = default_world()
    trajectories = TrajectoryStore(LocalStore(root))
    episodes = []
    for number, (template, seed) in enumerate((t, s) for t in templates for s in seeds):
        demo = await asyncio.to_thread(
            record_demonstration, world, template, seed,
            run_id=run_id, episode_id=f"{template.replace('.', '-')}-{seed}",
            stop_after=1 if number < fail else None,
        )  # fmt: skip
        for data in demo.frames.values():
            await trajectories.put_frame(Frame.from_bytes(data, "image/jpeg"))
        await trajectories.put_episode(demo.episode)
        episodes.append(demo.episode)
    await trajectories.write_manifest(
        RunManifest(run_id=run_id, status=RunStatus.DONE,
                    policy={"model": "phoneworld-oracle", "version": "oracle"})
    )  # fmt: skip
    return TeacherRun(store_url=f"local:{root}", run_id=run_id, episodes=tuple(episodes))


@pytest.fixture(scope="session")
def tiny_checkpoint(tiny_seed0: Path) -> Path:
    return tiny_seed0


@pytest.fixture(scope="session")
def run_writer() -> Callable[..., Awaitable[TeacherRun]]:
    """`write_run`, for tests that need runs of their own templates and seeds."""
    return write_run


@pytest.fixture(scope="session")
def teacher_run(tmp_path_factory: pytest.TempPathFactory) -> TeacherRun:
    root = tmp_path_factory.mktemp("store")
    return asyncio.run(write_run(root, "teacher", TEMPLATES, range(3), fail=1))


MEMORIZED_TEMPLATE, MEMORIZED_SEED = "settings.toggle", 0


@dataclass(frozen=True)
class Memorized:
    teacher: TeacherRun
    model_url: str  # the SFT checkpoint in its store


def memorize(base: Path, teacher: TeacherRun, out: Path) -> str:
    """SFT on `teacher` until its episodes are memorized; the published checkpoint's URL."""
    result = CliRunner().invoke(
        sft_app,
        [
            "--preset", "tiny-cpu", "--base", str(base), "--store", teacher.store_url,
            "--run", teacher.run_id, "--output", f"local:{out}",
            "--set", "data.validation_fraction=0", "--set", "optim.global_batch_rows=2",
            "--set", "train.max_steps=100", "--set", "optim.lr=4e-3", "--set", "optim.min_lr=1e-3",
            "--set", "optim.warmup_steps=1", "--set", "checkpoint.every_steps=1000",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    done = events[-1]
    assert done["event"] == "done", done
    return str(done["checkpoint"])


@pytest.fixture(scope="session")
def memorized(tmp_path_factory: pytest.TempPathFactory, tiny_checkpoint: Path) -> Memorized:
    """The tiny model SFT-ed (100 steps, ~2.5 min) on one oracle episode of settings.toggle."""
    root = tmp_path_factory.mktemp("memorized")
    teacher = asyncio.run(
        write_run(root / "teacher", "memo", [MEMORIZED_TEMPLATE], [MEMORIZED_SEED])
    )
    return Memorized(teacher, memorize(tiny_checkpoint, teacher, root / "sft"))


def pushable_policy(
    model_url: str, *, admin_token: str, staging: Path, work_dir: Path
) -> ServiceProcess:
    """`phonebuddy policy serve` of `model_url` that takes weight pushes (the RL job's) staged
    under `staging`, with `admin_token`."""
    env = {
        "PHONEBUDDY_POLICY_ADMIN_TOKEN": admin_token,
        "PHONEBUDDY_POLICY_WEIGHT_ROOTS": str(staging),
    }
    return ServiceProcess(
        name="policy", args=["policy", "serve", "--model", model_url], env=env, work_dir=work_dir
    )


def job_env(nats_server: NatsServer, admin_token: str) -> dict[str, str]:
    """What a training job's own process needs to reach the platform: NATS and the policy
    server's admin token."""
    return {
        "PHONEBUDDY_NATS_URL": nats_server.url,
        "PHONEBUDDY_NATS_USER": nats_server.user,
        "PHONEBUDDY_NATS_PASSWORD": nats_server.password,
        "PHONEBUDDY_POLICY_ADMIN_TOKEN": admin_token,
    }


def job_command(module: str, *, ranks: int = 1) -> list[str]:
    """`python -m <module>`, under torchrun (gloo on CPU) when `ranks` > 1."""
    if ranks == 1:
        return [sys.executable, "-m", module]
    return [
        sys.executable, "-m", "torch.distributed.run", f"--nproc-per-node={ranks}",
        "--master-addr=127.0.0.1", f"--master-port={free_port()}", "-m", module,
    ]  # fmt: skip
