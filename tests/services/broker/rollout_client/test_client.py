"""`RolloutClient` against a real broker: runs followed to their end by events, by status when
the events were missed (subscribed late, connection lost), and clear errors for a run nobody
knows or a broker that is gone."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from phonebuddy.bus import NatsSettings, connect
from phonebuddy.protocol import (
    ErrorCode,
    RolloutAccepted,
    RunEvent,
    RunProgress,
    TaskList,
    TaskQuery,
    TaskSelection,
)
from phonebuddy.protocol.subjects import WORLD_TASKS
from phonebuddy.rollouts import (
    BrokerSilentError,
    BrokerUnavailableError,
    RolloutClient,
    RolloutRefusedError,
    UnknownRunError,
)
from phonebuddy.rollouts.report import print_summary, read_summary
from phonebuddy.storage import StoreSettings
from phonebuddy.testing import NatsServer, free_port

from .conftest import CuttableProxy, Rig, rollout_request

PHONEBUDDY = str(Path(sys.executable).parent / "phonebuddy")


def finished(run_id: str, store_url: str, *, groups: int = 2, episodes: int = 4) -> RunProgress:
    return RunProgress(
        run_id=run_id, store_url=store_url, groups=groups, groups_complete=groups,
        episodes_stored=episodes, done=True,
    )  # fmt: skip


async def test_a_run_is_followed_to_its_end_by_its_events(rig: Rig) -> None:
    events: list[RunEvent] = []
    progress: list[RunProgress] = []
    async with RolloutClient.connect(rig.nats) as client:
        outcome = await client.run(
            rollout_request("by-events"), on_event=events.append, on_progress=progress.append
        )
    assert outcome.progress == finished("by-events", rig.store_url)
    assert outcome.events == tuple(events)
    kinds = [event.kind for event in events]
    assert kinds.count("episode_stored") == 4
    assert kinds.count("group_complete") == 2
    assert kinds[-1] == "run_done"
    assert all(event.success for event in events if event.kind == "episode_stored")
    settled = [p.groups_settled for p in progress]
    assert settled == sorted(settled)  # the bar only moves forward
    assert progress[-1] == outcome.progress
    # Reading the episodes is a step of its own, with the store's settings.
    summary = await read_summary(StoreSettings(url=outcome.store_url), outcome.run_id)
    assert summary.episodes == 4
    assert summary.overall.success_rate == 1.0
    printed = io.StringIO()
    print_summary(summary, Console(file=printed, width=120))
    assert "app: com.pw.settings" in printed.getvalue()
    assert "groups: 2 complete, 0 failed" in printed.getvalue()


async def test_a_follower_that_comes_after_the_run_finished_learns_it_from_the_status(
    rig: Rig,
) -> None:
    # The resync timer is out of reach: only the status asked at the start can end it.
    async with RolloutClient.connect(rig.nats, resync_s=3600) as client:
        accepted = await client.submit(rollout_request("late"))
        await client.follow(accepted, timeout_s=120)  # the run ends while this one follows
        outcome = await client.follow(accepted, timeout_s=30)
        by_id = await client.follow("late", timeout_s=30)  # the broker's own store
    assert outcome.progress == finished("late", rig.store_url)
    assert outcome.events == ()  # every event had gone by
    assert by_id.progress == outcome.progress


async def test_a_follower_whose_connection_drops_and_comes_back_still_learns_the_end(
    rig: Rig, proxy: CuttableProxy
) -> None:
    nats = NatsSettings(
        url=proxy.url, user=rig.nats.user, password=rig.nats.password, reconnect_wait_s=0.1
    )
    request = rollout_request(
        "reconnect", tasks=TaskSelection(template_ids=("settings.toggle", "notes.pin"),
                                         seeds=(0, 1)),
    )  # fmt: skip
    # The resync timer is out of reach: only the reconnect can tell the follower the run ended.
    async with RolloutClient.connect(nats, resync_s=3600, broker_timeout_s=3600) as client:
        answered = asyncio.Event()
        events: list[RunEvent] = []
        follow = asyncio.create_task(
            client.run(request, on_event=events.append, on_progress=lambda _: answered.set())
        )
        await asyncio.wait_for(answered.wait(), 60)  # submitted, and a broker said where it is
        await proxy.cut()
        async with RolloutClient.connect(rig.nats) as watcher:  # not behind the proxy
            watched = await watcher.follow("reconnect", timeout_s=120)
        assert not client.bus.is_connected
        await proxy.restore()
        outcome = await asyncio.wait_for(follow, 60)
    assert "run_done" not in [event.kind for event in events]  # it went by during the cut
    assert outcome.progress == finished("reconnect", rig.store_url, groups=4, episodes=8)
    assert watched.progress == outcome.progress


async def test_an_unknown_run_or_a_refused_one_is_a_clear_error(rig: Rig) -> None:
    async with RolloutClient.connect(rig.nats) as client:
        with pytest.raises(UnknownRunError) as unknown:
            await client.follow("never-submitted", timeout_s=30)
        elsewhere = RolloutAccepted(
            run_id="elsewhere", groups=1, episodes=1, store_url="local:/not/the/brokers"
        )
        with pytest.raises(RolloutRefusedError) as not_allowed:
            await client.follow(elsewhere, timeout_s=30)
        with pytest.raises(RolloutRefusedError) as bad_policy:
            await client.run(rollout_request("no-policy", policy={"endpoint": "no-such-policy"}))
    assert unknown.value.run_id == "never-submitted"
    assert unknown.value.store_url == rig.store_url
    assert "there is no run never-submitted" in str(unknown.value)
    assert "not allowed" in not_allowed.value.message
    assert bad_policy.value.code == ErrorCode.INVALID_REQUEST
    assert "no-such-policy" in bad_policy.value.message


async def test_without_a_broker_a_submission_fails_at_once(nats_server_fn: NatsServer) -> None:
    nats = NatsSettings(
        url=nats_server_fn.url, user=nats_server_fn.user, password=nats_server_fn.password
    )
    async with RolloutClient.connect(nats) as client:
        with pytest.raises(BrokerUnavailableError, match="no service is listening"):
            await client.submit(rollout_request("nobody"))


async def test_a_broker_that_vanishes_mid_run_ends_the_follow_with_a_timeout_error(
    rig: Rig, nats_server_fn: NatsServer, tmp_path: Path
) -> None:
    """A `phonebuddy broker serve` process on a NATS of its own, SIGKILLed while its run waits
    for a device that never comes (that NATS has no PhoneWorld)."""
    async with connect(rig.nats) as bus:
        tasks = await bus.request(WORLD_TASKS, TaskQuery(template_ids=("settings.toggle",)),
                                  TaskList)  # fmt: skip
    nats = NatsSettings(
        url=nats_server_fn.url, user=nats_server_fn.user, password=nats_server_fn.password
    )
    env = {
        **os.environ, "PHONEBUDDY_HOME": str(tmp_path / "home"),
        "PHONEBUDDY_NATS_URL": nats.url, "PHONEBUDDY_NATS_USER": nats_server_fn.user,
        "PHONEBUDDY_NATS_PASSWORD": nats_server_fn.password,
        "PHONEBUDDY_STORE_URL": f"local:{tmp_path / 'store'}",
        "PHONEBUDDY_BROKER_LEASE_WAIT_S": "600",
    }  # fmt: skip
    broker = _broker_process(env)
    request = rollout_request(
        "vanish", tasks=TaskSelection(tasks=tasks.tasks), group_size=1,
        policy={"base_url": "http://127.0.0.1:9/v1"},
    )  # fmt: skip
    try:
        async with RolloutClient.connect(nats, resync_s=0.3, broker_timeout_s=2) as client:
            accepted = await _submit_when_ready(client, request)
            answered = asyncio.Event()
            follow = asyncio.create_task(
                client.follow(accepted, on_progress=lambda _: answered.set())
            )
            await asyncio.wait_for(answered.wait(), 30)
            os.killpg(broker.pid, signal.SIGKILL)
            with pytest.raises(BrokerSilentError) as silent:
                await asyncio.wait_for(follow, 60)
    finally:
        if broker.poll() is None:
            os.killpg(broker.pid, signal.SIGKILL)
        broker.wait(timeout=10)
    assert isinstance(silent.value, TimeoutError)
    assert silent.value.connected
    assert silent.value.progress == RunProgress(
        run_id="vanish", store_url=accepted.store_url, groups=1
    )
    assert "no broker has said anything about run vanish" in str(silent.value)
    assert "is a broker running?" in str(silent.value)


async def _submit_when_ready(client: RolloutClient, request: object) -> RolloutAccepted:
    """Submit once the broker process listens (it takes a few seconds to start)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return await client.submit(request)  # type: ignore[arg-type]
        except BrokerUnavailableError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.3)


def _broker_process(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [PHONEBUDDY, "broker", "serve", "--port", str(free_port())],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
