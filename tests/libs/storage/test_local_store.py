"""What only the folder backend does: files under the root, temp files, file/folder clashes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from phonebuddy.storage import InvalidKeyError, LocalStore


async def test_keys_are_files_under_the_root(tmp_path: Path) -> None:
    async with LocalStore(tmp_path / "store") as store:
        await store.put_bytes("episodes/1/step.json", b"{}")
        await store.write_manifest("episodes/1/manifest.json", {"steps": 1})

    files = sorted(
        Path(dirpath, name).relative_to(tmp_path / "store").as_posix()
        for dirpath, _, names in os.walk(tmp_path / "store")
        for name in names
    )
    assert files == ["episodes/1/manifest.json", "episodes/1/step.json"]  # no temp files left
    assert (tmp_path / "store/episodes/1/step.json").read_bytes() == b"{}"


async def test_list_skips_temporary_files_of_writes_in_progress(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    await store.put_bytes("a/done", b"1")
    (tmp_path / "a" / ".pbtmp-abc123").write_bytes(b"half")
    assert await store.list() == ["a/done"]


async def test_a_key_cannot_be_both_an_object_and_a_folder(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    await store.put_bytes("a", b"object")
    with pytest.raises(InvalidKeyError, match="'a/b'"):
        await store.put_bytes("a/b", b"below an object")

    await store.put_bytes("c/d", b"object in folder c")
    with pytest.raises(InvalidKeyError, match="'c'"):
        await store.put_bytes("c", b"over a folder")
    assert not await store.exists("c")
    assert await store.list() == ["a", "c/d"]


async def test_missing_root_reads_as_empty(tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "not-yet")
    assert await store.list() == []
    assert not await store.exists("x")
