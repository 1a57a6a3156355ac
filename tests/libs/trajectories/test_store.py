"""The trajectory store over real object stores: a local folder and a real S3 server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from minio import Minio

from phonebuddy.protocol import Frame
from phonebuddy.storage import LocalStore, ObjectStore, S3Store
from phonebuddy.testing import S3Server
from phonebuddy.trajectories import (
    GroupStatus,
    RunManifest,
    TrajectoryError,
    TrajectoryStore,
    instruction_hash,
    rubric_key,
)


def _empty_bucket(server: S3Server, bucket: str) -> None:
    admin = Minio(server.endpoint, server.access_key, server.secret_key, secure=False)
    if admin.bucket_exists(bucket):
        for item in admin.list_objects(bucket, recursive=True):
            admin.remove_object(bucket, item.object_name)
        admin.remove_bucket(bucket)


@pytest.fixture(params=["local", "s3"])
async def object_store(
    request: pytest.FixtureRequest, tmp_path: Path, unique_name: str
) -> AsyncIterator[ObjectStore]:
    if request.param == "local":
        async with LocalStore(tmp_path / "store") as store:
            yield store
        return
    server: S3Server = request.getfixturevalue("s3_server")
    bucket = unique_name[:63]
    store = S3Store(
        server.endpoint, server.access_key, server.secret_key, bucket,
        prefix="pb", create_bucket=True,
    )  # fmt: skip
    try:
        async with store:
            yield store
    finally:
        _empty_bucket(server, bucket)


async def test_a_run_round_trips_with_episodes_once_and_frames_once(object_store, demos):
    trajectories = TrajectoryStore(object_store)
    demo = demos["notes-ok"]
    episode = demo.episode.model_copy(update={"run_id": "r1", "episode_id": "e1"})
    for data in demo.frames.values():
        await trajectories.put_frame(Frame.from_bytes(data, "image/jpeg"))
        await trajectories.put_frame(Frame.from_bytes(data, "image/jpeg"))  # a redelivery
    assert await trajectories.put_episode(episode) is True
    # A redelivered episode with the same id is not stored again, even if it differs.
    changed = episode.model_copy(update={"device_id": "another"})
    assert await trajectories.put_episode(changed) is False
    assert await trajectories.get_episode("r1", "e1") == episode
    assert await trajectories.has_episode("r1", "e1")
    assert not await trajectories.has_episode("r1", "e2")

    blobs = await object_store.list("blobs/")
    assert len(blobs) == len(demo.frames)  # each screenshot once, by content hash
    for sha, data in demo.frames.items():
        assert await trajectories.get_frame(sha) == data
    refs = [step.observation.frame for step in episode.steps]
    assert {ref.sha256 for ref in refs} <= set(demo.frames)

    manifest = RunManifest(run_id="r1", policy={"model": "m", "version": "v1"})
    await trajectories.write_manifest(manifest)
    stored = await trajectories.read_manifest("r1")
    assert stored.model_dump(exclude={"updated_at"}) == manifest.model_dump(exclude={"updated_at"})
    assert stored.updated_at >= manifest.created_at
    assert await trajectories.run_ids() == ["r1"]

    record = {"rubric": {"items": [{"id": "r1", "criterion": "x"}]}, "results": []}
    assert await trajectories.get_judge_record("r1", "e1") is None
    await trajectories.put_judge_record("r1", "e1", record)
    assert await trajectories.get_judge_record("r1", "e1") == record
    await trajectories.put_request("r1", {"tasks": ["notes.create"], "group_size": 2})
    assert (await trajectories.get_request("r1"))["group_size"] == 2
    assert await object_store.list("runs/r1/") == [
        "runs/r1/episodes/e1.json",
        "runs/r1/judge/e1.json",
        "runs/r1/manifest.json",
        "runs/r1/request.json",
    ]


async def test_episodes_come_back_in_id_order(trajectories, demo_run):
    ids = await trajectories.episode_ids(demo_run.run_id)
    assert ids == sorted(demo_run.episodes)
    episodes = [e async for e in trajectories.episodes(demo_run.run_id, concurrency=3)]
    assert [e.episode_id for e in episodes] == ids
    assert episodes == [demo_run.episodes[i] for i in ids]


async def test_the_manifest_keeps_groups_and_their_status(trajectories, demo_run):
    manifest = await trajectories.read_manifest(demo_run.run_id)
    assert manifest.group("g-failed").status == GroupStatus.FAILED
    assert manifest.group("g-failed").reason == "device lost twice"
    assert manifest.group("g-notes").episodes == ["notes-ok", "notes-miss"]
    assert manifest.done
    with pytest.raises(KeyError, match="no group g-nope"):
        manifest.group("g-nope")


async def test_missing_and_corrupt_records_are_errors_that_name_them(trajectories, demo_run):
    with pytest.raises(TrajectoryError, match="episode nope of run demo is not stored"):
        await trajectories.get_episode("demo", "nope")
    with pytest.raises(TrajectoryError, match="run nope has no manifest"):
        await trajectories.read_manifest("nope")
    with pytest.raises(TrajectoryError, match="run demo has no request"):
        await trajectories.get_request("demo")
    with pytest.raises(TrajectoryError, match="screenshot 000000000000 is not in the store"):
        await trajectories.get_frame("0" * 64)
    await trajectories.store.put_bytes("runs/demo/episodes/bad.json", b'{"not": "an episode"}')
    with pytest.raises(TrajectoryError, match=r"runs/demo/episodes/bad\.json is not a valid"):
        await trajectories.get_episode("demo", "bad")


@pytest.mark.parametrize("bad", ["../etc", "a/b", "", "x" * 129, ".."])
async def test_ids_that_could_escape_the_layout_are_refused(trajectories, bad):
    with pytest.raises(ValueError, match="must be 1-128 letters"):
        await trajectories.get_episode(bad, "e1")
    with pytest.raises(ValueError, match="must be 1-128 letters"):
        await trajectories.get_episode("r1", bad)


def test_rubrics_are_keyed_by_the_hash_of_their_instruction():
    assert rubric_key("Send 你好") == f"rubrics/{instruction_hash('Send 你好')}.json"
    assert instruction_hash("a") != instruction_hash("b")
    assert len(instruction_hash("a")) == 64
