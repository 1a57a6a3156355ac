"""`pb.broker.status`: any broker says where a run stands, from its manifest, so a follower that
missed progress events (core NATS keeps none) can catch up without the store's credentials."""

from __future__ import annotations

import pytest

from phonebuddy.bus import Bus, RemoteError, connect
from phonebuddy.protocol import ErrorCode, RunProgress, RunStatusQuery, TaskSelection
from phonebuddy.protocol.rollout import UNKNOWN_RUN
from phonebuddy.protocol.subjects import ROLLOUT_STATUS

from .conftest import Rig, running_broker


async def status(bus: Bus, run_id: str, store_url: str | None = None) -> RunProgress:
    query = RunStatusQuery(run_id=run_id, store_url=store_url)
    return await bus.request(ROLLOUT_STATUS, query, RunProgress, timeout_s=10)


async def test_the_broker_says_where_a_run_stands_while_it_runs_and_once_it_is_done(
    rig: Rig,
) -> None:
    url = f"local:{rig.local_root / 'status-store'}"
    request = rig.request(
        "status-run", policy={"endpoint": "slow"}, group_size=1, step_budget=6, store_url=url,
        tasks=TaskSelection(template_ids=("settings.toggle", "notes.pin")),
    )  # fmt: skip
    with running_broker(rig):
        async with connect(rig.nats) as bus:
            accepted = await rig.submit(request)
            # Each of its episodes takes 6 slow policy answers: the run is still going.
            running = await status(bus, "status-run", url)
            await rig.wait_done("status-run", store_url=url)
            done = await status(bus, "status-run", url)
    assert running == RunProgress(run_id="status-run", store_url=url, groups=2)
    assert accepted.store_url == url
    assert done == RunProgress(
        run_id="status-run", store_url=url, groups=2, groups_complete=2, episodes_stored=2,
        done=True,
    )  # fmt: skip
    assert done.groups_settled == 2


async def test_a_run_in_the_brokers_own_store_is_found_by_its_id_alone(rig: Rig) -> None:
    with running_broker(rig):
        await rig.submit(rig.request("status-default", group_size=1))
        await rig.wait_done("status-default")
        async with connect(rig.nats) as bus:
            progress = await status(bus, "status-default")
    assert progress.done
    assert progress.store_url == rig.store_url
    assert (progress.groups, progress.groups_complete, progress.episodes_stored) == (2, 2, 2)


async def test_an_unknown_run_or_a_store_the_broker_may_not_read_is_refused(rig: Rig) -> None:
    with running_broker(rig):
        async with connect(rig.nats) as bus:
            with pytest.raises(RemoteError) as unknown:
                await status(bus, "never-submitted")
            with pytest.raises(RemoteError) as elsewhere:
                await status(bus, "never-submitted", "local:/somewhere/else")
    assert unknown.value.code == ErrorCode.INVALID_REQUEST
    assert unknown.value.details[UNKNOWN_RUN] == "never-submitted"
    assert "no run never-submitted" in unknown.value.message
    assert elsewhere.value.code == ErrorCode.INVALID_REQUEST
    assert UNKNOWN_RUN not in elsewhere.value.details
    assert "not allowed" in elsewhere.value.message
