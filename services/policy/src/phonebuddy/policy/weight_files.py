"""The files a weight update brings: safetensors read through their header, a digest per tensor,
one checksum over them all, and the places such files may be read from.

The checksum (`combined_checksum`) is sha256 over one line per tensor in name order,
`name \\t dtype \\t shape \\t sha256(raw bytes)`, dtype spelled as torch spells it (`float32`,
`bfloat16`) and shape as comma-separated sizes. Raw bytes are the tensor's contiguous
little-endian bytes: what safetensors stores, so the server hashes file ranges and a trainer
hashes tensors (`phonebuddy.training.weight_sync.weights_checksum`) and both get one answer.

Nothing here trusts a file: the header's size is bounded, every tensor's byte range must lie in
the file and match its dtype and shape, and no name may appear twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from phonebuddy.policy.errors import BadRequestError, ForbiddenError
from phonebuddy.storage import (
    LocalLocation,
    S3Location,
    StoreConfigError,
    StoreError,
    StoreSettings,
    open_store,
    parse_store_url,
)

MAX_HEADER_BYTES = 100 * 2**20
_READ_BYTES = 8 * 2**20
# safetensors' dtype codes -> (torch's name, bytes per element)
DTYPES: dict[str, tuple[str, int]] = {
    "F64": ("float64", 8), "F32": ("float32", 4), "F16": ("float16", 2),
    "BF16": ("bfloat16", 2), "F8_E4M3": ("float8_e4m3fn", 1), "F8_E5M2": ("float8_e5m2", 1),
    "I64": ("int64", 8), "I32": ("int32", 4), "I16": ("int16", 2), "I8": ("int8", 1),
    "U8": ("uint8", 1), "BOOL": ("bool", 1),
}  # fmt: skip
ITEM_BYTES = {name: size for name, size in DTYPES.values()}
FLOATING = frozenset({"float64", "float32", "float16", "bfloat16"})
WEIGHT_FILE = "*.safetensors"
WEIGHT_INDEX = "model.safetensors.index.json"


class InvalidWeightsError(BadRequestError):
    """A weight file that is missing, unreadable or not what the update said it holds."""

    code = "invalid_weights"

    def __init__(self, message: str) -> None:
        super().__init__(message, param="update_info")


class WeightSourceForbiddenError(ForbiddenError):
    code = "weight_source_forbidden"


@dataclass(frozen=True, slots=True)
class TensorDigest:
    dtype: str  # torch's name: float32, bfloat16, ...
    shape: tuple[int, ...]
    sha256: str


def checksum_line(name: str, digest: TensorDigest) -> str:
    return f"{name}\t{digest.dtype}\t{','.join(map(str, digest.shape))}\t{digest.sha256}\n"


def combined_checksum(digests: Mapping[str, TensorDigest]) -> str:
    total = hashlib.sha256()
    for name in sorted(digests):
        total.update(checksum_line(name, digests[name]).encode())
    return total.hexdigest()


def element_count(shape: Iterable[int]) -> int:
    count = 1
    for size in shape:
        count *= size
    return count


@dataclass(frozen=True, slots=True)
class _Entry:
    name: str
    dtype: str
    shape: tuple[int, ...]
    start: int  # absolute offsets in the file
    end: int


def _header(path: Path) -> list[_Entry]:
    size = path.stat().st_size
    with path.open("rb") as handle:
        prefix = handle.read(8)
        if len(prefix) < 8:
            raise InvalidWeightsError(f"{path.name} is not a safetensors file (too short)")
        (length,) = struct.unpack("<Q", prefix)
        if length > min(MAX_HEADER_BYTES, size - 8):
            raise InvalidWeightsError(f"{path.name} is not a safetensors file (header size)")
        try:
            header = json.loads(handle.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InvalidWeightsError(f"{path.name} has a damaged header: {exc}") from exc
    if not isinstance(header, dict):
        raise InvalidWeightsError(f"{path.name} has a damaged header")
    header.pop("__metadata__", None)
    entries = [_entry(path.name, name, info, 8 + length) for name, info in header.items()]
    _check_layout(path.name, entries, 8 + length, size)
    return entries


def _entry(file: str, name: str, info: object, data_start: int) -> _Entry:
    damaged = InvalidWeightsError(f"{file}: tensor {name!r} has a damaged header entry")
    if not isinstance(info, dict):
        raise damaged
    try:
        dtype, item = DTYPES[info["dtype"]]
        shape = tuple(int(size) for size in info["shape"])
        start, end = (int(offset) for offset in info["data_offsets"])
    except (KeyError, TypeError, ValueError) as exc:
        raise damaged from exc
    if any(size < 0 for size in shape) or end - start != element_count(shape) * item:
        raise InvalidWeightsError(f"{file}: tensor {name!r} has a byte range of the wrong size")
    return _Entry(name, dtype, shape, data_start + start, data_start + end)


def _check_layout(file: str, entries: list[_Entry], data_start: int, size: int) -> None:
    """The byte ranges tile the data region exactly: nothing overlaps, nothing is cut off."""
    position = data_start
    for entry in sorted(entries, key=lambda e: (e.start, e.end)):
        if entry.start != position:
            raise InvalidWeightsError(f"{file}: tensor {entry.name!r} overlaps or leaves a gap")
        position = entry.end
    if position != size:
        raise InvalidWeightsError(f"{file} is cut off or has trailing bytes")


def file_digests(path: Path) -> dict[str, TensorDigest]:
    """Each tensor's digest, read straight from the file's byte ranges (blocking)."""
    entries = _header(path)
    digests: dict[str, TensorDigest] = {}
    with path.open("rb") as handle:
        for entry in sorted(entries, key=lambda e: e.start):
            handle.seek(entry.start)
            digest = hashlib.sha256()
            left = entry.end - entry.start
            while left:
                chunk = handle.read(min(left, _READ_BYTES))
                if not chunk:
                    raise InvalidWeightsError(f"{path.name} is cut off")
                digest.update(chunk)
                left -= len(chunk)
            digests[entry.name] = TensorDigest(entry.dtype, entry.shape, digest.hexdigest())
    return digests


def digests_by_file(paths: Iterable[Path]) -> dict[Path, dict[str, TensorDigest]]:
    """Each file's digests; a tensor named in two of the files is refused."""
    by_file: dict[Path, dict[str, TensorDigest]] = {}
    seen: set[str] = set()
    for path in paths:
        digests = by_file[path] = file_digests(path)
        if twice := seen & digests.keys():
            raise InvalidWeightsError(f"tensor {min(twice)!r} appears twice ({path.name})")
        seen |= digests.keys()
    return by_file


