"""Weight updates while serving, in the shape of vLLM's RL routes, for the transformers backend.

vLLM (`vllm/entrypoints/serve/dev/rlhf/api_router.py`) pauses generation, then takes a weight
update in three calls: `/start_weight_update`, `/update_weights` (once or more, each naming
tensors by `names`, `dtype_names` and `shapes` and sending them over NCCL) and
`/finish_weight_update` (`weight_version`). Here the same calls take the tensors from safetensors
files instead: `update_info.source` is a file or folder inside PHONEBUDDY_POLICY_WEIGHT_ROOTS, or
a store URL below one. Each `update_weights` copies its files into the server's own folder and
checks them against what it names and against the served model (every name known, shapes
equal); `finish_weight_update` needs every tensor of the model, compares the optional `checksum`
with what arrived, then loads the new checkpoint on a side thread while the old weights keep
serving and swaps them between batches (`TransformersBackend.reload`). Whatever fails, the old
weights keep serving under their old version. The served version and checksum are
`GET /weight_info`; `POST /weight_checker` gives a digest per tensor, like vLLM's.

Pausing (`/pause?mode=keep|wait`, `/resume`, `/is_paused`): as in vLLM, new chat requests wait
while paused and go on at `/resume`; one that waits longer than PAUSE_MAX_WAIT_S is answered 503
with `Retry-After`. `wait` returns once the requests already admitted have finished; `keep`
returns at once and lets them finish on the weights they started with (vLLM freezes them
mid-generation instead; a transformers batch cannot be frozen). vLLM's `abort` is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field, model_validator

from phonebuddy.policy.errors import BadRequestError, PolicyError
from phonebuddy.policy.metrics import PolicyMetrics
from phonebuddy.policy.weight_files import (
    FLOATING,
    ITEM_BYTES,
    MAX_HEADER_BYTES,
    InvalidWeightsError,
    TensorDigest,
    WeightSources,
    checkpoint_digests,
    combined_checksum,
    copy_local,
    digests_by_file,
    download,
    element_count,
    keep_base_files,
    write_index,
)
from phonebuddy.storage import S3Location

log = logging.getLogger(__name__)
VERSION_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@+/-]{0,127}$"
PauseMode = Literal["keep", "wait", "abort"]


# ---- errors ----


class PausedError(PolicyError):
    status = 503
    type = "service_unavailable"
    code = "paused"

    def __init__(self, waited_s: float, retry_after_s: int) -> None:
        super().__init__(
            f"the server is paused for a weight update and did not resume within {waited_s:g} s"
        )
        self.headers = {"Retry-After": str(retry_after_s)}


class WeightUpdateStateError(PolicyError):
    status = 409
    type = "conflict_error"
    code = "no_weight_update"


class WeightsMismatchError(BadRequestError):
    """Tensors that do not fit the served model (names, shapes, dtypes): sending the same
    weights again cannot help."""

    code = "weights_mismatch"

    def __init__(self, message: str) -> None:
        super().__init__(message, param="update_info")


class ChecksumMismatchError(BadRequestError):
    code = "checksum_mismatch"

    def __init__(self, expected: str, received: str) -> None:
        super().__init__(
            f"the weights received have checksum {received}, not {expected}; still serving "
            "the old weights",
            param="checksum",
        )


# ---- request and response bodies ----


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class InitRequest(_Body):
    init_info: dict[str, Any]


class StartRequest(_Body):
    is_checkpoint_format: bool = True  # vLLM's; files here are always in checkpoint format


class UpdateInfo(_Body):
    names: list[str] = Field(min_length=1, max_length=1_000_000)
    dtype_names: list[str]
    shapes: list[list[int]]
    source: str = Field(min_length=1, max_length=4096, description="file, folder or store URL")
    packed: bool = False  # vLLM's NCCL option, meaningless for files

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if not len(self.names) == len(self.dtype_names) == len(self.shapes):
            raise ValueError("names, dtype_names and shapes must have one entry per tensor")
        if len(set(self.names)) != len(self.names):
            raise ValueError("a tensor is named twice")
        unknown = sorted(set(self.dtype_names) - ITEM_BYTES.keys())
        if unknown:
            raise ValueError(f"unknown dtype_names {unknown[:3]} (use torch's: float32, ...)")
        if any(len(shape) > 8 or any(size < 0 for size in shape) for shape in self.shapes):
            raise ValueError("a shape has negative sizes or more than 8 dimensions")
        return self

    def declared(self) -> dict[str, tuple[str, tuple[int, ...]]]:
        return {
            name: (dtype, tuple(shape))
            for name, dtype, shape in zip(self.names, self.dtype_names, self.shapes, strict=True)
        }

    def data_bytes(self) -> int:
        return sum(
            element_count(shape) * ITEM_BYTES[dtype]
            for dtype, shape in zip(self.dtype_names, self.shapes, strict=True)
        )


class UpdateRequest(_Body):
    update_info: UpdateInfo


class FinishRequest(_Body):
    weight_version: str | None = Field(default=None, pattern=VERSION_PATTERN)
    checksum: str | None = Field(
        default=None, pattern=r"^[0-9a-f]{64}$", description="refuse unless the weights match"
    )


class FinishResponse(BaseModel):
    message: str = "Weight update finished"
    weight_version: str
    previous_version: str
    checksum: str
    load_seconds: float


class WeightInfo(BaseModel):
    weight_version: str
    checksum: str
    tensors: int


class CheckerRequest(_Body):
    action: Literal["checksum", "compare", "reset"]
    baseline: dict[str, str] | None = None


# ---- pausing ----


class PauseGate:
    """What `/pause` closes: chat requests pass `admitted()` and, while paused, wait in it."""

    def __init__(self, *, max_wait_s: float, on_change: Callable[[bool], None]) -> None:
        self.max_wait_s = max_wait_s
        self._on_change = on_change
        self._resumed = asyncio.Event()
        self._resumed.set()
        self._idle = asyncio.Event()
        self._idle.set()
        self.in_flight = 0
        self.waiting = 0

    @property
    def paused(self) -> bool:
        return not self._resumed.is_set()

    @contextlib.asynccontextmanager
    async def admitted(self) -> AsyncIterator[None]:
        if self.paused:
            self.waiting += 1
            try:
                await asyncio.wait_for(self._resumed.wait(), self.max_wait_s)
            except TimeoutError as exc:
                raise PausedError(self.max_wait_s, max(1, round(self.max_wait_s))) from exc
            finally:
                self.waiting -= 1
        self.in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self.in_flight -= 1
            if not self.in_flight:
                self._idle.set()

    async def pause(self, mode: PauseMode) -> None:
        if mode == "abort":
            raise BadRequestError(
                "mode=abort is not supported: a transformers batch cannot be stopped midway; "
                "use keep (admitted requests finish) or wait (pause returns once they have)",
                param="mode",
            )
        self._resumed.clear()
        self._on_change(True)
        if mode == "wait":
            await self._idle.wait()

    def resume(self) -> None:
        self._resumed.set()
        self._on_change(False)

    def state(self) -> dict[str, object]:
        return {"is_paused": self.paused, "waiting": self.waiting, "in_flight": self.in_flight}


# ---- updates ----


@dataclass(frozen=True, slots=True)
class ServedWeights:
    version: str
    tensors: Mapping[str, TensorDigest]
    base: Path  # the checkpoint's other files: what an update's checkpoint is built from
    checksum: str

    @classmethod
    def of(cls, version: str, tensors: Mapping[str, TensorDigest], base: Path) -> ServedWeights:
        return cls(version, tensors, base, combined_checksum(tensors))

    def info(self) -> WeightInfo:
        return WeightInfo(
            weight_version=self.version, checksum=self.checksum, tensors=len(self.tensors)
        )


@dataclass(slots=True)
class _OpenUpdate:
    folder: Path
    tensors: dict[str, TensorDigest] = field(default_factory=dict)
    weight_map: dict[str, str] = field(default_factory=dict)
    data_bytes: int = 0
    parts: int = 0


class WeightUpdater:
    """The served weights' version and digests, and the one weight update that may be open.
    `reload(folder, version)` is the backend's: it returns once the new weights serve."""

    def __init__(
        self,
        *,
        sources: WeightSources,
        work_dir: Path,
        backend_name: str,
        reload: Callable[[Path, str], Awaitable[None]],
        on_served: Callable[[str], None],
    ) -> None:
        self.sources = sources
        self.work_dir = work_dir
        self.backend_name = backend_name
        self._reload = reload
        self._on_served = on_served
        self.served: ServedWeights | None = None
        self._swap_lock = asyncio.Lock()  # one model load at a time, reloads included
        self._update_lock = asyncio.Lock()
        self._open: _OpenUpdate | None = None
        self._numbers = itertools.count()

    def _folder(self, kind: str) -> Path:
        return self.work_dir / f"{kind}-{next(self._numbers):05d}"

    async def close(self) -> None:
        await asyncio.to_thread(shutil.rmtree, self.work_dir, ignore_errors=True)

    def current(self) -> ServedWeights:
        if self.served is None:
            raise BadRequestError(f"the {self.backend_name} backend has no weights to update")
        return self.served

    async def serve_checkpoint(self, folder: Path, version: str) -> None:
        """Serve a whole checkpoint folder (start-up and `/admin/reload`)."""
        async with self._swap_lock:
            base = self._folder("base")
            try:
                tensors = await asyncio.to_thread(checkpoint_digests, folder)
                await asyncio.to_thread(keep_base_files, folder, base)
                await self._swap(folder, ServedWeights.of(version, tensors, base))
            except BaseException:
                await asyncio.to_thread(shutil.rmtree, base, ignore_errors=True)
                raise

    async def _swap(self, folder: Path, weights: ServedWeights) -> ServedWeights | None:
        previous = self.served
        await self._reload(folder, weights.version)
        self.served = weights
        self._on_served(weights.version)
        if previous is not None and previous.base != weights.base:
            await asyncio.to_thread(shutil.rmtree, previous.base, ignore_errors=True)
        return previous

    async def start(self) -> None:
        async with self._update_lock:
            self.current()
            self.sources.require_enabled()
            if self._open is not None:
                log.warning("a new weight update discards the unfinished one")
                await self._discard()
            folder = self._folder("update")
            await asyncio.to_thread(folder.mkdir, parents=True)
            self._open = _OpenUpdate(folder)

    async def _discard(self) -> None:
        if self._open is not None:
            await asyncio.to_thread(shutil.rmtree, self._open.folder, ignore_errors=True)
            self._open = None

    def _opened(self) -> _OpenUpdate:
        if self._open is None:
            raise WeightUpdateStateError(
                "no weight update is open: POST /start_weight_update first"
            )
        return self._open

    async def update(self, info: UpdateInfo) -> int:
        """Take in the tensors `info` names; returns how many the update holds so far."""
        async with self._update_lock:
            update = self._opened()
            declared = info.declared()
            _check_fit(declared, self.current().tensors, update.tensors)
            location = self.sources.resolve(info.source)
            incoming = update.folder / f"incoming-{update.parts}"
            limit = info.data_bytes() + MAX_HEADER_BYTES
            try:
                if isinstance(location, S3Location):
                    files = await download(location, incoming, max_bytes=limit)
                else:
                    found = await asyncio.to_thread(self.sources.local_files, location)
                    files = await asyncio.to_thread(copy_local, found, incoming, max_bytes=limit)
                by_file = await asyncio.to_thread(digests_by_file, files)
                digests = {n: d for file in by_file.values() for n, d in file.items()}
                _check_files(declared, digests, info.source)
                for number, (path, tensors) in enumerate(by_file.items()):
                    name = f"part-{update.parts:04d}-{number:04d}.safetensors"
                    await asyncio.to_thread(path.rename, update.folder / name)
                    update.weight_map.update(dict.fromkeys(tensors, name))
            finally:
                await asyncio.to_thread(shutil.rmtree, incoming, ignore_errors=True)
            update.tensors.update(digests)
            update.data_bytes += info.data_bytes()
            update.parts += 1
            return len(update.tensors)

    async def finish(self, body: FinishRequest) -> FinishResponse:
        """Serve the open update's weights, or keep the old ones; the update ends either way."""
        async with self._update_lock:
            update = self._opened()
            self._open = None
            try:
                return await self._finish(update, body)
            finally:
                await asyncio.to_thread(shutil.rmtree, update.folder, ignore_errors=True)

    async def _finish(self, update: _OpenUpdate, body: FinishRequest) -> FinishResponse:
        started = time.perf_counter()
        async with self._swap_lock:  # a reload may have come in since the update began
            served = self.current()
            missing = sorted(served.tensors.keys() - update.tensors.keys())
            if missing:
                raise WeightsMismatchError(
                    f"the update holds {len(update.tensors)} of the model's "
                    f"{len(served.tensors)} tensors (missing {missing[:3]}); this server takes "
                    "whole weight sets"
                )
            shapes = {name: (d.dtype, d.shape) for name, d in update.tensors.items()}
            _check_fit(shapes, served.tensors, {})
            received = combined_checksum(update.tensors)
            if body.checksum is not None and body.checksum != received:
                raise ChecksumMismatchError(body.checksum, received)
            version = body.weight_version or f"update@{received[:12]}"
            await asyncio.to_thread(keep_base_files, served.base, update.folder)
            await asyncio.to_thread(write_index, update.folder, update.weight_map,
                                    update.data_bytes)  # fmt: skip
            weights = ServedWeights(version, dict(update.tensors), served.base, received)
            previous = await self._swap(update.folder, weights)
        return FinishResponse(
            weight_version=version,
            previous_version=previous.version if previous else "",
            checksum=received,
            load_seconds=time.perf_counter() - started,
        )


