"""Both backends behind one `store` fixture: a LocalStore in tmp_path and an S3Store on the
session's real S3 server, each test in a bucket of its own."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from minio import Minio

from phonebuddy.storage import LocalStore, ObjectStore, S3Store
from phonebuddy.testing import S3Server

S3_PREFIX = "pb/test"


@dataclass
class Backend:
    """A place objects live, a way to open a store on it, and raw access that bypasses it."""

    name: str
    make: Callable[[], ObjectStore]
    raw_put: Callable[[str, bytes], None]
    raw_get: Callable[[str], bytes]


@pytest.fixture(scope="session")
def s3_admin(s3_server: S3Server) -> Minio:
    """A plain minio client on the session's S3 server, for setup and tampering."""
    return Minio(
        s3_server.endpoint,
        access_key=s3_server.access_key,
        secret_key=s3_server.secret_key,
        secure=False,
    )


def remove_bucket(client: Minio, bucket: str) -> None:
    if not client.bucket_exists(bucket):
        return
    for item in client.list_objects(bucket, recursive=True):
        client.remove_object(bucket, item.object_name)
    client.remove_bucket(bucket)


@pytest.fixture
def s3_bucket(s3_admin: Minio, unique_name: str) -> Iterator[str]:
    """A fresh bucket for this test, removed with its objects afterwards (each bucket holds a
    SeaweedFS volume, so they must not pile up)."""
    bucket = unique_name[:63]
    s3_admin.make_bucket(bucket)
    yield bucket
    remove_bucket(s3_admin, bucket)


def local_backend(root: Path) -> Backend:
    def raw_put(key: str, data: bytes) -> None:
        path = root / key
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    return Backend(
        "local", lambda: LocalStore(root), raw_put, lambda key: (root / key).read_bytes()
    )


def s3_backend(server: S3Server, admin: Minio, bucket: str) -> Backend:
    def raw_put(key: str, data: bytes) -> None:
        admin.put_object(bucket, f"{S3_PREFIX}/{key}", io.BytesIO(data), len(data))

    def raw_get(key: str) -> bytes:
        response = admin.get_object(bucket, f"{S3_PREFIX}/{key}")
        try:
            return response.read()
        finally:
            response.close()
            response.release_conn()

    def make() -> ObjectStore:
        return S3Store(
            server.endpoint, server.access_key, server.secret_key, bucket, prefix=S3_PREFIX
        )

    return Backend("s3", make, raw_put, raw_get)


@pytest.fixture(params=["local", "s3"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "local":
        return local_backend(tmp_path / "store")
    return s3_backend(
        request.getfixturevalue("s3_server"),
        request.getfixturevalue("s3_admin"),
        request.getfixturevalue("s3_bucket"),
    )


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[ObjectStore]:
    async with backend.make() as opened:
        yield opened
