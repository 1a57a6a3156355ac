"""The ObjectStore contract, run against both backends (LocalStore and S3Store on a real S3)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
from typing import TYPE_CHECKING

import pytest
from pydantic import BaseModel

from phonebuddy.storage import (
    BlobRef,
    IntegrityError,
    InvalidKeyError,
    ObjectNotFoundError,
    ObjectStore,
    blob_key,
)

if TYPE_CHECKING:
    from conftest import Backend


class Step(BaseModel):
    index: int
    action: str
    screenshot: BlobRef | None = None


class Manifest(BaseModel):
    version: int
    count: int
    items: list[str]


async def test_bytes_round_trip(store: ObjectStore) -> None:
    await store.put_bytes("episodes/1/raw.bin", b"\x00\x01binary\xff", content_type="x/y")
    assert await store.get_bytes("episodes/1/raw.bin") == b"\x00\x01binary\xff"
    assert await store.exists("episodes/1/raw.bin")


async def test_put_bytes_overwrites(store: ObjectStore) -> None:
    await store.put_bytes("k", b"first")
    await store.put_bytes("k", b"second")
    assert await store.get_bytes("k") == b"second"


async def test_empty_object_round_trip(store: ObjectStore) -> None:
    await store.put_bytes("empty", b"")
    assert await store.get_bytes("empty") == b""


async def test_json_round_trip(store: ObjectStore) -> None:
    value = {"goal": "Öffne die Uhr", "steps": [1, 2.5, None, True], "nested": {"a": []}}
    await store.put_json("episodes/1/meta.json", value)
    assert await store.get_json("episodes/1/meta.json") == value


async def test_put_json_stores_pydantic_models(store: ObjectStore) -> None:
    ref = await store.put_blob(b"png bytes", content_type="image/png")
    step = Step(index=3, action="tap", screenshot=ref)
    await store.put_json("episodes/1/step-3.json", step)
    assert await store.get_json("episodes/1/step-3.json", model=Step) == step
    # Models nested in plain values are encoded too.
    await store.put_json("episodes/1/steps.json", {"steps": [step]})
    assert await store.get_json("episodes/1/steps.json") == {"steps": [step.model_dump()]}


async def test_put_json_refuses_values_that_are_not_json(store: ObjectStore) -> None:
    with pytest.raises(TypeError, match=r"'bad\.json'"):
        await store.put_json("bad.json", {"handle": object()})
    assert not await store.exists("bad.json")


async def test_missing_key_raises_object_not_found(store: ObjectStore) -> None:
    with pytest.raises(ObjectNotFoundError, match="'no/such/key'") as caught:
        await store.get_bytes("no/such/key")
    assert caught.value.key == "no/such/key"
    with pytest.raises(ObjectNotFoundError):
        await store.get_json("no/such/key.json")
    assert not await store.exists("no/such/key")


async def test_list_is_sorted_recursive_and_limited_to_the_prefix(store: ObjectStore) -> None:
    keys = ["runs/b/2", "runs/a/10", "runs/a/1", "runs2/x", "other/y", "top"]
    await asyncio.gather(*(store.put_bytes(key, key.encode()) for key in keys))

    assert await store.list("runs/") == ["runs/a/1", "runs/a/10", "runs/b/2"]
    assert await store.list("runs/a/") == ["runs/a/1", "runs/a/10"]
    assert await store.list("runs/a/1") == ["runs/a/1", "runs/a/10"]  # a plain string prefix
    assert await store.list("runs") == ["runs/a/1", "runs/a/10", "runs/b/2", "runs2/x"]
    assert await store.list() == sorted(keys)
    assert await store.list("nothing/") == []


async def test_delete_removes_the_object_and_tolerates_missing_keys(store: ObjectStore) -> None:
    await store.put_bytes("a/b", b"1")
    await store.put_bytes("a/c", b"2")
    await store.delete("a/b")
    assert not await store.exists("a/b")
    assert await store.list("a/") == ["a/c"]
    with pytest.raises(ObjectNotFoundError):
        await store.get_bytes("a/b")
    await store.delete("a/b")  # already gone: no error


async def test_blob_is_stored_once_under_its_sha256(store: ObjectStore, backend: Backend) -> None:
    data = b"a screenshot" * 100
    digest = hashlib.sha256(data).hexdigest()

    ref = await store.put_blob(data, content_type="image/png")

    assert ref == BlobRef(sha256=digest, size=len(data), content_type="image/png")
    assert ref.key == blob_key(digest) == f"blobs/sha256/{digest[:2]}/{digest}"
    assert await store.list("blobs/") == [ref.key]
    assert await store.get_blob(ref) == data
    assert await store.get_blob(digest) == data

    # Replace the stored object behind the store's back: a second put of the same bytes sees
    # the blob exists and must not write it again, so the replacement survives.
    await asyncio.to_thread(backend.raw_put, ref.key, b"replaced")
    assert await store.put_blob(data, content_type="image/png") == ref
    assert await asyncio.to_thread(backend.raw_get, ref.key) == b"replaced"
    assert await store.list("blobs/") == [ref.key]


async def test_get_blob_detects_corrupted_content(store: ObjectStore, backend: Backend) -> None:
    ref = await store.put_blob(b"original bytes")
    await asyncio.to_thread(backend.raw_put, ref.key, b"original bytez")

    with pytest.raises(IntegrityError) as caught:
        await store.get_blob(ref.sha256)

    assert caught.value.expected_sha256 == ref.sha256
    assert caught.value.actual_sha256 == hashlib.sha256(b"original bytez").hexdigest()
    assert ref.key in str(caught.value)


async def test_get_blob_of_unknown_or_malformed_hash(store: ObjectStore) -> None:
    with pytest.raises(ObjectNotFoundError):
        await store.get_blob(hashlib.sha256(b"never stored").hexdigest())
    with pytest.raises(InvalidKeyError, match="sha256"):
        await store.get_blob("not-a-hash")


async def test_manifest_readers_never_see_a_partial_manifest(
    store: ObjectStore, backend: Backend
) -> None:
    key = "episodes/7/manifest.json"
    await store.write_manifest(key, Manifest(version=0, count=0, items=[]))
    writes = 40 if backend.name == "s3" else 150
    done = asyncio.Event()

    async def writer() -> None:
        for version in range(1, writes + 1):
            # Sizes swing between ~100 B and ~200 KB, so a torn read would be caught.
            count = (version * 7919) % 4000
            items = [f"step-{version}-{i:06d}" for i in range(count)]
            await store.write_manifest(key, Manifest(version=version, count=count, items=items))
        done.set()

    async def reader() -> int:
        reads = 0
        while not done.is_set():
            manifest = await store.get_json(key, model=Manifest)  # a torn read fails here
            assert len(manifest.items) == manifest.count
            reads += 1
        return reads

    _, *reads = await asyncio.gather(writer(), reader(), reader(), reader())

    assert sum(reads) > 0
    final = await store.get_json(key, model=Manifest)
    assert final.version == writes
    assert len(final.items) == final.count
    assert await store.list("episodes/") == [key]


async def test_concurrent_manifest_writes_last_write_wins_complete(store: ObjectStore) -> None:
    key = "runs/r1/manifest.json"
    versions = [{"version": v, "payload": "x" * (v * 5000)} for v in range(8)]
    await asyncio.gather(*(store.write_manifest(key, doc) for doc in versions))
    assert await store.get_json(key) in versions  # one of them, whole

    await store.write_manifest(key, {"version": 99, "payload": "final"})
    assert await store.get_json(key) == {"version": 99, "payload": "final"}


BAD_KEYS = [
    ("", "empty"),
    ("/etc/passwd", "leading '/'"),
    ("a/../b", "'..'"),
    ("..", "'..'"),
    ("a\\b", "backslash"),
    ("a\x00b", "NUL"),
    ("a//b", "segment ''"),
    ("./a", "'.'"),
    ("a/", "segment ''"),
    (".pbtmp-x", "reserved"),
    ("k" * 1025, "longer than 1024 bytes"),
]


async def test_invalid_keys_are_rejected_by_every_operation(store: ObjectStore) -> None:
    for key, reason in BAD_KEYS:
        for operation in (
            lambda key: store.put_bytes(key, b"x"),
            store.get_bytes,
            lambda key: store.put_json(key, {}),
            lambda key: store.write_manifest(key, {}),
            store.exists,
            store.delete,
        ):
            with pytest.raises(InvalidKeyError, match=re.escape(reason)) as caught:
                await operation(key)
            assert caught.value.key == key
            assert repr(key) in str(caught.value)
    for prefix in ("/abs", "../up", "a/../b/", "a\\b"):
        with pytest.raises(InvalidKeyError):
            await store.list(prefix)
    assert await store.list() == []


async def test_large_objects_round_trip(store: ObjectStore) -> None:
    data = os.urandom(8 * 1024 * 1024)
    await store.put_bytes("big/object.bin", data)
    assert await store.get_bytes("big/object.bin") == data

    ref = await store.put_blob(data)
    assert ref.size == len(data)
    assert await store.get_blob(ref) == data


async def test_get_json_reads_what_put_bytes_wrote(store: ObjectStore) -> None:
    await store.put_bytes("doc.json", json.dumps({"a": 1}).encode())
    assert await store.get_json("doc.json") == {"a": 1}
