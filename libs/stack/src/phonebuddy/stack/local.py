"""The local stack: the same infrastructure as the cluster, as processes on one machine.

NATS (JetStream, one user per service allowed only its subjects), an object store (an embedded
S3 server, or a local folder) and Prometheus, each on a free loopback port with generated
credentials. Later services join it the same way.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx

from phonebuddy.bus.permissions import CLIENT, SERVICE_PERMISSIONS
from phonebuddy.stack.launch import launch_command
from phonebuddy.stack.stack_file import StackEndpoint, StackInfo, write_stack
from phonebuddy.stack.watchdog import PARENT_PID_ENV
from phonebuddy.storage import S3Store
from phonebuddy.telemetry.observability import rules_path
from phonebuddy.testing import (
    AdbServer,
    ManagedProcess,
    NatsServer,
    PrometheusServer,
    S3Server,
    free_port,
    free_port_range,
)
from phonebuddy.testing.process import ServerStartError

__all__ = ["LocalStack", "Scraping", "ServerStartError", "ServiceProcess", "registered_services"]

log = logging.getLogger(__name__)
BUCKET = "phonebuddy"
SERVICE_GROUP = "phonebuddy.stack"
# PhoneWorld phones that also speak ADB, so the device gateway has phones on a laptop too.
LOCAL_PHONES = 8
_NATS_CREDENTIALS = ("PHONEBUDDY_NATS_USER", "PHONEBUDDY_NATS_PASSWORD")


class ServiceProcess(ManagedProcess):
    """A PhoneBuddy service started as `phonebuddy <args> --host H --port P` (through
    `phonebuddy.stack.launch`, so no `phonebuddy` command is needed), ready when its
    `/readyz` answers 200. Services register in the `phonebuddy.stack` entry-point group with a
    mapping {"name", "args", "description"} and optionally "after" (services to start first),
    "secrets" (variables the stack fills with fresh random tokens before any service starts)
    and "exports" (variables set once it runs, e.g. {"PHONEBUDDY_POLICY_URL": "{url}/v1"}; a
    template may also name the stack's variables: "{env[PHONEBUDDY_POLICY_API_KEY]}") and
    "defaults" (the same, as a group, unless the user's environment sets any of them; a list
    of such groups is taken group by group) and
    "nats_user" (its NATS user in `phonebuddy.bus.permissions`, by default its name; None for
    a service that does not use NATS)."""

    ready_timeout_s = 120.0

    def __init__(
        self,
        *,
        name: str,
        args: Sequence[str],
        env: dict[str, str],
        work_dir: Path,
        host: str = "127.0.0.1",
    ) -> None:
        self.name = name
        super().__init__(work_dir=work_dir)
        self.args = list(args)
        self.env = env
        self.host = host
        self.port = free_port(host)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def command(self) -> Sequence[str]:
        return [*launch_command(self.args), "--host", self.host, "--port", str(self.port)]

    def environment(self) -> dict[str, str]:
        # The service's watchdog stops it (and what it started) when this process goes.
        return {**os.environ, **self.env, PARENT_PID_ENV: str(os.getpid())}

    def is_ready(self) -> bool:
        try:
            return httpx.get(f"{self.url}/readyz", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False


def registered_services() -> list[dict[str, Any]]:
    """The services installed distributions add to the local stack, each after the services
    its optional "after" list names."""
    specs = sorted((entry.load() for entry in entry_points(group=SERVICE_GROUP)),
                   key=lambda spec: spec["name"])  # fmt: skip
    ordered: list[dict[str, Any]] = []
    while specs:
        placed = {spec["name"] for spec in ordered}
        ready = [s for s in specs if set(s.get("after", ())) <= placed | _missing(s, specs)]
        if not ready:
            raise RuntimeError(f"stack services wait on each other: {[s['name'] for s in specs]}")
        ordered.append(ready[0])
        specs.remove(ready[0])
    return ordered


def _missing(spec: dict[str, Any], pending: list[dict[str, Any]]) -> set[str]:
    """Names in `spec`'s "after" list that no installed service has (nothing to wait for)."""
    known = {s["name"] for s in pending}
    return {name for name in spec.get("after", ()) if name not in known}


def local_rules(folder: Path) -> Path:
    """The rules with every group evaluated at the stack's scrape interval rather than a
    cluster's 30 s: a local run of a few minutes then shows in them (a short job's last values
    live for seconds)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "rules.yaml"
    path.write_text(re.sub(r"(?m)^\s+interval: .*\n", "", rules_path().read_text()))
    return path


class Scraping:
    """The stack's Prometheus for processes started beside the stack (training jobs, a second
    policy server): each gets a job name whose /metrics it scrapes."""

    def __init__(self, prometheus: PrometheusServer) -> None:
        self.prometheus = prometheus

    @property
    def host(self) -> str:
        return self.prometheus.host

    @property
    def url(self) -> str:
        return self.prometheus.url

    @property
    def interval_s(self) -> float:
        return self.prometheus.scrape_interval_s

    def new_target(self, job: str) -> int:
        """A free port on the stack's host that Prometheus scrapes as `job`."""
        port = free_port(self.host)
        self.prometheus.set_targets(job, [f"{self.host}:{port}"])
        return port

    def add_target(self, job: str, host: str, port: int) -> None:
        self.prometheus.set_targets(job, [f"{host}:{port}"])


