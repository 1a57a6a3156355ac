"""A blocking face of `phonebuddy.storage` for training loops, which are not async.

One event loop on a background thread serves every call, so S3 connections are reused between
checkpoints instead of reopened for each file.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from phonebuddy.storage import ObjectStore, StoreSettings, open_store

T = TypeVar("T")


def join_url(base: str, *parts: str) -> str:
    """`base` (local:/path, s3://bucket/prefix) with `parts` appended as path segments."""
    tail = "/".join(part.strip("/") for part in parts if part.strip("/"))
    return f"{base.rstrip('/')}/{tail}" if tail else base


class SyncStore:
    """The object store at `url` (credentials from PHONEBUDDY_STORE_*), with blocking calls."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._store: ObjectStore = open_store(StoreSettings(url=url))
        try:
            self._call(self._store.open())
        except BaseException:
            self.close()
            raise

    def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def put(self, key: str, data: bytes) -> None:
        self._call(self._store.put_bytes(key, data))

    def get(self, key: str) -> bytes:
        return self._call(self._store.get_bytes(key))

    def exists(self, key: str) -> bool:
        return self._call(self._store.exists(key))

    def delete(self, key: str) -> None:
        self._call(self._store.delete(key))

    def list(self, prefix: str = "") -> list[str]:
        return self._call(self._store.list(prefix))

    def put_json(self, key: str, obj: Any) -> None:
        self._call(self._store.put_json(key, obj))

    def get_json(self, key: str) -> Any:
        return self._call(self._store.get_json(key))

    def upload_folder(self, folder: Path, prefix: str) -> list[str]:
        keys = []
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            key = f"{prefix.rstrip('/')}/{path.relative_to(folder).as_posix()}"
            self.put(key, path.read_bytes())
            keys.append(key)
        return keys

    def download_folder(self, prefix: str, folder: Path) -> int:
        """Copy every object under `prefix` into `folder`; returns how many."""
        prefix = prefix.rstrip("/") + "/" if prefix else ""
        keys = self.list(prefix)
        for key in keys:
            target = folder / key[len(prefix) :]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(self.get(key))
        return len(keys)

    def close(self) -> None:
        if self._loop.is_running():
            with_store = getattr(self, "_store", None)
            if with_store is not None:
                try:
                    self._call(with_store.close())
                finally:
                    self._loop.call_soon_threadsafe(self._loop.stop)
            else:
                self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def __enter__(self) -> SyncStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
