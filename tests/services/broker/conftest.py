"""A rollout rig for the broker's tests: a real nats-server and S3 server, PhoneWorld phones as
`sim` devices over NATS and more PhoneWorld phones behind the real device gateway (adb server,
ADB protocol) as `real` devices, the teacher policy, the rubric judge grading through a scripted
OpenAI-compatible LLM, and scripted policies for slow or broken answers. Every service is a real
HTTP/NATS server on loopback; the broker runs in-process or as a `phonebuddy broker serve`
process (for the kill test)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings, RemoteError, connect
from phonebuddy.device_gateway.app import create_app as create_gateway
from phonebuddy.device_gateway.settings import GatewaySettings
from phonebuddy.judge.app import create_app as create_judge
from phonebuddy.judge.settings import JudgeSettings
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.phoneworld.world import default_world
from phonebuddy.policy.app import create_app as create_policy
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.teacher_backend import TeacherBackend
from phonebuddy.protocol import (
    RolloutAccepted,
    RolloutRequest,
    SystemButton,
    TaskSelection,
    to_tool_call_json,
)
from phonebuddy.protocol.subjects import ROLLOUT_SUBMIT
from phonebuddy.storage import S3Store, StoreSettings, open_store
from phonebuddy.testing import (
    AdbServer,
    NatsServer,
    S3Server,
    ScriptedLLM,
    ScriptedReply,
    free_port_range,
    serve_asgi_in_thread,
)
from phonebuddy.testing.scripted_llm import RecordedRequest
from phonebuddy.trajectories import RunManifest, RunStatus, TrajectoryStore

API_KEY = "broker-test-key"
BUCKET = "rollouts"
SIM_PHONES = 4
REAL_PHONES = 3
HOME_CALL = f"<tool_call>\n{to_tool_call_json(SystemButton(button='Home'))}\n</tool_call>"


@dataclass
class Judging:
    """What the scripted judge model answers: per pattern found in the request (a regular
    expression, any case: the task's wording varies with its seed), the items that fail (all
    pass by default) or `None` for an unusable answer."""

    failing: dict[str, list[str] | None] = field(default_factory=dict)
    items: tuple[str, ...] = ("task_done", "no_side_effects")

    def script(self, body: dict[str, Any]) -> ScriptedReply:
        request = RecordedRequest(path="/v1/chat/completions", headers={}, body=body, received_at=0)
        if request.model == "rubric":
            items = [{"id": item, "criterion": f"{item} holds"} for item in self.items]
            return ScriptedReply.json_object({"items": items})
        text = request.text()
        failing: list[str] | None = []
        for pattern, items in self.failing.items():
            if re.search(pattern, text, re.IGNORECASE):
                failing = items
        if failing is None:
            return ScriptedReply.text("I cannot tell, sorry.")
        results = [
            {"id": item, "passed": item not in failing, "evidence": "scripted"}
            for item in self.items
        ]
        return ScriptedReply.json_object({"results": results})


@dataclass
class Rig:
    nats: NatsSettings
    s3: S3Server
    store_url: str
    teacher_url: str
    slow_policy_url: str
    judging: Judging
    env: dict[str, str]
    nats_server: NatsServer
    local_root: Path  # the broker and the judge also keep runs in local stores under it

    def request(self, run_id: str, **overrides: Any) -> RolloutRequest:
        values: dict[str, Any] = {
            "run_id": run_id,
            "tasks": TaskSelection(template_ids=("settings.toggle", "wallet.balance")),
            "policy": {"base_url": self.teacher_url, "model": "phonebuddy-policy"},
            "group_size": 2,
            "concurrency": 4,
            **overrides,
        }
        return RolloutRequest(**values)

    async def submit(self, request: RolloutRequest) -> RolloutAccepted:
        async with connect(self.nats) as bus:
            return await bus.request(ROLLOUT_SUBMIT, request, RolloutAccepted, timeout_s=60)

    @contextlib.asynccontextmanager
    async def store(self, url: str | None = None) -> Any:
        """The rig's store, or the one at `url`."""
        overrides = {"url": url} if url else {}
        async with open_store(StoreSettings.from_variables(self.env, **overrides)) as raw:
            yield TrajectoryStore(raw)

    async def wait_done(
        self, run_id: str, timeout_s: float = 120, *, store_url: str | None = None
    ) -> RunManifest:
        deadline = time.monotonic() + timeout_s
        async with self.store(store_url) as store:
            while True:
                with contextlib.suppress(Exception):
                    manifest = await store.read_manifest(run_id)
                    if manifest.status == RunStatus.DONE:
                        return manifest
                if time.monotonic() > deadline:
                    raise AssertionError(f"run {run_id} not done within {timeout_s} s")
                await asyncio.sleep(0.2)

    def broker_settings(self, **overrides: Any) -> BrokerSettings:
        values: dict[str, Any] = {
            "default_store_url": self.store_url, "policy_api_key": API_KEY, "workers": 8,
            "teacher_url": self.teacher_url, "policy_endpoints": endpoints(self.slow_policy_url),
            "store_roots": (f"local:{self.local_root}",),
            "reconcile_interval_s": 0.5, "lease_wait_s": 30, "env_timeout_s": 10,
            "judge_timeout_s": 30, "policy_retries": 1, "port": 0, **overrides,
        }  # fmt: skip
        return BrokerSettings(**values)