class LocalStack:
    """Starts the stack in `__aenter__`, stops every process in `__aexit__` (reverse order)."""

    def __init__(
        self,
        *,
        state_dir: Path,
        stack_file: Path,
        store: str = "s3",
        host: str = "127.0.0.1",
    ) -> None:
        if store != "s3" and not store.startswith("local:"):
            raise ValueError(f"--store must be 's3' or 'local:DIR', got {store!r}")
        self.state_dir = state_dir
        self.stack_file = stack_file
        self.store = store
        self.local_store_dir = (
            Path(store.removeprefix("local:")).expanduser().resolve()
            if store.startswith("local:")
            else None
        )
        self.host = host
        self.endpoints: list[StackEndpoint] = []
        self.env: dict[str, str] = {}
        self.nats_users: dict[str, str] = {}
        self._exit = contextlib.AsyncExitStack()

    async def __aenter__(self) -> Self:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        try:
            await self._start()
        except BaseException:
            await self._exit.aclose()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._exit.aclose()

    async def _start(self) -> None:
        users = {name: permissions.to_nats() for name, permissions in SERVICE_PERMISSIONS.items()}
        nats = await self._exit.enter_async_context(
            NatsServer(host=self.host, work_dir=self.state_dir / "nats", users=users)
        )
        self._add("nats", nats.url, nats.pid, "NATS with JetStream (a user per service)")
        self._add("nats-monitor", nats.monitor_url, nats.pid, "NATS monitoring")
        self.nats_users = dict(nats.passwords)
        self.env |= {
            "PHONEBUDDY_NATS_URL": nats.url,
            "PHONEBUDDY_NATS_USER": CLIENT,
            "PHONEBUDDY_NATS_PASSWORD": nats.passwords[CLIENT],
        }
        if self.local_store_dir is None:
            await self._start_s3()
        else:
            folder = self.local_store_dir
            folder.mkdir(parents=True, exist_ok=True)
            self._add("store", f"local:{folder}", None, "object store (local folder)")
            self.env["PHONEBUDDY_STORE_URL"] = f"local:{folder}"

        prometheus_dir = self.state_dir / "prometheus"
        prometheus = await self._exit.enter_async_context(
            PrometheusServer(
                host=self.host, work_dir=prometheus_dir, rule_files=[local_rules(prometheus_dir)]
            )
        )
        self._add("prometheus", prometheus.url, prometheus.pid, "Prometheus")
        self.prometheus = prometheus
        self.scraping = Scraping(prometheus)

        await self._start_adb()
        specs = registered_services()
        for spec in specs:
            for name in spec.get("secrets", ()):
                self.env.setdefault(name, secrets.token_urlsafe(24))
        for spec in specs:
            service = await self._exit.enter_async_context(
                ServiceProcess(
                    name=spec["name"], args=spec["args"], env=self._service_env(spec),
                    host=self.host, work_dir=self.state_dir / spec["name"],
                )
            )  # fmt: skip
            prometheus.set_targets(spec["name"], [f"{self.host}:{service.port}"])
            self._add(spec["name"], service.url, service.pid, spec["description"])
            for name, template in spec.get("exports", {}).items():
                self.env[name] = template.format(url=service.url, env=self.env)
            groups = spec.get("defaults", {})
            for defaults in [groups] if isinstance(groups, dict) else groups:
                if not any(name in os.environ for name in defaults):  # the user's settings win
                    for name, template in defaults.items():
                        self.env[name] = template.format(url=service.url, env=self.env)

        write_stack(self.info(), self.stack_file)
        self._exit.callback(self.stack_file.unlink, missing_ok=True)

    def _service_env(self, spec: dict[str, Any]) -> dict[str, str]:
        """The stack's variables, with the service's own NATS user instead of the client's."""
        env = {k: v for k, v in self.env.items() if k not in _NATS_CREDENTIALS}
        user = spec.get("nats_user", spec["name"])
        if user is None:
            return env
        if user not in self.nats_users:
            raise RuntimeError(
                f"stack service {spec['name']!r} runs as NATS user {user!r}, which has no "
                f"permissions in phonebuddy.bus.permissions ({', '.join(sorted(self.nats_users))})"
            )
        return env | {
            "PHONEBUDDY_NATS_USER": user,
            "PHONEBUDDY_NATS_PASSWORD": self.nats_users[user],
        }

    async def _start_adb(self) -> None:
        """An adb server, and ports on which PhoneWorld's phones speak ADB and register with it;
        the device gateway drives exactly those phones (never a developer's own)."""
        adb = await self._exit.enter_async_context(AdbServer(work_dir=self.state_dir / "adb"))
        self._add("adb", f"tcp:{adb.host}:{adb.port}", adb.pid, "adb server (PhoneWorld phones)")
        base = free_port_range(LOCAL_PHONES, self.host)
        serials = ",".join(f"emulator-{base - 1 + i}" for i in range(LOCAL_PHONES))
        self.env |= {
            # LOCAL_PHONES sim devices leased over NATS, and LOCAL_PHONES more that only speak
            # ADB (for the gateway): a phone is never driven by both at once.
            "PHONEBUDDY_WORLD_DEVICES": str(2 * LOCAL_PHONES),
            "PHONEBUDDY_WORLD_ADB_DEVICES": str(LOCAL_PHONES),
            "PHONEBUDDY_WORLD_ADB_BASE_PORT": str(base),
            "PHONEBUDDY_WORLD_ADB_REGISTER": f"{adb.host}:{adb.port}",
            "PHONEBUDDY_GATEWAY_ADB_SERVER": f"{adb.host}:{adb.port}",
            "PHONEBUDDY_GATEWAY_SERIALS": serials,
            # No judge model runs here: PhoneWorld's ground-truth grader stands in for it, for
            # these PhoneWorld phones only (PhoneWorld's stack entry points the judge at it).
            "PHONEBUDDY_WORLD_GROUND_TRUTH_JUDGE": "true",
        }

    async def _start_s3(self) -> None:
        s3 = await self._exit.enter_async_context(S3Server(work_dir=self.state_dir / "s3"))
        async with S3Store(
            endpoint=s3.endpoint,
            access_key=s3.access_key,
            secret_key=s3.secret_key,
            bucket=BUCKET,
            create_bucket=True,
        ) as store:
            await store.exists("probe")  # creates the bucket and proves the credentials work
        self._add("s3", s3.url, s3.pid, f"S3 (SeaweedFS), bucket '{BUCKET}'")
        self.env |= {
            "PHONEBUDDY_STORE_URL": f"s3://{BUCKET}",
            "PHONEBUDDY_STORE_ENDPOINT": s3.endpoint,
            "PHONEBUDDY_STORE_ACCESS_KEY": s3.access_key,
            "PHONEBUDDY_STORE_SECRET_KEY": s3.secret_key,
        }

    def _add(self, name: str, url: str, pid: int | None, description: str) -> None:
        self.endpoints.append(StackEndpoint(name=name, url=url, pid=pid, description=description))

    def info(self) -> StackInfo:
        return StackInfo.of_this_process(
            endpoints=tuple(self.endpoints),
            env=self.env,
            nats_users=self.nats_users,
        )
