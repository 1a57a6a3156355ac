"""What the learning benchmarks share: the local stack with the scripted teacher in this process
(nats-server, PhoneWorld, the teacher policy, the broker over a local trajectory store), and the
machine block every benchmark's JSON carries."""

from __future__ import annotations

import contextlib
import os
import platform
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.policy.app import create_app as create_policy
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.teacher_backend import TeacherBackend
from phonebuddy.storage import LocalStore
from phonebuddy.testing import NatsServer, serve_asgi_in_thread
from phonebuddy.trajectories import TrajectoryStore

TEACHER_KEY = "benchmark-teacher-key"  # the in-process teacher's key, loopback only


@dataclass(frozen=True)
class Rig:
    nats: NatsSettings
    store_url: str
    store: TrajectoryStore


@contextlib.contextmanager
def teacher_rig(folder: Path, *, devices: int, instance_id: str) -> Iterator[Rig]:
    """The stack under `folder`; rollouts may name the policy endpoint "teacher"."""
    with NatsServer(work_dir=folder / "nats") as server:
        nats = NatsSettings(url=server.url, user=server.user, password=server.password)
        (folder / "store").mkdir()
        store_url = f"local:{folder / 'store'}"
        world = create_world(WorldSettings(devices=devices, instance_id=instance_id), nats)
        teacher_settings = PolicySettings(backend="teacher", api_key=TEACHER_KEY)
        teacher = create_policy(teacher_settings, TeacherBackend(teacher_settings, nats))
        with serve_asgi_in_thread(world), serve_asgi_in_thread(teacher) as teacher_url:
            broker_settings = BrokerSettings(
                instance_id=instance_id, workers=devices, default_store_url=store_url,
                teacher_url=f"{teacher_url}/v1",
                policy_api_key=TEACHER_KEY,  # type: ignore[arg-type]
            )  # fmt: skip
            with serve_asgi_in_thread(create_broker(broker_settings, nats)):
                yield Rig(nats, store_url, TrajectoryStore(LocalStore(folder / "store")))


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
    }