def endpoints(slow_policy_url: str) -> dict[str, Any]:
    """The rig's named policy endpoints besides `teacher`: the slow scripted policy, which
    wants the rig's API key."""
    return {"slow": {"base_url": slow_policy_url, "api_key": API_KEY}}


def gateway_apps() -> dict[str, str]:
    table: dict[str, str] = {}
    for app in default_world(0).apps:
        table[app.label.en] = app.package
        table[app.label.zh] = app.package
    return table


def slow_home_policy(delay_s: float) -> Callable[[Any], ScriptedReply]:
    """A scripted policy that always presses Home after `delay_s` (episodes run to budget)."""
    return lambda request: ScriptedReply.text(HOME_CALL, delay_s=delay_s)


@pytest.fixture(scope="module")
def rig(
    s3_server: S3Server, adb_server: AdbServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Rig]:
    judging = Judging()
    local_root = tmp_path_factory.mktemp("runs")
    with contextlib.ExitStack() as stack:
        nats_server = stack.enter_context(NatsServer())
        nats = NatsSettings(
            url=nats_server.url, user=nats_server.user, password=nats_server.password
        )
        env = {
            "PHONEBUDDY_STORE_URL": f"s3://{BUCKET}",
            "PHONEBUDDY_STORE_ENDPOINT": s3_server.endpoint,
            "PHONEBUDDY_STORE_ACCESS_KEY": s3_server.access_key,
            "PHONEBUDDY_STORE_SECRET_KEY": s3_server.secret_key,
            "PHONEBUDDY_STORE_CREATE_BUCKET": "true",
            "PHONEBUDDY_NATS_URL": nats.url,
            "PHONEBUDDY_NATS_USER": nats.user or "",
            "PHONEBUDDY_NATS_PASSWORD": nats_server.password,
            "PHONEBUDDY_POLICY_API_KEY": API_KEY,
        }
        patch = stack.enter_context(pytest.MonkeyPatch.context())
        for key, value in env.items():
            patch.setenv(key, value)
        asyncio.run(_make_bucket(s3_server))
        base = free_port_range(REAL_PHONES)
        world = WorldSettings(
            devices=SIM_PHONES + REAL_PHONES, instance_id="rig", port=0, adb_base_port=base,
            adb_register=f"127.0.0.1:{adb_server.port}", adb_devices=REAL_PHONES,
        )  # fmt: skip
        stack.enter_context(serve_asgi_in_thread(create_world(world, nats)))
        serials = tuple(f"emulator-{base - 1 + i}" for i in range(REAL_PHONES))
        gateway = GatewaySettings(
            adb_server=f"127.0.0.1:{adb_server.port}", serials=serials, instance_id="rig-gw",
            port=0, apps=gateway_apps(), settle_s=0, health_interval_s=0.3, adb_timeout_s=5,
        )  # fmt: skip
        stack.enter_context(serve_asgi_in_thread(create_gateway(gateway, nats)))
        teacher = PolicySettings(backend="teacher", api_key=API_KEY, port=0)
        teacher_url = stack.enter_context(
            serve_asgi_in_thread(create_policy(teacher, TeacherBackend(teacher, nats)))
        )
        llm = stack.enter_context(ScriptedLLM(judging.script))
        judge = JudgeSettings(
            rubric_base_url=llm.base_url, rubric_model="rubric", grader_base_url=llm.base_url,
            grader_model="grader", max_retries=0, timeout_s=10, port=0,
            store_roots=(f"local:{local_root}",),
        )  # fmt: skip
        stack.enter_context(serve_asgi_in_thread(create_judge(judge, nats)))
        slow = stack.enter_context(ScriptedLLM(slow_home_policy(0.25), api_key=API_KEY))
        # What a `phonebuddy broker serve` process of the rig reads (as the local stack's do).
        env |= {
            "PHONEBUDDY_TEACHER_URL": f"{teacher_url}/v1",
            "PHONEBUDDY_BROKER_POLICY_ENDPOINTS": json.dumps(endpoints(slow.base_url)),
            "PHONEBUDDY_STORE_ROOTS": f"local:{local_root}",
        }
        _wait_for_phones(nats, REAL_PHONES)
        yield Rig(
            nats=nats, s3=s3_server, store_url=f"s3://{BUCKET}", teacher_url=f"{teacher_url}/v1",
            slow_policy_url=slow.base_url, judging=judging, env=env, nats_server=nats_server,
            local_root=local_root,
        )  # fmt: skip


