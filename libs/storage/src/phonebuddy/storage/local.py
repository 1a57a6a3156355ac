"""`LocalStore`: the embedded default, one file per object under a root folder."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from pathlib import Path

from phonebuddy.storage.errors import InvalidKeyError, ObjectNotFoundError, StoreError
from phonebuddy.storage.keys import TEMP_PREFIX
from phonebuddy.storage.store import ObjectStore

_FILE_MODE = 0o644


class LocalStore(ObjectStore):
    """Objects are files under `root` (key 'a/b.json' is `root/a/b.json`); folders are made as
    needed. Writes go to a temporary file in the same folder and are renamed into place, so a
    reader never sees a partial object. Content types are not kept.

    A folder cannot also be a file, so unlike S3 this store cannot hold both 'a' and 'a/b'.
    """

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).absolute()

    def __repr__(self) -> str:
        return f"LocalStore({str(self.root)!r})"

    def _path(self, key: str) -> Path:
        return self.root.joinpath(*key.split("/"))

    async def _put(self, key: str, data: bytes, *, content_type: str, durable: bool) -> None:
        await asyncio.to_thread(self._put_sync, key, data, durable)

    async def _get(self, key: str) -> bytes:
        return await asyncio.to_thread(self._get_sync, key)

    async def _exists(self, key: str) -> bool:
        return await asyncio.to_thread(self._path(key).is_file)

    async def _delete(self, key: str) -> None:
        await asyncio.to_thread(self._delete_sync, key)

    async def _list(self, prefix: str) -> list[str]:
        return await asyncio.to_thread(self._list_sync, prefix)

    async def close(self) -> None:
        return None

    # -- blocking work, run in a thread -----------------------------------------------------

    def _put_sync(self, key: str, data: bytes, durable: bool) -> None:
        try:
            _write_atomic(self._path(key), data, durable=durable)
        except (FileExistsError, NotADirectoryError, IsADirectoryError) as exc:
            raise InvalidKeyError(
                key,
                "the local store cannot hold both 'a' and 'a/...' (a file cannot be a folder), "
                "and this key or a leading part of it is already the other kind",
            ) from exc
        except OSError as exc:
            raise StoreError(f"the local store could not write {key!r}: {exc}") from exc

    def _get_sync(self, key: str) -> bytes:
        try:
            return self._path(key).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
            raise ObjectNotFoundError(key) from exc

    def _delete_sync(self, key: str) -> None:
        # A folder is not an object: a key naming one has nothing to delete.
        with contextlib.suppress(FileNotFoundError, IsADirectoryError, NotADirectoryError):
            self._path(key).unlink()

    def _list_sync(self, prefix: str) -> list[str]:
        folder, _, _ = prefix.rpartition("/")
        start = self._path(folder) if folder else self.root
        if not start.is_dir():
            return []
        keys: list[str] = []
        for dirpath, _dirnames, filenames in os.walk(start):
            relative = Path(dirpath).relative_to(self.root).as_posix()
            for name in filenames:
                if name.startswith(TEMP_PREFIX):
                    continue
                key = name if relative == "." else f"{relative}/{name}"
                if key.startswith(prefix):
                    keys.append(key)
        return keys


def _write_atomic(path: Path, data: bytes, *, durable: bool) -> None:
    """Write a temporary file next to `path` and rename it over `path` (atomic on POSIX)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=TEMP_PREFIX)
    try:
        with os.fdopen(fd, "wb") as tmp:
            os.fchmod(tmp.fileno(), _FILE_MODE)  # mkstemp makes 0600 files
            tmp.write(data)
            if durable:
                tmp.flush()
                os.fsync(tmp.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    if durable:
        _fsync_dir(path.parent)


def _fsync_dir(path: Path) -> None:
    """Persist a rename: fsync the folder that holds the new name."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
