"""The SFT data path: labels, filters, the split by task, and damaged inputs."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from phonebuddy.agent.chat_format import IM_END
from phonebuddy.policy_model.inputs import load_processing
from phonebuddy.sft.config import DataConfig, RunSource
from phonebuddy.sft.data import DataError, filter_rows, load_rows, split_by_task
from phonebuddy.sft.encode import encode_row
from phonebuddy.training.batch import IGNORE_INDEX


@pytest.fixture(scope="module")
def rows(teacher_run):
    config = DataConfig(
        runs=(RunSource(run=teacher_run.run_id, store=teacher_run.store_url),),
        successful_only=False,
    )
    return load_rows(config)


def test_loss_is_taken_on_the_assistant_turn_through_im_end_only(tiny_checkpoint, rows) -> None:
    processing = load_processing(tiny_checkpoint)
    end_id = processing.tokenizer.convert_tokens_to_ids(IM_END)
    for row in rows:
        example = encode_row(processing, row)
        labelled = (example.labels != IGNORE_INDEX).nonzero().flatten().tolist()
        first, last = labelled[0], labelled[-1]
        assert labelled == list(range(first, last + 1))  # one contiguous span
        assert example.input_ids[last].item() == end_id  # ends with <|im_end|> ...
        assert last == example.length - 2  # ... and the newline after it is not learnt
        target = processing.tokenizer.decode(example.input_ids[first : last + 1].tolist())
        assert target == row.completion_text.removesuffix("\n")
        assert "<tool_call>" in target


def test_filters_keep_what_they_name(rows) -> None:
    assert {row.success for row in rows} == {True, False}
    assert all(row.success for row in filter_rows(rows, DataConfig()))
    clock = filter_rows(rows, DataConfig(apps=("com.pw.clock",), successful_only=False))
    assert clock
    assert {row.template_id for row in clock} == {"clock.alarm_toggle"}
    assert filter_rows(rows, DataConfig(sources=("real",), successful_only=False)) == []
    assert filter_rows(rows, DataConfig(policy_versions=("v9",), successful_only=False)) == []


def test_the_validation_split_holds_whole_tasks(rows) -> None:
    train, validation = split_by_task(rows, 0.4, seed=1)
    assert train
    assert validation
    assert {r.task_id for r in train}.isdisjoint({r.task_id for r in validation})
    assert {r.episode_id for r in train}.isdisjoint({r.episode_id for r in validation})
    assert len(train) + len(validation) == len(rows)


def test_an_unknown_run_is_one_clear_error(teacher_run) -> None:
    config = DataConfig(runs=(RunSource(run="missing", store=teacher_run.store_url),))
    with pytest.raises(DataError, match="run missing"):
        load_rows(config)


def test_a_damaged_screenshot_in_the_store_is_refused(tmp_path, teacher_run) -> None:
    root = tmp_path / "store"
    shutil.copytree(teacher_run.store_url.removeprefix("local:"), root)
    blob = next(p for p in root.rglob("*") if p.is_file() and "blobs" in p.parts)
    blob.write_bytes(b"not the screenshot")
    config = DataConfig(runs=(RunSource(run=teacher_run.run_id, store=f"local:{root}"),))
    with pytest.raises(DataError, match=f"run {teacher_run.run_id}: .*(hash|sha256)"):
        load_rows(config)


@pytest.fixture(scope="module")
def exported(tmp_path_factory, teacher_run) -> Path:
    """The teacher run as `phonebuddy trajectories export` writes it, in shards of 4 rows."""
    import asyncio

    from phonebuddy.storage import LocalStore
    from phonebuddy.trajectories import TrajectoryStore
    from phonebuddy.trajectories.export import export_run

    folder = tmp_path_factory.mktemp("exported") / "export"
    store = TrajectoryStore(LocalStore(teacher_run.store_url.removeprefix("local:")))
    asyncio.run(export_run(store, teacher_run.run_id, folder, rows_per_shard=4))
    assert len(list(folder.glob("part-*.parquet"))) >= 3
    return folder


@pytest.fixture
def export_copy(tmp_path, exported) -> Path:
    """A copy of `exported` for a test to damage."""
    return Path(shutil.copytree(exported, tmp_path / "export"))


def _report(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "export.json").read_text())


def test_parquet_exports_are_read_as_export_json_lists_them(export_copy, rows) -> None:
    exported = load_rows(DataConfig(parquet=(str(export_copy),)))
    assert len(exported) == sum(row.success for row in rows) == _report(export_copy)["rows"]
    assert {r.prompt_text for r in exported} <= {r.prompt_text for r in rows}


def test_an_unreadable_shard_that_export_json_vouches_for_is_refused(export_copy) -> None:
    shard = export_copy / "part-00000.parquet"
    shard.write_bytes(shard.read_bytes()[:200])
    report = _report(export_copy)
    report["shards"][0]["sha256"] = hashlib.sha256(shard.read_bytes()).hexdigest()
    report["shards"][0]["size_bytes"] = 200
    (export_copy / "export.json").write_text(json.dumps(report))
    with pytest.raises(DataError, match=r"part-00000\.parquet is not a readable parquet file"):
        load_rows(DataConfig(parquet=(str(export_copy),)))


def _flip_a_byte(folder: Path) -> None:
    shard = folder / "part-00001.parquet"
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0x01
    shard.write_bytes(bytes(data))


def _add_a_shard(folder: Path) -> None:
    shutil.copyfile(folder / "part-00000.parquet", folder / "part-00099.parquet")


def _remove_a_shard(folder: Path) -> None:
    (folder / "part-00001.parquet").unlink()


def _remove_export_json(folder: Path) -> None:
    (folder / "export.json").unlink()


def _garble_export_json(folder: Path) -> None:
    (folder / "export.json").write_text('{"run_id": "teacher"')


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (_flip_a_byte, r"/part-00001\.parquet does not match the sha256 that .*export\.json"),
        (_add_a_shard, r"/part-00099\.parquet is not a shard that .*export\.json lists"),
        (_remove_a_shard, r"/part-00001\.parquet, listed in .*export\.json, is missing"),
        (_remove_export_json, r"/export\.json is missing"),
        (_garble_export_json, r"/export\.json is not a valid export report"),
    ],
    ids=["corrupted byte", "extra shard", "missing shard", "no export.json", "bad export.json"],
)
def test_an_export_that_differs_from_its_export_json_is_refused(
    export_copy, damage, message
) -> None:
    damage(export_copy)
    with pytest.raises(DataError, match=message) as raised:
        load_rows(DataConfig(parquet=(str(export_copy),)))
    assert str(export_copy) in str(raised.value)
    assert "\n" not in str(raised.value)  # one sentence


def test_an_empty_folder_is_not_an_export(tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match=r"empty/export\.json is missing"):
        load_rows(DataConfig(parquet=(str(tmp_path / "empty"),)))


def test_test_split_episodes_are_refused_unless_allowed(tmp_path, rows, run_writer) -> None:
    import asyncio
    import dataclasses

    from phonebuddy.protocol import TEST_SEEDS
    from phonebuddy.sft.data import refuse_test_split

    assert {(row.split, row.seed) for row in rows} <= {("train", seed) for seed in range(3)}
    refuse_test_split(rows, DataConfig())
    held_out = asyncio.run(run_writer(tmp_path, "held", ["settings.night_mode"], [0]))
    at_test_seed = asyncio.run(run_writer(tmp_path, "later", ["settings.toggle"], [TEST_SEEDS[0]]))
    for run in (held_out, at_test_seed):
        config = DataConfig(runs=(RunSource(run=run.run_id, store=run.store_url),))
        loaded = load_rows(config)
        assert {row.split for row in loaded} == {"test"}
        with pytest.raises(DataError, match=r"test split .*data\.allow_test_split=true"):
            refuse_test_split([*rows, *loaded], config)
        refuse_test_split(loaded, config.model_copy(update={"allow_test_split": True}))
    # steps stored before PhoneWorld stamped splits are judged by their seed
    unstamped = [dataclasses.replace(row, split=None, seed=TEST_SEEDS[0] + 1) for row in rows]
    with pytest.raises(DataError, match=r"settings\.toggle"):
        refuse_test_split(unstamped, DataConfig())
    unknown = [dataclasses.replace(row, split=None, seed=None) for row in rows]
    refuse_test_split(unknown, DataConfig())