@contextlib.contextmanager
def running_broker(rig: Rig, **overrides: Any) -> Iterator[str]:
    with serve_asgi_in_thread(create_broker(rig.broker_settings(**overrides), rig.nats)) as url:
        yield url


async def _make_bucket(s3: S3Server) -> None:
    async with S3Store(
        s3.endpoint, s3.access_key, s3.secret_key, BUCKET, create_bucket=True
    ) as store:
        await store.exists("probe")


def _wait_for_phones(nats: NatsSettings, count: int) -> None:
    """Until the gateway has `count` healthy phones (they register with the adb server)."""
    from phonebuddy.protocol import Source
    from phonebuddy.protocol import env as m
    from phonebuddy.protocol.env import Lease, LeaseRequest
    from phonebuddy.protocol.subjects import EnvVerb, env_lease_subject, env_verb_subject

    async def probe() -> None:
        deadline = time.monotonic() + 60
        async with connect(nats) as bus:
            while True:
                leases = []
                with contextlib.suppress(Exception):
                    for _ in range(count):
                        leases.append(
                            await bus.request(
                                env_lease_subject(Source.REAL), LeaseRequest(client_id="probe"),
                                Lease, timeout_s=5,
                            )
                        )  # fmt: skip
                for lease in leases:
                    await bus.request(
                        env_verb_subject(Source.REAL, lease.instance_id, EnvVerb.RELEASE),
                        m.ReleaseRequest(lease_id=lease.lease_id), m.ReleaseReply,
                    )  # fmt: skip
                if len(leases) == count:
                    return
                if time.monotonic() > deadline:
                    raise RuntimeError(f"only {len(leases)} of {count} real phones came up")
                await asyncio.sleep(0.3)

    asyncio.run(probe())


@dataclass(frozen=True)
class Received:
    """One request exactly as a policy endpoint received it."""

    headers: dict[str, str]
    body: bytes


@dataclass
class RecordingPolicy:
    """A model endpoint on loopback (OpenAI chat completions) that keeps every request's raw
    bytes and headers and always presses Home."""

    received: list[Received] = field(default_factory=list)

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def complete(request: Request) -> dict[str, Any]:
            body = await request.body()
            self.received.append(Received(dict(request.headers), body))
            message = {"role": "assistant", "content": HOME_CALL}
            return {
                "id": "recorded", "object": "chat.completion", "created": 0, "model": "recorder",
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            }  # fmt: skip

        return app

    def everything(self) -> bytes:
        """Every byte received: headers and bodies."""
        return b"\n".join(
            "\n".join(f"{k}: {v}" for k, v in r.headers.items()).encode() + b"\n" + r.body
            for r in self.received
        )


@contextlib.contextmanager
def recording_policy() -> Iterator[tuple[RecordingPolicy, str]]:
    recorder = RecordingPolicy()
    with serve_asgi_in_thread(recorder.app()) as url:
        yield recorder, f"{url}/v1"


async def sim_devices_free(nats: NatsSettings, count: int, *, within_s: float) -> bool:
    """Whether `count` sim devices can all be leased (none held by a run) within `within_s`."""
    from phonebuddy.protocol import ErrorCode, Source
    from phonebuddy.protocol import env as m
    from phonebuddy.protocol.subjects import EnvVerb, env_lease_subject, env_verb_subject

    deadline = time.monotonic() + within_s
    async with connect(nats) as bus:
        while True:
            leases: list[m.Lease] = []
            try:
                for _ in range(count):
                    leases.append(
                        await bus.request(
                            env_lease_subject(Source.SIM), m.LeaseRequest(client_id="probe"),
                            m.Lease, timeout_s=5,
                        )
                    )  # fmt: skip
            except RemoteError as exc:
                if exc.code != ErrorCode.NO_DEVICE_AVAILABLE:
                    raise
            finally:
                for lease in leases:
                    await bus.request(
                        env_verb_subject(Source.SIM, lease.instance_id, EnvVerb.RELEASE),
                        m.ReleaseRequest(lease_id=lease.lease_id), m.ReleaseReply,
                    )  # fmt: skip
            if len(leases) == count:
                return True
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)


def episode_keys(keys: list[str]) -> list[str]:
    return [key for key in keys if "/episodes/" in key]


def dump(value: Any) -> str:
    return json.dumps(value, indent=1, default=str)[:3000]


def environment(rig: Rig) -> dict[str, str]:
    return {**os.environ, **rig.env}
