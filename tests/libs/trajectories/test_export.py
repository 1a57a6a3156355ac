"""Parquet export: the SFT rows of a run, read back and checked against the store and the
harness (the prompt must be exactly the rollout's)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from phonebuddy.agent import IMAGE_PLACEHOLDER, PromptConfig, Sampling, build_prompt
from phonebuddy.protocol import Episode
from phonebuddy.trajectories import GroupStatus, TrajectoryError, TrajectoryStore
from phonebuddy.trajectories.export import (
    COLUMNS,
    ExportError,
    ExportReport,
    export_prefix,
    export_run,
    run_rows,
    shard_name,
    verified_export,
)

SUCCESSFUL = ["cross-ok", "notes-ok", "real-ok", "wallet-ok"]  # complete groups, in id order
EVERY_COUNTED = ["cross-ok", "marks", "notes-miss", "notes-ok", "real-err", "real-ok", "wallet-ok"]


def read_rows(folder: Path) -> list[dict]:
    rows: list[dict] = []
    for path in sorted(folder.glob("part-*.parquet")):
        rows.extend(pq.read_table(path).to_pylist())
    return rows


def action_steps(episode: Episode) -> list[int]:
    return [step.index for step in episode.steps if step.action is not None]


def expected_keys(demo_run, episode_ids: list[str]) -> list[tuple[str, int]]:
    return [(i, index) for i in episode_ids for index in action_steps(demo_run.episodes[i])]


async def test_rows_are_the_action_steps_of_successful_episodes_of_complete_groups(
    trajectories, demo_run, tmp_path
):
    report = await export_run(trajectories, demo_run.run_id, tmp_path / "out")
    rows = read_rows(tmp_path / "out")
    assert [(row["episode_id"], row["step_index"]) for row in rows] == expected_keys(
        demo_run, SUCCESSFUL
    )
    assert report.rows == len(rows)
    assert report.episodes == len(SUCCESSFUL)
    # failed-ok succeeded, but its group failed: never exported.
    assert report.episodes_skipped == {"group_failed": 1, "unsuccessful": 3}
    assert {row["success"] for row in rows} == {True}
    assert {row["reward"] for row in rows} == {1.0}
    assert {row["source"] for row in rows} == {"sim", "real"}
    assert list(pq.read_schema(tmp_path / "out" / shard_name(0)).names) == list(COLUMNS)


async def test_all_exports_failures_too_but_never_invalid_steps_or_failed_groups(
    trajectories, demo_run, tmp_path
):
    report = await export_run(trajectories, demo_run.run_id, tmp_path, only_successful=False)
    rows = read_rows(tmp_path)
    assert [(r["episode_id"], r["step_index"]) for r in rows] == expected_keys(
        demo_run, EVERY_COUNTED
    )
    assert report.episodes_skipped == {"group_failed": 1}
    assert report.invalid_steps_skipped == 1
    marks = [r["step_index"] for r in rows if r["episode_id"] == "marks"]
    assert 2 not in marks  # the invalid answer has no target
    assert len(marks) == len(demo_run.episodes["marks"].steps) - 1


@pytest.mark.parametrize("only_successful", [True, False])
async def test_run_rows_yields_what_the_export_writes_and_counts_the_same_skips(
    trajectories, demo_run, tmp_path, only_successful
):
    report = await export_run(
        trajectories, demo_run.run_id, tmp_path, only_successful=only_successful
    )
    skipped: dict[str, int] = {}
    rows = [
        row
        async for row in run_rows(
            trajectories, demo_run.run_id, only_successful=only_successful, skipped=skipped
        )
    ]
    assert rows == read_rows(tmp_path)
    assert skipped == report.episodes_skipped


@pytest.mark.parametrize("screenshots", [1, 3])
async def test_prompt_and_images_are_exactly_what_the_rollout_sent(
    trajectories, demo_run, tmp_path, screenshots
):
    config = PromptConfig(screenshots=screenshots)
    await export_run(
        trajectories, demo_run.run_id, tmp_path, only_successful=False, prompt_config=config
    )
    rows = read_rows(tmp_path)
    assert rows
    for row in rows:
        episode = demo_run.episodes[row["episode_id"]]
        position = next(i for i, s in enumerate(episode.steps) if s.index == row["step_index"])
        step = episode.steps[position]
        prompt = build_prompt(
            episode.task, episode.steps[:position], step.observation, config=config
        )
        assert row["prompt_text"] == prompt.render(enable_thinking=Sampling().enable_thinking)
        refs = prompt.frames
        assert row["image_sha256"] == [ref.sha256 for ref in refs]
        assert row["image_media_type"] == ["image/jpeg"] * len(refs)
        assert row["images"] == [demo_run.frames[ref.sha256] for ref in refs]
        assert len(refs) == min(position + 1, screenshots)
        assert row["prompt_text"].count(IMAGE_PLACEHOLDER) == len(row["images"])
        assert row["completion_text"].startswith("<tool_call>\n")
        assert row["completion_text"].endswith("<|im_end|>\n")
        messages = json.loads(row["messages"])
        assert [m["role"] for m in messages] == ["system", "user", "assistant"]
        placeholders = [p for p in messages[1]["content"] if p["type"] == "image"]
        assert placeholders == [{"type": "image"}] * len(refs)
        assert json.loads(row["tools"])[0]["function"]["name"] == "mobile_use"
        assert row["instruction"] == episode.task.instruction_text
        assert row["task_id"] == episode.task.task_id
        assert row["policy_version"] == "oracle"


async def test_shards_hold_at_most_rows_per_shard_rows_in_order(trajectories, demo_run, tmp_path):
    whole = await export_run(trajectories, demo_run.run_id, tmp_path / "whole")
    report = await export_run(trajectories, demo_run.run_id, tmp_path / "split", rows_per_shard=4)
    assert [s.rows for s in report.shards][:-1] == [4] * (len(report.shards) - 1)
    assert 1 <= report.shards[-1].rows <= 4
    assert len(report.shards) == -(-whole.rows // 4)
    assert [s.name for s in report.shards] == [shard_name(i) for i in range(len(report.shards))]
    assert sorted(p.name for p in (tmp_path / "split").glob("*.parquet")) == [
        s.name for s in report.shards
    ]
    split = read_rows(tmp_path / "split")
    whole_rows = read_rows(tmp_path / "whole")
    assert [r["episode_id"] for r in split] == [r["episode_id"] for r in whole_rows]
    saved = ExportReport.model_validate_json((tmp_path / "split" / "export.json").read_text())
    assert saved.shards == report.shards
    assert (tmp_path / "split" / shard_name(0)).stat().st_mode & 0o777 == 0o644


async def test_a_second_export_replaces_the_shards_of_the_first(trajectories, demo_run, tmp_path):
    first = await export_run(trajectories, demo_run.run_id, tmp_path, rows_per_shard=3)
    second = await export_run(trajectories, demo_run.run_id, tmp_path, rows_per_shard=1000)
    assert len(first.shards) > 1
    assert [p.name for p in sorted(tmp_path.glob("part-*.parquet"))] == [shard_name(0)]
    assert len(read_rows(tmp_path)) == second.rows == first.rows
    assert verified_export(tmp_path) == second  # the folder is exactly what export.json lists


async def test_export_into_the_object_store_reads_back_byte_identical(
    trajectories: TrajectoryStore, demo_run, tmp_path
):
    report = await export_run(trajectories, demo_run.run_id, None, to_store=True, rows_per_shard=5)
    prefix = export_prefix(demo_run.run_id)
    assert prefix == "exports/demo/"
    keys = await trajectories.store.list(prefix)
    assert keys == sorted([prefix + s.name for s in report.shards] + [prefix + "export.json"])
    rows = []
    for shard in report.shards:
        data = await trajectories.store.get_bytes(prefix + shard.name)
        rows.extend(pq.read_table(io.BytesIO(data)).to_pylist())
    assert len(rows) == report.rows
    for row in rows:
        for sha, image in zip(row["image_sha256"], row["images"], strict=True):
            assert image == await trajectories.get_frame(sha)


async def test_a_redundant_extra_episode_of_a_complete_group_is_left_out(
    trajectories, demo_run, tmp_path
):
    extra = demo_run.episodes["notes-ok"].model_copy(update={"episode_id": "notes-extra"})
    assert await trajectories.put_episode(extra)  # same group, not in the group's episode list
    report = await export_run(trajectories, demo_run.run_id, tmp_path)
    assert report.episodes_skipped["not_in_group"] == 1
    assert "notes-extra" not in {r["episode_id"] for r in read_rows(tmp_path)}


async def test_pending_groups_are_not_exported(trajectories, demo_run, tmp_path):
    manifest = demo_run.manifest.model_copy(deep=True)
    manifest.group("g-notes").status = GroupStatus.PENDING
    await trajectories.write_manifest(manifest)
    report = await export_run(trajectories, demo_run.run_id, tmp_path)
    assert report.episodes_skipped["group_pending"] == 2
    assert "notes-ok" not in {r["episode_id"] for r in read_rows(tmp_path)}


async def test_a_missing_screenshot_fails_the_export_naming_it(trajectories, demo_run, tmp_path):
    sha = demo_run.episodes["wallet-ok"].steps[0].observation.frame.sha256
    await trajectories.store.delete(f"blobs/sha256/{sha[:2]}/{sha}")
    with pytest.raises(TrajectoryError, match=sha[:12]):
        await export_run(trajectories, demo_run.run_id, tmp_path)


async def test_an_unknown_run_or_no_destination_is_refused(trajectories, demo_run, tmp_path):
    with pytest.raises(TrajectoryError, match="no manifest"):
        await export_run(trajectories, "nope", tmp_path)
    with pytest.raises(ValueError, match="say where"):
        await export_run(trajectories, demo_run.run_id, None)
    with pytest.raises(ValueError, match="rows_per_shard"):
        await export_run(trajectories, demo_run.run_id, tmp_path, rows_per_shard=0)


async def test_an_empty_export_writes_its_report_and_no_shard(trajectories, demo_run, tmp_path):
    manifest = demo_run.manifest.model_copy(deep=True)
    for group in manifest.groups:
        group.status = GroupStatus.FAILED
    await trajectories.write_manifest(manifest)
    report = await export_run(trajectories, demo_run.run_id, tmp_path)
    assert (report.rows, report.shards) == (0, [])
    assert list(tmp_path.glob("*.parquet")) == []
    assert json.loads((tmp_path / "export.json").read_text())["rows"] == 0


async def test_the_runs_prompt_config_is_the_default_layout(trajectories, demo_run, tmp_path):
    manifest = demo_run.manifest.model_copy(deep=True)
    manifest.settings["prompt_config"] = {"screenshots": 2}
    await trajectories.write_manifest(manifest)
    report = await export_run(trajectories, demo_run.run_id, tmp_path)
    assert report.prompt_config == PromptConfig(screenshots=2)
    assert max(len(row["images"]) for row in read_rows(tmp_path)) == 2
    manifest.settings["prompt_config"] = {"screenshots": 0}
    await trajectories.write_manifest(manifest)
    with pytest.raises(ExportError, match="invalid prompt_config setting"):
        await export_run(trajectories, demo_run.run_id, tmp_path)
