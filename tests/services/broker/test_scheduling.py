"""Runs share the broker: a run whose episodes keep failing does not hold up another run, however
much of it is queued, and a group (or run) that has settled gives its devices back at once."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from phonebuddy.protocol import SourceMix, TaskSelection
from phonebuddy.testing import ScriptedLLM, ScriptedReply
from phonebuddy.trajectories import GroupStatus

from .conftest import HOME_CALL, SIM_PHONES, Rig, running_broker, sim_devices_free

FAILING = 64
HOSTILE = 32


async def test_a_failing_run_does_not_hold_up_a_run_submitted_after_it(rig: Rig) -> None:
    # Every policy call of the failing run is refused (400: not retried) after 0.2 s, so its 64
    # episodes take seconds to fail; the quick run is submitted right after it. The failing run
    # holds at most 2 of the 4 phones, so the quick run never waits for a device: what this test
    # measures is the broker's scheduling, not a race for the last free phone.
    refusing = ScriptedLLM(lambda _body: ScriptedReply.error(400, "no", delay_s=0.2))
    async with refusing as policy:
        failing = rig.request(
            "failing", policy={"base_url": policy.base_url}, group_size=1, concurrency=2,
            tasks=TaskSelection(template_ids=("settings.toggle",), seeds=tuple(range(FAILING))),
            max_env_retries=0,
        )  # fmt: skip
        quick = rig.request("quick", group_size=1, tasks=TaskSelection(template_ids=("notes.pin",)))
        with running_broker(rig):  # 8 workers
            await rig.submit(failing)
            await rig.submit(quick)
            done = await rig.wait_done("quick")
            failed = await rig.wait_done("failing")
            async with rig.store() as store:
                (quick_episode,) = [episode async for episode in store.episodes("quick")]
                failures = await store.failures("failing")
            free = await sim_devices_free(rig.nats, SIM_PHONES, within_s=2)
    assert done.groups[0].status == GroupStatus.COMPLETE
    # Queued behind the failing run's 64 episodes (8 workers), the quick run would start only
    # after ~56 of them had been given up; with fair scheduling it starts while they still run.
    started = quick_episode.started_at
    given_up_before = [
        f for f in failures.values() if datetime.fromisoformat(f["failed_at"]) < started
    ]
    assert len(given_up_before) < FAILING // 2, len(given_up_before)
    assert [group.status for group in failed.groups] == [GroupStatus.FAILED] * FAILING
    assert free


async def test_a_run_behind_a_large_failing_run_waits_for_a_free_worker_not_for_its_backlog(
    rig: Rig,
) -> None:
    # The hostile run queues all 32 episodes at once (concurrency 32) and each one fails three
    # times (a refusal after 0.4 s, retried on two fresh devices); the quick run is submitted
    # right after it. 4 workers for the 4 phones: an episode that has a worker always finds a
    # phone, so what this measures is which episode the broker hands its next free worker.
    refusing = ScriptedLLM(lambda _body: ScriptedReply.error(400, "no", delay_s=0.4))
    async with refusing as policy:
        hostile = rig.request(
            "hostile", policy={"base_url": policy.base_url}, group_size=1, concurrency=HOSTILE,
            tasks=TaskSelection(template_ids=("settings.toggle",), seeds=tuple(range(HOSTILE))),
        )  # fmt: skip
        quick = rig.request(
            "behind-hostile", group_size=1, tasks=TaskSelection(template_ids=("notes.pin",))
        )
        with running_broker(rig, workers=SIM_PHONES):
            await rig.submit(hostile)
            await rig.submit(quick)
            done = await rig.wait_done("behind-hostile", timeout_s=180)
            failed = await rig.wait_done("hostile", timeout_s=180)
            async with rig.store() as store:
                (quick_episode,) = [episode async for episode in store.episodes("behind-hostile")]
                failures = await store.failures("hostile")
                hostile_stored = await store.episode_ids("hostile")
        calls = len(policy.requests)
    assert done.groups[0].status == GroupStatus.COMPLETE
    # In one queue the quick episode would be the 33rd: it would start only once 28 hostile
    # episodes had been given up. Served in turn, it takes the first worker that frees up and
    # is done while most of the hostile run is still to come.
    given_up_before = [
        f for f in failures.values()
        if datetime.fromisoformat(f["failed_at"]) < quick_episode.finished_at
    ]  # fmt: skip
    assert len(given_up_before) < HOSTILE // 2, len(given_up_before)
    # Both runs are whole: every hostile episode given up once, after its three attempts (one
    # policy call each: none ran twice), and the quick run's one episode stored.
    assert [group.status for group in failed.groups] == [GroupStatus.FAILED] * HOSTILE
    assert sorted(failures) == [f"g{index:05d}.0" for index in range(HOSTILE)]
    assert all("after 3 attempts" in f["reason"] for f in failures.values())
    assert hostile_stored == []
    assert calls == HOSTILE * 3
    assert quick_episode.episode_id == "g00000.0"


async def test_a_settled_group_stops_its_other_attempts_and_frees_their_devices(
    rig: Rig,
) -> None:
    def script(body: dict[str, Any]) -> ScriptedReply:
        if body.get("seed") == 0:  # the group's episode 0: a refusal the broker cannot retry
            return ScriptedReply.error(400, "no")
        return ScriptedReply.text(HOME_CALL, delay_s=0.5)  # the others: 30 slow steps

    async with ScriptedLLM(script) as policy:
        request = rig.request(
            "settled", policy={"base_url": policy.base_url}, group_size=SIM_PHONES,
            concurrency=SIM_PHONES, mix=SourceMix(sim=1), max_env_retries=0, step_budget=30,
            tasks=TaskSelection(template_ids=("settings.toggle",)), sampling={"seed": 0},
        )  # fmt: skip
        with running_broker(rig):
            await rig.submit(request)
            manifest = await rig.wait_done("settled")
            free = await sim_devices_free(rig.nats, SIM_PHONES, within_s=2)
            async with rig.store() as store:
                stored = await store.episode_ids("settled")
                failures = await store.failures("settled")
    (group,) = manifest.groups
    assert group.status == GroupStatus.FAILED
    assert "policy" in (group.reason or "")
    assert set(failures) == {"g00000.0"}
    assert stored == []
    # The other three stopped when the group failed, not after their 30 slow steps each.
    assert free, "the failed group's other episodes still hold their devices"


async def test_episodes_waiting_for_a_device_are_the_lease_backlog_gauge(rig: Rig) -> None:
    """8 workers and 4 phones: while a run of slow episodes holds every phone, the other
    episodes ask for one and `phonebuddy_broker_lease_waiting` counts them (PhoneWorld's
    autoscaler reads it); when the run is done nobody waits."""
    import asyncio

    import httpx

    waiting = 'phonebuddy_broker_lease_waiting{source="sim"}'
    request = rig.request(
        "backlog", policy={"endpoint": "slow"}, group_size=8, concurrency=8, step_budget=3,
        tasks=TaskSelection(template_ids=("settings.toggle",)),
    )  # fmt: skip
    seen: list[float] = []
    with running_broker(rig) as url:
        async with httpx.AsyncClient() as http:
            await rig.submit(request)
            for _ in range(100):
                text = (await http.get(f"{url}/metrics")).text
                line = next((ln for ln in text.splitlines() if ln.startswith(waiting)), None)
                if line is not None:
                    seen.append(float(line.split()[-1]))
                if 8 - SIM_PHONES in seen:
                    break
                await asyncio.sleep(0.05)
            await rig.wait_done("backlog")
            text = (await http.get(f"{url}/metrics")).text
    assert 8 - SIM_PHONES in seen, seen  # four run, four wait
    assert max(seen) <= 8
    assert f"{waiting} 0.0" in text
