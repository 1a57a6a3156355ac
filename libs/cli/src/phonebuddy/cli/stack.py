"""The local stack: the same infrastructure as the cluster, as processes on one machine.

NATS (JetStream, auth), an object store (an embedded S3 server, or a local folder) and Prometheus,
each on a free loopback port with generated credentials. Later services join it the same way.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from types import TracebackType
from typing import Self

from phonebuddy.cli.stack_file import StackEndpoint, StackInfo, write_stack
from phonebuddy.storage import S3Store
from phonebuddy.testing import NatsServer, PrometheusServer, S3Server

log = logging.getLogger(__name__)
BUCKET = "phonebuddy"


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
        nats = await self._exit.enter_async_context(
            NatsServer(host=self.host, work_dir=self.state_dir / "nats")
        )
        self._add("nats", nats.url, nats.pid, "NATS with JetStream (user/password auth)")
        self._add("nats-monitor", nats.monitor_url, nats.pid, "NATS monitoring")
        self.env |= {
            "PHONEBUDDY_NATS_URL": nats.url,
            "PHONEBUDDY_NATS_USER": nats.user,
            "PHONEBUDDY_NATS_PASSWORD": nats.password,
        }
        if self.local_store_dir is None:
            await self._start_s3()
        else:
            folder = self.local_store_dir
            folder.mkdir(parents=True, exist_ok=True)
            self._add("store", f"local:{folder}", None, "object store (local folder)")
            self.env["PHONEBUDDY_STORE_URL"] = f"local:{folder}"

        prometheus = await self._exit.enter_async_context(
            PrometheusServer(host=self.host, work_dir=self.state_dir / "prometheus")
        )
        self._add("prometheus", prometheus.url, prometheus.pid, "Prometheus")
        self.prometheus = prometheus

        info = StackInfo(pid=os.getpid(), endpoints=tuple(self.endpoints), env=self.env)
        write_stack(info, self.stack_file)
        self._exit.callback(self.stack_file.unlink, missing_ok=True)

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
        return StackInfo(pid=os.getpid(), endpoints=tuple(self.endpoints), env=self.env)
