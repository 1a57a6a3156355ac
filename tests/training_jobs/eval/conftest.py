"""One evaluation on the real local stack, shared by the eval tests: nats-server, PhoneWorld
phones, PhoneWorld's scripted teacher and the broker over a local trajectory store, in this
process; the eval job through its CLI, serving the tiny random Qwen3.5-VL checkpoint itself
(`phonebuddy policy serve` as its own process) and naming the teacher by its broker endpoint."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.eval.cli import app as eval_app
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.policy.app import create_app as create_policy
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.teacher_backend import TeacherBackend
from phonebuddy.testing import NatsServer, serve_asgi_in_thread

TEACHER_KEY = "eval-test-teacher-key"
DEVICES = 4
SEEDS = 1  # test seeds per template: the 6 smoke templates, 6 tasks per policy
BUDGET = 12  # the longest smoke oracle at the first test seed takes 11 steps


@dataclass(frozen=True)
class Stack:
    nats: NatsSettings
    store: Path
    env: dict[str, str]


@dataclass(frozen=True)
class Evaluated:
    stack: Stack
    output: Path  # the report store's root folder
    done: dict[str, Any]
    stderr: str
    seeds: int = SEEDS
    budget: int = BUDGET

    @property
    def tasks(self) -> int:
        return 6 * self.seeds  # the six smoke templates at each seed

    def run(self, *args: str) -> Any:
        """The eval CLI again, on the same stack."""
        return run_eval_cli(self.stack, *args)

    @property
    def report(self) -> dict[str, Any]:
        return json.loads((self.output / "tiny-eval" / "report.json").read_text())

    @property
    def html(self) -> Path:
        return self.output / "tiny-eval" / "report.html"


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root = tmp_path_factory.mktemp("eval-stack")
    with NatsServer(work_dir=root / "nats") as server, contextlib.ExitStack() as stack:
        nats = NatsSettings(url=server.url, user=server.user, password=server.password)
        (root / "store").mkdir()
        world = WorldSettings(devices=DEVICES, instance_id="eval", port=0)
        stack.enter_context(serve_asgi_in_thread(create_world(world, nats)))
        teacher = PolicySettings(backend="teacher", api_key=TEACHER_KEY, port=0)
        teacher_url = stack.enter_context(
            serve_asgi_in_thread(create_policy(teacher, TeacherBackend(teacher, nats)))
        )
        broker = BrokerSettings(
            instance_id="eval", workers=DEVICES, default_store_url=f"local:{root / 'store'}",
            teacher_url=f"{teacher_url}/v1", policy_api_key=TEACHER_KEY,  # type: ignore[arg-type]
        )  # fmt: skip
        stack.enter_context(serve_asgi_in_thread(create_broker(broker, nats)))
        env = {
            "PHONEBUDDY_NATS_URL": server.url,
            "PHONEBUDDY_NATS_USER": server.user or "",
            "PHONEBUDDY_NATS_PASSWORD": server.password or "",
        }
        yield Stack(nats=nats, store=root / "store", env=env)


def run_eval_cli(stack: Stack, *args: str) -> Any:
    with pytest.MonkeyPatch.context() as patch:
        for key, value in stack.env.items():
            patch.setenv(key, value)
        return CliRunner().invoke(eval_app, list(args))


@pytest.fixture(scope="session")
def evaluated(
    stack: Stack, tiny_checkpoint: Path, tmp_path_factory: pytest.TempPathFactory
) -> Evaluated:
    output = tmp_path_factory.mktemp("eval-report")
    result = run_eval_cli(
        stack,
        "--preset", "tiny-cpu", "--checkpoint", f"tiny={tiny_checkpoint}",
        "--endpoint", "teacher=teacher", "--seeds", str(SEEDS),
        "--output", f"local:{output}", "--quiet",
        "--set", f"rollout.step_budget={BUDGET}", "--set", "rollout.max_tokens=24",
        "--set", "report.viewer_url=http://viewer.invalid:8099",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    done = json.loads(result.stdout.strip().splitlines()[-1])
    return Evaluated(stack=stack, output=output, done=done, stderr=result.stderr)
