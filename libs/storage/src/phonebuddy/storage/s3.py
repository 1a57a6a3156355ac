"""`S3Store`: objects in an S3 bucket (any S3 server) through the `minio` client."""

from __future__ import annotations

import asyncio
import io
import os
from collections.abc import Callable
from typing import Self, TypeVar

import urllib3
from minio import Minio
from minio.error import MinioException, S3Error
from minio.helpers import MAX_PART_SIZE, MIN_PART_SIZE

from phonebuddy.storage.errors import (
    BucketNotFoundError,
    ObjectNotFoundError,
    StoreAuthError,
    StoreConfigError,
    StoreConnectionError,
    StoreError,
)
from phonebuddy.storage.keys import validate_bucket_name, validate_prefix
from phonebuddy.storage.store import ObjectStore

T = TypeVar("T")

_AUTH_CODES = frozenset({"InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied"})
_BUCKET_EXISTS_CODES = frozenset({"BucketAlreadyOwnedByYou", "BucketAlreadyExists"})


def _http_client(*, timeout_s: float, max_connections: int, secure: bool) -> urllib3.PoolManager:
    """minio's default pool, with timeouts that suit a service instead of 5 minutes."""
    ca_certs = os.environ.get("SSL_CERT_FILE") if secure else None
    return urllib3.PoolManager(
        timeout=urllib3.Timeout(connect=min(timeout_s, 10.0), read=timeout_s),
        maxsize=max_connections,
        cert_reqs="CERT_REQUIRED",
        ca_certs=ca_certs,
        retries=urllib3.Retry(total=3, backoff_factor=0.2, status_forcelist=[500, 502, 503, 504]),
    )


class S3Store(ObjectStore):
    """Objects in `bucket` under an optional key `prefix`, on the S3 server at `endpoint`
    (host:port). Credentials and the bucket are checked on `open()` (or the first operation);
    a missing bucket is an error unless `create_bucket` is set.
    """

    def __init__(
        self,
        endpoint: str,
        access_key: str,
        secret_key: str,
        bucket: str,
        *,
        prefix: str = "",
        secure: bool = False,
        region: str | None = None,
        create_bucket: bool = False,
        timeout_s: float = 60.0,
        max_connections: int = 16,
    ) -> None:
        if "://" in endpoint or "/" in endpoint:
            raise StoreConfigError(
                "endpoint", f"{endpoint!r} is not host:port (say https with secure=True)"
            )
        validate_bucket_name(bucket)
        prefix = validate_prefix(prefix.strip("/"))
        self.endpoint = endpoint
        self.access_key = access_key
        self.bucket = bucket
        self.prefix = f"{prefix}/" if prefix else ""
        self.create_bucket = create_bucket
        self._http = _http_client(
            timeout_s=timeout_s, max_connections=max_connections, secure=secure
        )
        self._client = Minio(
            endpoint,
            access_key=access_key,
            secret_key=secret_key,
            secure=secure,
            region=region,
            http_client=self._http,
        )
        self._opened = False
        self._open_lock = asyncio.Lock()

    def __repr__(self) -> str:
        return (
            f"S3Store(endpoint={self.endpoint!r}, bucket={self.bucket!r}, "
            f"prefix={self.prefix!r}, access_key={self.access_key!r})"
        )

    async def open(self) -> Self:
        """Check the credentials and the bucket (creating it if asked); done once."""
        if not self._opened:
            async with self._open_lock:
                if not self._opened:
                    await asyncio.to_thread(self._call, self._ensure_bucket)
                    self._opened = True
        return self

    async def close(self) -> None:
        self._http.clear()

    async def _run(self, fn: Callable[..., T], *args: object, key: str | None = None) -> T:
        await self.open()
        return await asyncio.to_thread(self._call, fn, *args, key=key)

    # -- primitives -------------------------------------------------------------------------

    async def _put(self, key: str, data: bytes, *, content_type: str, durable: bool) -> None:
        # A single PUT is atomic on S3, and acknowledged only once stored.
        await self._run(self._put_sync, self.prefix + key, data, content_type, key=key)

    async def _get(self, key: str) -> bytes:
        return await self._run(self._get_sync, self.prefix + key, key=key)

    async def _exists(self, key: str) -> bool:
        return await self._run(self._exists_sync, self.prefix + key, key=key)

    async def _delete(self, key: str) -> None:
        await self._run(self._client.remove_object, self.bucket, self.prefix + key, key=key)

    async def _list(self, prefix: str) -> list[str]:
        return await self._run(self._list_sync, prefix)

    # -- blocking work, run in a thread -----------------------------------------------------

    def _call(self, fn: Callable[..., T], *args: object, key: str | None = None) -> T:
        """Run one minio call, turning its errors into this library's (the one mapping)."""
        try:
            return fn(*args)
        except S3Error as exc:
            raise self._translate(exc, key) from exc
        except MinioException as exc:
            raise StoreConnectionError(self.endpoint, str(exc)) from exc
        except urllib3.exceptions.HTTPError as exc:
            raise StoreConnectionError(self.endpoint, str(exc)) from exc

    def _translate(self, exc: S3Error, key: str | None) -> StoreError:
        if exc.code in _AUTH_CODES:
            return StoreAuthError(self.endpoint, self.access_key, code=exc.code)
        if exc.code == "NoSuchBucket":
            return BucketNotFoundError(self.bucket, self.endpoint)
        if exc.code == "NoSuchKey" and key is not None:
            return ObjectNotFoundError(key)
        where = f" for key {key!r}" if key is not None else ""
        return StoreError(f"the S3 server at {self.endpoint} answered {exc.code}{where}: {exc}")

    def _ensure_bucket(self) -> None:
        if self._client.bucket_exists(self.bucket):
            return
        if not self.create_bucket:
            raise BucketNotFoundError(self.bucket, self.endpoint)
        try:
            self._client.make_bucket(self.bucket)
        except S3Error as exc:
            if exc.code not in _BUCKET_EXISTS_CODES:  # made by someone else meanwhile
                raise

    def _put_sync(self, name: str, data: bytes, content_type: str) -> None:
        # One part as large as the object: a single PUT up to 5 GiB, no multipart threads.
        part_size = min(max(len(data), MIN_PART_SIZE), MAX_PART_SIZE)
        self._client.put_object(
            self.bucket,
            name,
            io.BytesIO(data),
            len(data),
            content_type=content_type,
            part_size=part_size,
            num_parallel_uploads=1,
        )

    def _get_sync(self, name: str) -> bytes:
        response = self._client.get_object(self.bucket, name)
        try:
            return response.read()
        finally:
            response.close()
            response.release_conn()

    def _exists_sync(self, name: str) -> bool:
        try:
            self._client.stat_object(self.bucket, name)
        except S3Error as exc:
            if exc.code == "NoSuchKey":
                return False
            raise
        return True

    def _list_sync(self, prefix: str) -> list[str]:
        start = len(self.prefix)
        return [
            item.object_name[start:]
            for item in self._client.list_objects(
                self.bucket, prefix=self.prefix + prefix, recursive=True
            )
            if item.object_name is not None and not item.is_dir
        ]