def _check_fit(
    declared: Mapping[str, tuple[str, tuple[int, ...]]],
    served: Mapping[str, TensorDigest],
    received: Mapping[str, TensorDigest],
) -> None:
    """Every tensor named is one of the model's, in its shape, a float for a float; none twice."""
    problems = []
    for name, (dtype, shape) in declared.items():
        current = served.get(name)
        if current is None:
            problems.append(f"{name!r} is not a tensor of the served model")
        elif name in received:
            problems.append(f"{name!r} is already in this update")
        elif shape != current.shape:
            problems.append(f"{name!r} is {list(shape)}, the model's is {list(current.shape)}")
        elif dtype != current.dtype and not {dtype, current.dtype} <= FLOATING:
            problems.append(f"{name!r} is {dtype}, the model's is {current.dtype}")
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise WeightsMismatchError("; ".join(problems[:3]) + more)


def _check_files(
    declared: Mapping[str, tuple[str, tuple[int, ...]]],
    found: Mapping[str, TensorDigest],
    source: str,
) -> None:
    if found.keys() != declared.keys():
        extra = sorted(found.keys() - declared.keys())[:3]
        missing = sorted(declared.keys() - found.keys())[:3]
        raise InvalidWeightsError(
            f"{source} does not hold exactly the tensors named (missing {missing}, "
            f"not named {extra})"
        )
    for name, (dtype, shape) in declared.items():
        if (found[name].dtype, found[name].shape) != (dtype, shape):
            raise InvalidWeightsError(
                f"{source}: {name!r} is {found[name].dtype} {list(found[name].shape)}, "
                f"update_info says {dtype} {list(shape)}"
            )


