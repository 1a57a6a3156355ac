"""Faults: a PhoneWorld process that vanishes mid-run, a broker killed mid-run, tasks no device
can run, spares for real phones, and what the judge makes of its graders' answers."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from phonebuddy.bus import RemoteError, connect
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.protocol import (
    ErrorCode,
    Source,
    SourceMix,
    TaskList,
    TaskQuery,
    TaskSelection,
)
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import WORLD_TASKS, EnvVerb, env_lease_subject, env_verb_subject
from phonebuddy.testing import ScriptedLLM, ScriptedReply, free_port, serve_asgi_in_thread
from phonebuddy.trajectories import GroupStatus, summarize

from .conftest import SIM_PHONES, Rig, environment, running_broker

PHONEBUDDY = str(Path(sys.executable).parent / "phonebuddy")


async def test_episodes_on_a_vanished_phoneworld_are_retried_on_fresh_devices(rig: Rig) -> None:
    doomed = create_world(WorldSettings(devices=2, instance_id="doomed", port=0), rig.nats)
    async with connect(rig.nats) as bus:
        # Hold every phone of the rig's own PhoneWorld so the run starts on the doomed one.
        held = [
            await bus.request(
                env_lease_subject(Source.SIM), m.LeaseRequest(client_id="hold"), m.Lease
            )
            for _ in range(SIM_PHONES)
        ]
        assert {lease.instance_id for lease in held} == {"rig"}
        with running_broker(rig), serve_asgi_in_thread(doomed):
            pool = doomed.state.service.pool
            await rig.submit(
                rig.request(
                    "vanished", policy={"base_url": rig.slow_policy_url, "model": "slow"},
                    tasks=TaskSelection(template_ids=("settings.toggle",)), step_budget=16,
                    concurrency=2,
                )
            )  # fmt: skip
            deadline = time.monotonic() + 30
            while pool.leased < 2:
                assert time.monotonic() < deadline, "the run never started on the doomed phones"
                await asyncio.sleep(0.05)
            for lease in held:
                await bus.request(
                    env_verb_subject(Source.SIM, lease.instance_id, EnvVerb.RELEASE),
                    m.ReleaseRequest(lease_id=lease.lease_id), m.ReleaseReply,
                )  # fmt: skip
            # Leaving the block stops the doomed PhoneWorld mid-episode.
        with running_broker(rig):
            manifest = await rig.wait_done("vanished", timeout_s=90)
    assert [g.status for g in manifest.groups] == [GroupStatus.COMPLETE]
    async with rig.store() as store:
        episodes = [e async for e in store.episodes("vanished")]
    assert len(episodes) == 2
    assert all(e.attempts >= 2 for e in episodes), [e.attempts for e in episodes]
    assert all(e.device_id.startswith("rig-") for e in episodes)
    assert all(len(e.steps) == 16 for e in episodes)


async def test_broker_killed_mid_run_finishes_it_with_every_episode_stored_once(
    rig: Rig, tmp_path: Path
) -> None:
    env = {
        **environment(rig),
        "PHONEBUDDY_BROKER_ACK_WAIT_S": "3",
        "PHONEBUDDY_BROKER_WORKERS": "4",
        "PHONEBUDDY_BROKER_RECONCILE_INTERVAL_S": "0.5",
        "PHONEBUDDY_HOME": str(tmp_path / "home"),
    }

    log = tmp_path / "broker.log"

    def start_broker() -> subprocess.Popen[bytes]:
        with log.open("ab") as sink:
            return subprocess.Popen(
                [PHONEBUDDY, "broker", "serve", "--port", str(free_port())],
                env=env, stdout=subprocess.DEVNULL, stderr=sink, start_new_session=True,
            )  # fmt: skip

    first = start_broker()
    try:
        request = rig.request(
            "restart", policy={"base_url": rig.slow_policy_url, "model": "slow"},
            tasks=TaskSelection(template_ids=("settings.toggle", "notes.pin", "wallet.balance")),
            step_budget=4, concurrency=3,
        )  # fmt: skip
        try:
            accepted = await _submit_when_ready(rig, request)
        except Exception:
            raise AssertionError(
                f"the broker did not take the run: {log.read_text()[-3000:]}"
            ) from None
        assert accepted.episodes == 6
        async with rig.store() as store:
            deadline = time.monotonic() + 60
            while len(await store.episode_ids("restart")) < 2:
                assert time.monotonic() < deadline, "no episode was stored"
                await asyncio.sleep(0.1)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        assert len(await _ids(rig, "restart")) < 6, "the run finished before the broker was killed"
        second = start_broker()
        try:
            manifest = await rig.wait_done("restart", timeout_s=120)
        finally:
            second.send_signal(signal.SIGINT)
            second.wait(timeout=30)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    ids = await _ids(rig, "restart")
    assert ids == sorted(f"g0000{g}.{s}" for g in range(3) for s in range(2))
    assert all(g.status == GroupStatus.COMPLETE and len(g.episodes) == 2 for g in manifest.groups)
    async with rig.store() as store:
        assert await store.failures("restart") == {}
        episodes = [e async for e in store.episodes("restart")]
    assert all(len(e.steps) == 4 for e in episodes)


async def _submit_when_ready(rig: Rig, request: object) -> object:
    deadline = time.monotonic() + 60
    while True:
        try:
            return await rig.submit(request)  # type: ignore[arg-type]
        except Exception:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.3)


async def _ids(rig: Rig, run_id: str) -> list[str]:
    async with rig.store() as store:
        return await store.episode_ids(run_id)


async def test_a_slow_policy_that_never_acts_keeps_its_device_past_the_lease_ttl(
    rig: Rig,
) -> None:
    """Every step renews the lease, acting or not: the episode outlives three TTLs."""
    async with ScriptedLLM(lambda body: ScriptedReply.text("I am not sure.", delay_s=0.4)) as llm:
        with running_broker(rig, lease_ttl_s=1.0):
            request = rig.request(
                "slow-invalid", tasks=TaskSelection(template_ids=("settings.toggle",)),
                policy={"base_url": llm.base_url, "model": "m"}, group_size=1, step_budget=8,
            )  # fmt: skip
            await rig.submit(request)
            manifest = await rig.wait_done("slow-invalid", timeout_s=60)
    assert [g.status for g in manifest.groups] == [GroupStatus.COMPLETE]
    async with rig.store() as store:
        [episode] = [e async for e in store.episodes("slow-invalid")]
    assert len(episode.steps) == 8
    assert all(step.action is None for step in episode.steps)
    assert episode.attempts == 1  # never retried on a fresh device
    assert episode.verdict is not None
    assert not episode.verdict.success


async def test_a_group_no_device_can_run_fails_as_a_whole(rig: Rig) -> None:
    async with connect(rig.nats) as bus:
        good = (
            await bus.request(WORLD_TASKS, TaskQuery(template_ids=("settings.toggle",)), TaskList)
        ).tasks[0]
    bogus = good.model_copy(update={"template_id": "no.such.task"})
    with running_broker(rig):
        await rig.submit(rig.request("bogus", tasks=TaskSelection(tasks=(good, bogus))))
        manifest = await rig.wait_done("bogus")
    assert [g.status for g in manifest.groups] == [GroupStatus.COMPLETE, GroupStatus.FAILED]
    assert "rejected" in (manifest.groups[1].reason or "")
    async with rig.store() as store:
        episodes = [e async for e in store.episodes("bogus")]
        failures = await store.failures("bogus")
    assert {e.group_id for e in episodes} == {"g00000"}
    # The first episode given up fails the group; its other episode is stopped (or skipped).
    assert failures
    assert set(failures) <= {"g00001.0", "g00001.1"}
    assert all("rejected" in record["reason"] for record in failures.values())
    summary = summarize(manifest, episodes)
    assert (summary.groups_complete, summary.groups_failed, summary.episodes) == (1, 1, 2)


async def test_real_groups_with_spares_keep_the_first_g(rig: Rig) -> None:
    request = rig.request(
        "spares", tasks=TaskSelection(template_ids=("wallet.balance",)),
        mix=SourceMix(sim=0, real=1), group_size=2, redundancy=1, concurrency=3,
    )  # fmt: skip
    with running_broker(rig):
        accepted = await rig.submit(request)
        manifest = await rig.wait_done("spares")
        await asyncio.sleep(1.0)  # let the spare finish too
    assert accepted.episodes == 3
    (group,) = manifest.groups
    assert group.status == GroupStatus.COMPLETE
    assert len(group.episodes) == 2
    async with rig.store() as store:
        stored = await store.episode_ids("spares")
        episodes = [e async for e in store.episodes("spares")]
    assert set(group.episodes) <= set(stored)
    assert len(stored) <= 3
    assert summarize(manifest, episodes).episodes == 2


async def test_judge_passes_only_when_every_item_passes_and_errors_never_succeed(rig: Rig) -> None:
    rig.judging.failing = {"wallet": ["no_side_effects"], r"\bpin": None}
    try:
        request = rig.request(
            "judged", tasks=TaskSelection(template_ids=("settings.toggle", "wallet.balance",
                                                        "notes.pin")),
            mix=SourceMix(sim=0, real=1), group_size=1,
        )  # fmt: skip
        with running_broker(rig):
            await rig.submit(request)
            manifest = await rig.wait_done("judged")
    finally:
        rig.judging.failing = {}
    async with rig.store() as store:
        episodes = {e.task.template_id: e async for e in store.episodes("judged")}
        record = await store.get_judge_record("judged", episodes["wallet.balance"].episode_id)
    toggle, wallet, pin = (
        episodes[t].verdict for t in ("settings.toggle", "wallet.balance", "notes.pin")
    )
    assert toggle is not None
    assert toggle.success
    assert not toggle.judge_error
    assert wallet is not None
    assert not wallet.success
    assert not wallet.judge_error
    assert "no_side_effects" in wallet.reason
    assert pin is not None
    assert not pin.success
    assert pin.judge_error
    assert record is not None
    results = {item["id"]: item["passed"] for item in record["results"]}
    assert results == {"task_done": True, "no_side_effects": False}
    summary = summarize(manifest, list(episodes.values()))
    assert summary.judge_errors == 1
    assert summary.overall.successes == 1


async def test_submissions_that_cannot_run_are_refused_clearly(rig: Rig) -> None:
    with running_broker(rig):
        with pytest.raises(RemoteError) as unknown:
            await rig.submit(rig.request("nosuite", tasks=TaskSelection(suite="no_such_suite")))
        assert unknown.value.code == ErrorCode.UNKNOWN_TASK
        assert "no task suite" in unknown.value.message
        await rig.submit(
            rig.request("twice", tasks=TaskSelection(template_ids=("settings.toggle",)))
        )
        await rig.wait_done("twice")
        with pytest.raises(RemoteError) as clash:
            await rig.submit(rig.request("twice", group_size=3))
        assert clash.value.code == ErrorCode.INVALID_REQUEST
        assert "already exists" in clash.value.message
        again = await rig.submit(
            rig.request("twice", tasks=TaskSelection(template_ids=("settings.toggle",)))
        )
        assert again.episodes == 2  # the same request again: accepted, nothing re-run
    assert len(await _ids(rig, "twice")) == 2
