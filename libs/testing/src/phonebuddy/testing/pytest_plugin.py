"""pytest fixtures that start real servers on free loopback ports (registered via `pytest11`).

Session-scoped servers are shared by all tests; tests that must not see each other's data use
unique subjects, stream names, buckets or prefixes (the `unique_name` fixture).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from phonebuddy.testing.adb import AdbServer
from phonebuddy.testing.nats import NatsServer
from phonebuddy.testing.prometheus import PrometheusServer
from phonebuddy.testing.s3 import S3Server


@pytest.fixture(scope="session")
def nats_server() -> Iterator[NatsServer]:
    """A real nats-server with JetStream and user/password auth, shared by the session."""
    with NatsServer() as server:
        yield server


@pytest.fixture
def nats_server_fn() -> Iterator[NatsServer]:
    """A nats-server of the test's own, for tests that stop or restart it."""
    with NatsServer() as server:
        yield server


@pytest.fixture(scope="session")
def s3_server() -> Iterator[S3Server]:
    """A real S3 server (SeaweedFS) with one access/secret key pair, shared by the session."""
    with S3Server() as server:
        yield server


@pytest.fixture
def unique_name(request: pytest.FixtureRequest) -> str:
    """A short name unique to this test, usable as a NATS subject token, stream or bucket name."""
    stem = "".join(ch for ch in request.node.name.lower() if ch.isalnum())[:20]
    return f"t{stem}{uuid.uuid4().hex[:8]}"


@pytest.fixture
def prometheus_server() -> Iterator[PrometheusServer]:
    """A real Prometheus scraping every second; add targets with `set_targets(job, [...])`."""
    with PrometheusServer(scrape_interval_s=0.5) as server:
        yield server


@pytest.fixture(scope="session")
def adb_server() -> Iterator[AdbServer]:
    """A real adb server on a free port, shared by the session; `run(...)` drives the adb CLI."""
    with AdbServer() as server:
        yield server