def checkpoint_digests(folder: Path) -> dict[str, TensorDigest]:
    by_file = digests_by_file(sorted(folder.glob(WEIGHT_FILE)))
    return {name: digest for digests in by_file.values() for name, digest in digests.items()}


def keep_base_files(checkpoint: Path, target: Path) -> Path:
    """Copy what a checkpoint holds besides its weights (config, tokenizer, processor, chat
    template): a weight update builds a full checkpoint from these and its new tensors."""
    target.mkdir(parents=True, exist_ok=True)
    for path in checkpoint.iterdir():
        if path.is_file() and not path.name.endswith(".safetensors") and path.name != WEIGHT_INDEX:
            shutil.copyfile(path, target / path.name)
    return target


def write_index(folder: Path, weight_map: Mapping[str, str], total_bytes: int) -> None:
    """`model.safetensors.index.json`: how `from_pretrained` finds tensors across files."""
    weight_map = dict(sorted(weight_map.items()))
    index = {"metadata": {"total_size": total_bytes}, "weight_map": weight_map}
    (folder / WEIGHT_INDEX).write_text(json.dumps(index, indent=1), encoding="utf-8")


# ---- where weights may come from ----


def _inside(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


class WeightSources:
    """The folders and store prefixes weight updates may be read from
    (PHONEBUDDY_POLICY_WEIGHT_ROOTS). A local source is resolved, symbolic links included, and
    must lie inside a root folder; a store URL must name a root prefix or lie below it.
    `local:`/`file:` URLs are folders. Nothing is reachable without a root."""

    def __init__(self, roots: Iterable[str]) -> None:
        self.folders: list[Path] = []
        self.prefixes: list[S3Location] = []
        for root in roots:
            location = _parse(root) if ":" in root.split("/", 1)[0] else None
            if isinstance(location, S3Location):
                self.prefixes.append(location)
            else:
                folder = location.root if location else Path(root)
                self.folders.append(folder.expanduser().resolve())

    def require_enabled(self) -> None:
        if not (self.folders or self.prefixes):
            raise WeightSourceForbiddenError(
                "weight updates are off: set PHONEBUDDY_POLICY_WEIGHT_ROOTS to the folders or "
                "store prefixes the weights may come from"
            )

    def resolve(self, source: str) -> Path | S3Location:
        """Where `source` is, if it is allowed; 403 if it is not, whether or not it exists."""
        self.require_enabled()
        location = _parse(source) if ":" in source.split("/", 1)[0] else None
        if isinstance(location, S3Location):
            if not any(_below(location, prefix) for prefix in self.prefixes):
                raise WeightSourceForbiddenError(f"{source} is outside the allowed weight roots")
            return location
        path = location.root if location else Path(source)
        if not path.is_absolute():
            raise InvalidWeightsError(f"{source!r} is not an absolute path or a store URL")
        resolved = path.resolve()
        if not any(_inside(resolved, root) for root in self.folders):
            raise WeightSourceForbiddenError(f"{source} is outside the allowed weight roots")
        if not resolved.exists():
            raise InvalidWeightsError(f"{source} does not exist")
        return resolved

    def local_files(self, source: Path) -> list[Path]:
        """The weight files at `source`: the file itself, or a folder's `*.safetensors`
        (each resolved again: a link inside a root may not lead out of it)."""
        files = [source] if source.is_file() else sorted(source.glob(WEIGHT_FILE))
        resolved = [path.resolve() for path in files]
        for path in resolved:
            if not any(_inside(path, root) for root in self.folders):
                raise WeightSourceForbiddenError(f"{path.name} leads outside the weight roots")
            if not path.is_file():
                raise InvalidWeightsError(f"{path.name} is not a file")
        if not resolved:
            raise InvalidWeightsError(f"{source} holds no {WEIGHT_FILE} files")
        return resolved


def _parse(url: str) -> LocalLocation | S3Location:
    try:
        return parse_store_url(url)
    except StoreConfigError as exc:
        raise InvalidWeightsError(f"{url!r} is not a store URL: {exc}") from exc


def _below(location: S3Location, root: S3Location) -> bool:
    if location.bucket != root.bucket:
        return False
    return (
        not root.prefix
        or location.prefix == root.prefix
        or (location.prefix.startswith(root.prefix.rstrip("/") + "/"))
    )


def copy_local(files: list[Path], target: Path, *, max_bytes: int) -> list[Path]:
    """Copy weight files into the server's own folder (blocking), so that what is checked is
    what loads, whatever happens to the originals; more than `max_bytes` is refused."""
    total = sum(path.stat().st_size for path in files)
    if total > max_bytes:
        raise InvalidWeightsError(f"the files hold {total} bytes; the tensors named need less")
    target.mkdir(parents=True, exist_ok=True)
    copies = []
    for number, path in enumerate(files):
        copy = target / f"part-{number:04d}.safetensors"
        shutil.copyfile(path, copy)
        copies.append(copy)
    return copies


async def download(location: S3Location, target: Path, *, max_bytes: int) -> list[Path]:
    """The `*.safetensors` objects directly under a store prefix, written into `target`
    (credentials from PHONEBUDDY_STORE_*)."""
    url = f"s3://{location.bucket}/{location.prefix}".rstrip("/")
    await asyncio.to_thread(target.mkdir, parents=True, exist_ok=True)
    copies: list[Path] = []
    total = 0
    try:
        async with open_store(StoreSettings(url=url)) as store:
            keys = [k for k in await store.list() if "/" not in k and k.endswith(".safetensors")]
            for number, key in enumerate(sorted(keys)):
                data = await store.get_bytes(key)
                total += len(data)
                if total > max_bytes:
                    raise InvalidWeightsError(f"{url} holds more bytes than the tensors named")
                copy = target / f"part-{number:04d}.safetensors"
                await asyncio.to_thread(copy.write_bytes, data)
                copies.append(copy)
    except (StoreError, ValidationError) as exc:  # ValidationError: no store settings
        raise InvalidWeightsError(f"cannot read {url}: {exc}") from exc
    if not copies:
        raise InvalidWeightsError(f"{url} holds no {WEIGHT_FILE} objects")
    return copies
