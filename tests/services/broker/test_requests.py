"""What a rollout request may not choose: the policy credentials the broker sends, the stores it
writes to, and what a model endpoint learns about the task; and requests that are plainly wrong
get a clear `invalid_request`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from phonebuddy.bus import RemoteError, connect
from phonebuddy.protocol import (
    ErrorCode,
    ErrorReply,
    TaskList,
    TaskQuery,
    TaskSelection,
    TaskSpec,
)
from phonebuddy.protocol.subjects import ROLLOUT_SUBMIT, WORLD_TASKS
from phonebuddy.trajectories import GroupStatus

from .conftest import API_KEY, Rig, recording_policy, running_broker


async def test_a_request_naming_its_own_policy_url_never_gets_the_broker_key(rig: Rig) -> None:
    with recording_policy() as (harvester, url), running_broker(rig):
        await rig.submit(
            rig.request(
                "harvest", policy={"base_url": url}, group_size=1, step_budget=2,
                tasks=TaskSelection(template_ids=("settings.toggle",)),
            )
        )  # fmt: skip
        manifest = await rig.wait_done("harvest")
    assert manifest.groups[0].status == GroupStatus.COMPLETE  # it was called...
    assert len(harvester.received) == 2  # ...once per step...
    assert API_KEY.encode() not in harvester.everything()  # ...and never saw the key
    assert all("authorization" not in r.headers for r in harvester.received)


async def test_a_configured_endpoint_gets_its_key_by_name_and_only_at_its_url(rig: Rig) -> None:
    with running_broker(rig):
        # The slow scripted policy refuses requests without the key.
        await rig.submit(
            rig.request(
                "by-name", policy={"endpoint": "slow"}, group_size=1, step_budget=2,
                tasks=TaskSelection(template_ids=("settings.toggle",)),
            )
        )  # fmt: skip
        manifest = await rig.wait_done("by-name")
        with pytest.raises(RemoteError) as unknown:
            await rig.submit(rig.request("nameless", policy={"endpoint": "no-such-policy"}))
        with pytest.raises(RemoteError) as moved:
            await rig.submit(
                rig.request(
                    "moved", policy={"endpoint": "slow", "base_url": "http://127.0.0.1:9/v1"}
                )
            )
    async with rig.store() as store:
        (episode,) = [e async for e in store.episodes("by-name")]
    assert manifest.groups[0].status == GroupStatus.COMPLETE
    assert [step.action is not None for step in episode.steps] == [True, True]
    assert episode.policy.endpoint == rig.slow_policy_url
    assert unknown.value.code == ErrorCode.INVALID_REQUEST
    assert "no-such-policy" in unknown.value.message
    assert "slow" in unknown.value.message  # the endpoints it does have
    assert moved.value.code == ErrorCode.INVALID_REQUEST
    assert "is at" in moved.value.message


async def test_a_broker_closed_to_other_urls_refuses_them_before_calling(rig: Rig) -> None:
    with recording_policy() as (recorder, url), running_broker(rig, open_policy_urls=False):
        with pytest.raises(RemoteError) as refused:
            await rig.submit(rig.request("closed", policy={"base_url": url}))
        await rig.submit(rig.request("closed-teacher", group_size=1))
        manifest = await rig.wait_done("closed-teacher")
    assert refused.value.code == ErrorCode.INVALID_REQUEST
    assert "none of the broker's policy endpoints" in refused.value.message
    assert recorder.received == []
    assert all(group.status == GroupStatus.COMPLETE for group in manifest.groups)


@pytest.mark.parametrize(
    "where",
    ["outside", "escape", "relative", "other-bucket"],
)
async def test_a_request_cannot_choose_where_the_broker_writes(
    rig: Rig, tmp_path: Path, where: str
) -> None:
    target = tmp_path / "stolen"
    url = {
        "outside": f"local:{target}",
        "escape": f"local:{rig.local_root}/../{tmp_path.name}/stolen",
        "relative": "local:stolen",
        "other-bucket": "s3://another-bucket/runs",
    }[where]
    with running_broker(rig), pytest.raises(RemoteError) as refused:
        await rig.submit(rig.request(f"store-{where}", store_url=url))
    assert refused.value.code == ErrorCode.INVALID_REQUEST
    assert "not allowed" in refused.value.message
    assert not target.exists()
    assert not Path("stolen").exists()  # noqa: ASYNC240 (a test looking)


async def test_a_request_may_name_a_store_under_the_configured_roots(rig: Rig) -> None:
    url = f"local:{rig.local_root / 'own-store'}"
    with running_broker(rig):
        accepted = await rig.submit(rig.request("own-store", group_size=1, store_url=url))
        manifest = await rig.wait_done("own-store", store_url=url)
    assert accepted.store_url == url
    assert all(group.status == GroupStatus.COMPLETE for group in manifest.groups)
    assert (rig.local_root / "own-store" / "runs" / "own-store" / "manifest.json").is_file()


async def test_no_task_answer_reaches_a_model_endpoint(rig: Rig) -> None:
    """Question-answer tasks: the value the verifier expects is in the task's parameters; a
    model endpoint must never see it (nor any other parameter not in the instruction)."""
    query = TaskQuery(template_ids=("wallet.balance", "contacts.phone_of"), seeds=(0, 1))
    async with connect(rig.nats) as bus:
        tasks = (await bus.request(WORLD_TASKS, query, TaskList)).tasks
    with recording_policy() as (model, url), running_broker(rig):
        await rig.submit(
            rig.request(
                "answers", policy={"base_url": url}, group_size=1, step_budget=2,
                tasks=TaskSelection(tasks=tasks),
            )
        )  # fmt: skip
        await rig.wait_done("answers")
    sent = model.everything()
    assert len(model.received) == 2 * len(tasks)
    secrets = _answers(tasks)
    assert len(secrets) >= len(tasks)  # every task has a parameter the model must not see
    for secret in secrets:
        assert secret.encode() not in sent, secret
        assert json.dumps(secret).encode()[1:-1] not in sent, secret  # as JSON escapes it
    for received in model.received:
        assert "metadata" not in json.loads(received.body)


def _answers(tasks: Sequence[TaskSpec]) -> set[str]:
    """Every parameter value of the tasks that the instruction does not say, with the form a
    verifier accepts for money in cents (467847 -> 4678.47). (These templates have no short
    values, which would match any body by chance.)"""
    values: set[str] = set()
    for task in tasks:
        for name, value in task.params.items():
            forms = {str(value)}
            if name.endswith("_cents") and isinstance(value, int):
                forms.add(f"{value / 100:.2f}")
            values |= {form for form in forms if form not in task.instruction_text}
    assert all(len(value) >= 5 for value in values), values
    return values


@pytest.mark.parametrize("seeds", [[], [-1], [0, -3]])
async def test_bad_seed_lists_are_an_invalid_request(rig: Rig, seeds: list[int]) -> None:
    request = rig.request("seeds").model_dump(mode="json")
    request["tasks"]["seeds"] = seeds
    with running_broker(rig):
        async with connect(rig.nats) as bus:
            reply = await bus.nc.request(ROLLOUT_SUBMIT, json.dumps(request).encode(), timeout=30)
    error = ErrorReply.model_validate_json(reply.data)
    assert error.code == ErrorCode.INVALID_REQUEST
    assert "seeds must be one or more non-negative integers" in error.message
