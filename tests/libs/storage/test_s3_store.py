"""What only the S3 backend does: credentials, buckets, prefixes, connection failures."""

from __future__ import annotations

import pytest
from minio import Minio

from phonebuddy.storage import (
    BucketNotFoundError,
    S3Store,
    StoreAuthError,
    StoreConfigError,
    StoreConnectionError,
)
from phonebuddy.testing import S3Server, free_port


async def test_wrong_secret_key_is_a_clear_auth_error(s3_server: S3Server, s3_bucket: str) -> None:
    store = S3Store(s3_server.endpoint, s3_server.access_key, "not-the-secret", s3_bucket)
    with pytest.raises(StoreAuthError) as caught:
        async with store:
            pass
    error = caught.value
    assert (error.endpoint, error.access_key) == (s3_server.endpoint, s3_server.access_key)
    assert error.code == "SignatureDoesNotMatch"
    message = str(error)
    assert f"the S3 server at {s3_server.endpoint} rejected the credentials" in message
    assert "PHONEBUDDY_STORE_SECRET_KEY" in message
    assert "not-the-secret" not in message


async def test_unknown_access_key_is_an_auth_error_on_any_first_operation(
    s3_server: S3Server, s3_bucket: str
) -> None:
    store = S3Store(s3_server.endpoint, "nobody", s3_server.secret_key, s3_bucket)
    with pytest.raises(StoreAuthError, match="'nobody'") as caught:
        await store.get_bytes("anything")  # no explicit open(): checked on first use
    assert caught.value.code == "InvalidAccessKeyId"
    await store.close()


async def test_missing_bucket_is_reported_with_the_fix(
    s3_server: S3Server, unique_name: str
) -> None:
    store = S3Store(s3_server.endpoint, s3_server.access_key, s3_server.secret_key, unique_name)
    with pytest.raises(BucketNotFoundError, match="create_bucket=True") as caught:
        await store.put_bytes("k", b"v")
    assert (caught.value.bucket, caught.value.endpoint) == (unique_name, s3_server.endpoint)
    await store.close()


async def test_create_bucket_creates_a_missing_bucket(
    s3_server: S3Server, s3_admin: Minio, unique_name: str
) -> None:
    bucket = unique_name
    try:
        store = S3Store(
            s3_server.endpoint,
            s3_server.access_key,
            s3_server.secret_key,
            bucket,
            create_bucket=True,
        )
        async with store:
            await store.put_bytes("k", b"v")
        assert s3_admin.bucket_exists(bucket)
        async with store:  # the bucket exists now: opening again is fine
            assert await store.get_bytes("k") == b"v"
    finally:
        for item in s3_admin.list_objects(bucket, recursive=True):
            s3_admin.remove_object(bucket, item.object_name)
        s3_admin.remove_bucket(bucket)


async def test_prefixes_keep_stores_in_one_bucket_apart(
    s3_server: S3Server, s3_admin: Minio, s3_bucket: str
) -> None:
    def open_store(prefix: str) -> S3Store:
        return S3Store(
            s3_server.endpoint,
            s3_server.access_key,
            s3_server.secret_key,
            s3_bucket,
            prefix=prefix,
        )

    async with open_store("team-a/") as a, open_store("team-b") as b:
        await a.put_bytes("x/1", b"a")
        await b.put_bytes("x/1", b"b")
        assert await a.list() == ["x/1"]
        assert await a.get_bytes("x/1") == b"a"
        assert await b.get_bytes("x/1") == b"b"

    names = sorted(item.object_name for item in s3_admin.list_objects(s3_bucket, recursive=True))
    assert names == ["team-a/x/1", "team-b/x/1"]


async def test_unreachable_server_is_a_connection_error() -> None:
    endpoint = f"127.0.0.1:{free_port()}"  # nothing listens here
    store = S3Store(endpoint, "key", "secret", "bucket", timeout_s=2.0)
    with pytest.raises(StoreConnectionError, match=endpoint):
        await store.open()
    await store.close()


@pytest.mark.parametrize(
    ("endpoint", "bucket", "setting"),
    [
        ("http://127.0.0.1:9000", "bucket", "endpoint"),
        ("127.0.0.1:9000", "Bad_Bucket", "bucket"),
        ("127.0.0.1:9000", "ab", "bucket"),
    ],
)
def test_malformed_endpoint_or_bucket_is_a_config_error(
    endpoint: str, bucket: str, setting: str
) -> None:
    with pytest.raises(StoreConfigError) as caught:
        S3Store(endpoint, "key", "secret", bucket)
    assert caught.value.setting == setting