# ---- routes ----


def weight_routes(
    updater: WeightUpdater, gate: PauseGate, metrics: PolicyMetrics, **router: Any
) -> APIRouter:
    """vLLM's RL routes on this server; `router` goes to APIRouter (dependencies=[auth])."""
    routes = APIRouter(**router)

    @routes.post("/pause")
    async def pause(mode: Annotated[PauseMode, Query()] = "keep") -> dict[str, object]:
        await gate.pause(mode)
        return {"status": "paused", **gate.state()}

    @routes.post("/resume")
    async def resume() -> dict[str, object]:
        gate.resume()
        return {"status": "resumed"}

    @routes.get("/is_paused")
    async def is_paused() -> dict[str, object]:
        return gate.state()

    @routes.get("/get_world_size")
    async def world_size() -> dict[str, int]:
        return {"world_size": 1}  # one process holds the model; no NCCL ranks to join

    @routes.post("/init_weight_transfer_engine")
    async def init_transfer(body: InitRequest) -> dict[str, str]:
        if "master_address" in body.init_info:
            raise BadRequestError(
                "this server takes weights from files or a store (update_info.source), "
                "not over NCCL; that is vLLM's weight transfer",
                param="init_info",
            )
        return {"message": "Weight transfer initialized"}

    @routes.post("/start_weight_update")
    async def start(body: StartRequest | None = None) -> dict[str, str]:
        await updater.start()
        return {"message": "Weight update started"}

    @routes.post("/update_weights")
    async def update(body: UpdateRequest) -> dict[str, object]:
        received = await updater.update(body.update_info)
        return {"message": "Weights updated", "tensors": received}

    @routes.post("/finish_weight_update")
    async def finish(body: FinishRequest | None = None) -> FinishResponse:
        try:
            response = await updater.finish(body or FinishRequest())
        except Exception:
            metrics.weight_updates.labels(outcome="error").inc()
            served = updater.served.version if updater.served else "nothing"
            log.warning("weight update failed; still serving %s", served, exc_info=True)
            raise
        metrics.weight_updates.labels(outcome="ok").inc()
        metrics.weight_load.observe(response.load_seconds)
        return response

    @routes.get("/weight_info")
    async def weight_info() -> WeightInfo:
        return updater.current().info()

    @routes.post("/weight_checker")
    async def weight_checker(body: CheckerRequest) -> dict[str, object]:
        served = updater.current()
        current = {name: digest.sha256 for name, digest in served.tensors.items()}
        if body.action == "checksum":
            return {"checksums": current, "checksum": served.checksum}
        if body.action == "reset":
            raise BadRequestError("reset is not supported here", param="action")
        if body.baseline is None:
            raise BadRequestError("action=compare needs a baseline", param="baseline")
        names = sorted(current.keys() | body.baseline.keys())
        mismatches = [name for name in names if current.get(name) != body.baseline.get(name)]
        return {"match": not mismatches, "mismatches": mismatches}

    return routes
