"""Where a checkpoint comes from and which version it is.

A checkpoint is a folder `from_pretrained` loads (config, safetensors, tokenizer, preprocessor).
It may also live in an object store (`s3://bucket/prefix`, `local:/path` — credentials from
PHONEBUDDY_STORE_*): it is then copied into a fresh folder under the cache first. Its version is
given by the caller or derived from the files, so two different weight sets never share one.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from phonebuddy.policy.errors import CheckpointError
from phonebuddy.storage import StoreError, StoreSettings, open_store

_STORE_SCHEMES = ("s3://", "local:", "file:")
_EDGE_BYTES = 1 << 20


def is_store_url(source: str) -> bool:
    return source.startswith(_STORE_SCHEMES)


def default_cache_dir() -> Path:
    """The same root the tokenizer cache uses: $PHONEBUDDY_CACHE_DIR, else
    $XDG_CACHE_HOME/phonebuddy, else ~/.cache/phonebuddy."""
    if root := os.environ.get("PHONEBUDDY_CACHE_DIR"):
        return Path(root)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "phonebuddy"


async def fetch_checkpoint(source: str, cache_dir: Path) -> tuple[Path, bool]:
    """(folder, downloaded): a local folder for `source`; `downloaded` means a fresh copy the
    caller may delete once the weights are in memory."""
    if not is_store_url(source):
        return await asyncio.to_thread(_local_checkpoint, source), False
    target = await asyncio.to_thread(_fresh_folder, cache_dir)
    try:
        async with open_store(StoreSettings(url=source)) as store:
            keys = await store.list()
            if not keys:
                raise CheckpointError(f"{source} holds no files", param="model")
            for key in keys:
                await asyncio.to_thread(_write, target / key, await store.get_bytes(key))
        await asyncio.to_thread(check_checkpoint, target)
    except StoreError as exc:
        shutil.rmtree(target, ignore_errors=True)
        message = f"cannot read the checkpoint at {source}: {exc}"
        raise CheckpointError(message, param="model") from exc
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)
        raise
    return target, True


def _local_checkpoint(source: str) -> Path:
    folder = Path(source).expanduser()
    check_checkpoint(folder)
    return folder


def _fresh_folder(cache_dir: Path) -> Path:
    cache_dir.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="checkpoint-", dir=cache_dir))


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def check_checkpoint(folder: Path) -> None:
    if not folder.is_dir():
        raise CheckpointError(f"checkpoint folder {folder} does not exist", param="model")
    missing = [name for name in ("config.json",) if not (folder / name).is_file()]
    if not any(folder.glob("*.safetensors")):
        missing.append("*.safetensors")
    if missing:
        what = ", ".join(missing)
        raise CheckpointError(f"{folder} is not a checkpoint: no {what}", param="model")


def checkpoint_version(folder: Path, *, name: str | None = None) -> str:
    """`<name>@<12 hex>`: a digest of the config and each weight file's name, size, first and
    last MiB — cheap for a 10 GB checkpoint, and different whenever the weights are."""
    digest = hashlib.sha256((folder / "config.json").read_bytes())
    for path in sorted(folder.glob("*.safetensors")):
        size = path.stat().st_size
        digest.update(f"{path.name}:{size}".encode())
        with path.open("rb") as handle:
            digest.update(handle.read(_EDGE_BYTES))
            if size > 2 * _EDGE_BYTES:
                handle.seek(size - _EDGE_BYTES)
                digest.update(handle.read())
    return f"{name or folder.name}@{digest.hexdigest()[:12]}"
