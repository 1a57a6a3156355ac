"""`ObjectStore`: the one async interface to the object store, whatever the backend."""

from __future__ import annotations

import abc
import asyncio
import json
from types import TracebackType
from typing import Any, Self, TypeVar, overload

from pydantic import BaseModel, TypeAdapter
from pydantic_core import PydanticSerializationError

from phonebuddy.storage.blobs import BlobRef, blob_key, sha256_hex
from phonebuddy.storage.errors import IntegrityError
from phonebuddy.storage.keys import validate_key, validate_prefix

ModelT = TypeVar("ModelT", bound=BaseModel)

OCTET_STREAM = "application/octet-stream"
JSON = "application/json"
# Hash big payloads in a thread so the event loop keeps serving other tasks.
_HASH_IN_THREAD_BYTES = 256 * 1024
_ANY_JSON: TypeAdapter[Any] = TypeAdapter(Any)


def encode_json(key: str, obj: Any) -> bytes:
    """JSON bytes of a pydantic model or a JSON-able value (models may be nested in it)."""
    try:
        if isinstance(obj, BaseModel):
            return obj.model_dump_json().encode()
        return _ANY_JSON.dump_json(obj)
    except PydanticSerializationError as exc:
        raise TypeError(f"cannot encode the value for {key!r} as JSON: {exc}") from exc


class ObjectStore(abc.ABC):
    """Keys are '/'-separated relative paths (see `phonebuddy.storage.keys`).

    Public methods validate keys and do the backend-independent work (JSON, blobs); backends
    implement the `_put`/`_get`/`_exists`/`_delete`/`_list` primitives, each of which takes a
    validated key and must be atomic: a reader sees the old object or the new one, never a part.
    """

    # -- backend primitives -------------------------------------------------------------------

    @abc.abstractmethod
    async def _put(self, key: str, data: bytes, *, content_type: str, durable: bool) -> None:
        """Store `data` atomically; `durable` asks for it to be on disk before returning."""

    @abc.abstractmethod
    async def _get(self, key: str) -> bytes:
        """The object's bytes, or `ObjectNotFoundError`."""

    @abc.abstractmethod
    async def _exists(self, key: str) -> bool: ...

    @abc.abstractmethod
    async def _delete(self, key: str) -> None:
        """Remove the object; no error if there is none."""

    @abc.abstractmethod
    async def _list(self, prefix: str) -> list[str]:
        """Every key starting with `prefix` (a plain string prefix), in any order."""

    async def open(self) -> Self:
        """Check the backend is usable (S3: credentials and bucket). Operations call it too."""
        return self

    @abc.abstractmethod
    async def close(self) -> None:
        """Release connections; the store is not used afterwards."""

    # -- bytes ------------------------------------------------------------------------------

    async def put_bytes(self, key: str, data: bytes, *, content_type: str = OCTET_STREAM) -> None:
        await self._put(validate_key(key), data, content_type=content_type, durable=False)

    async def get_bytes(self, key: str) -> bytes:
        return await self._get(validate_key(key))

    async def exists(self, key: str) -> bool:
        return await self._exists(validate_key(key))

    async def delete(self, key: str) -> None:
        """Remove the object under `key`; deleting a missing key is not an error."""
        await self._delete(validate_key(key))

    async def list(self, prefix: str = "") -> list[str]:
        """Sorted keys starting with `prefix`, at any depth. `prefix` is a plain string prefix:
        end it with '/' to list one "folder" ('runs/' does not match 'runs2/...')."""
        return sorted(await self._list(validate_prefix(prefix)))

    # -- JSON -------------------------------------------------------------------------------

    async def put_json(self, key: str, obj: Any) -> None:
        """Store a pydantic model or a JSON-able value as JSON."""
        await self._put(validate_key(key), encode_json(key, obj), content_type=JSON, durable=False)

    @overload
    async def get_json(self, key: str) -> Any: ...
    @overload
    async def get_json(self, key: str, *, model: type[ModelT]) -> ModelT: ...

    async def get_json(self, key: str, *, model: type[ModelT] | None = None) -> Any:
        """The decoded JSON under `key`, validated into `model` if one is given."""
        data = await self.get_bytes(key)
        if model is not None:
            return model.model_validate_json(data)
        return json.loads(data)

    async def write_manifest(self, key: str, obj: Any) -> None:
        """Store `obj` as JSON atomically and durably: a concurrent reader sees the previous
        manifest or this one, complete, never a part; the write is on disk when this returns."""
        await self._put(validate_key(key), encode_json(key, obj), content_type=JSON, durable=True)

    # -- content-addressed blobs ------------------------------------------------------------

    async def put_blob(self, data: bytes, *, content_type: str = OCTET_STREAM) -> BlobRef:
        """Store `data` once under its sha256; putting the same bytes again writes nothing."""
        digest = await _sha256(data)
        key = blob_key(digest)
        if not await self._exists(key):
            await self._put(key, data, content_type=content_type, durable=False)
        return BlobRef(sha256=digest, size=len(data), content_type=content_type)

    async def get_blob(self, sha256: str | BlobRef) -> bytes:
        """The blob's bytes, checked against its hash (`IntegrityError` if they differ)."""
        expected = sha256.sha256 if isinstance(sha256, BlobRef) else sha256
        key = blob_key(expected)
        data = await self._get(key)
        actual = await _sha256(data)
        if actual != expected:
            raise IntegrityError(key, expected, actual)
        return data

    # -- context manager --------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        return await self.open()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


async def _sha256(data: bytes) -> str:
    if len(data) >= _HASH_IN_THREAD_BYTES:
        return await asyncio.to_thread(sha256_hex, data)
    return sha256_hex(data)
