"""Push a trainer's weights to the policy server and wait until it serves them.

One interface, `WeightSyncClient.push(state_dict, version)`, two backends:

- `TransformersServerSync` drives PhoneBuddy's transformers server (`phonebuddy-policy`, CPU or
  GPU). It writes the tensors as safetensors into a folder the server can read (inside its
  PHONEBUDDY_POLICY_WEIGHT_ROOTS) or into the object store, then calls the server's vLLM-shaped
  routes: `/pause`, `/start_weight_update`, `/update_weights` (`names`, `dtype_names`, `shapes`
  and the file's `source`), `/finish_weight_update` (`weight_version` and the expected
  `checksum`), `/resume`; then it reads `/weight_info` until the server names the new version
  with the same checksum. Transient failures (connection errors, 5xx, a damaged file, a
  checksum that does not match) are retried with exponential backoff a bounded number of times;
  a refusal that cannot change (wrong token, a tensor the model does not have) fails at once.
- `VllmNcclSync` drives vLLM's own RL routes (`VLLM_SERVER_DEV_MODE=1`, `--weight-transfer-config
  '{"backend": "nccl"}'`) and broadcasts the tensors over NCCL. vLLM's workers join a
  `StatelessProcessGroup` through PyNccl, which a `torch.distributed` process group cannot join,
  so the default transport (`VllmNcclTransport`) is vLLM's own trainer side and the trainer's
  image needs `vllm`. **The NCCL path is untested here** (no GPU, no vLLM): the tests check the
  HTTP requests it sends, in order and with their bodies, against a recording server.

Either way a failed push raises `WeightSyncError` (what failed, after how many attempts), and
the server keeps serving its old weights under their old version. Push the full, unsharded
state dict from one rank (FSDP2: `get_model_state_dict(..., full_state_dict=True)`).

`weights_checksum(state_dict)` is the server's checksum (`phonebuddy.policy.weight_files`):
sha256 over `name \\t dtype \\t shape \\t sha256(raw bytes)` lines in name order, over the tensors
`sync_tensors` keeps (a tensor sharing storage with an earlier one, as tied embeddings do, is
left out, as `save_pretrained` leaves it out).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import shutil
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import httpx
import torch
from safetensors.torch import save, save_file

from phonebuddy.training.store_sync import SyncStore, join_url

log = logging.getLogger(__name__)
PauseMode = Literal["keep", "wait"]
# Refusals that another attempt can cure: a damaged or lost transfer, an update another
# client's start discarded.
RETRYABLE_CODES = frozenset({"invalid_weights", "checksum_mismatch", "no_weight_update"})


class WeightSyncError(Exception):
    """The server does not serve `version`: it still serves its old weights."""

    def __init__(self, version: str, reason: str, *, attempts: int) -> None:
        tries = f" after {attempts} attempt{'s' if attempts != 1 else ''}" if attempts else ""
        super().__init__(f"weight sync to version {version!r} failed{tries}: {reason}")
        self.version = version
        self.reason = reason
        self.attempts = attempts


@dataclass(frozen=True, slots=True)
class SyncResult:
    version: str
    checksum: str | None  # None where the server reports none (vLLM)
    attempts: int
    seconds: float


class WeightSyncClient(Protocol):
    def push(self, state_dict: Mapping[str, torch.Tensor], version: str) -> SyncResult: ...

    def close(self) -> None: ...


# ---- what is sent, and its checksum ----


def _unshared(state_dict: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Drop a tensor that is an earlier one again (tied weights); copy one that only shares
    storage with another (safetensors refuses shared memory)."""
    kept: dict[str, torch.Tensor] = {}
    same: set[tuple[object, ...]] = set()
    storages: set[int] = set()
    for name, tensor in state_dict.items():
        tensor = tensor.detach()
        if not tensor.numel():  # empty tensors share no bytes (and may share a null pointer)
            kept[name] = tensor
            continue
        pointer = tensor.untyped_storage().data_ptr()
        key = (pointer, tensor.storage_offset(), tuple(tensor.shape), tensor.stride(), tensor.dtype)
        if key in same:
            continue
        if pointer in storages:
            tensor = tensor.clone()
        same.add(key)
        storages.add(pointer)
        kept[name] = tensor
    return kept


def sync_tensors(state_dict: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The tensors a sync sends: detached, on the CPU, contiguous, tied duplicates left out."""
    return {name: tensor.cpu().contiguous() for name, tensor in _unshared(state_dict).items()}


def dtype_name(tensor: torch.Tensor) -> str:
    return str(tensor.dtype).removeprefix("torch.")


def tensor_sha256(tensor: torch.Tensor) -> str:
    flat = tensor.detach().cpu().contiguous().reshape(-1).view(torch.uint8)
    return hashlib.sha256(memoryview(flat.numpy())).hexdigest()


def weights_checksum(state_dict: Mapping[str, torch.Tensor]) -> str:
    """The checksum the policy server reports for these weights (`GET /weight_info`)."""
    tensors = sync_tensors(state_dict)
    total = hashlib.sha256()
    for name in sorted(tensors):
        tensor = tensors[name]
        shape = ",".join(map(str, tensor.shape))
        total.update(f"{name}\t{dtype_name(tensor)}\t{shape}\t{tensor_sha256(tensor)}\n".encode())
    return total.hexdigest()


def update_info(tensors: Mapping[str, torch.Tensor]) -> dict[str, Any]:
    """vLLM's `update_info` names: one entry per tensor, in the order they are sent."""
    return {
        "names": list(tensors),
        "dtype_names": [dtype_name(tensor) for tensor in tensors.values()],
        "shapes": [list(tensor.shape) for tensor in tensors.values()],
    }


def chunked(
    tensors: Mapping[str, torch.Tensor], chunk_bytes: int | None
) -> list[dict[str, torch.Tensor]]:
    """Consecutive groups of at most `chunk_bytes` (a bigger tensor alone); None: one group."""
    if chunk_bytes is None:
        return [dict(tensors)]
    chunks: list[dict[str, torch.Tensor]] = [{}]
    size = 0
    for name, tensor in tensors.items():
        nbytes = tensor.numel() * tensor.element_size()
        if chunks[-1] and size + nbytes > chunk_bytes:
            chunks.append({})
            size = 0
        chunks[-1][name] = tensor
        size += nbytes
    return chunks


# ---- talking to a server ----


class ServerRefusedError(Exception):
    def __init__(self, method: str, path: str, status: int, code: str | None, message: str) -> None:
        super().__init__(f"{method} {path} answered {status}: {message}")
        self.status = status
        self.code = code

    @property
    def retryable(self) -> bool:
        return self.status >= 500 or self.status in (408, 409, 429) or self.code in RETRYABLE_CODES


class NotServingError(Exception):
    """The server answered, but does not (yet) serve what was sent."""


def _error_of(response: httpx.Response) -> tuple[str | None, str]:
    """(code, message) from an OpenAI error body, vLLM's `{"error": str}` or `{"detail": str}`."""
    try:
        body = response.json()
    except ValueError:
        return None, response.text[:300] or response.reason_phrase
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        return error.get("code"), str(error.get("message"))
    detail = error or (body.get("detail") if isinstance(body, dict) else None)
    return None, str(detail or body)[:300]


class ServerControl:
    """A policy server's RL routes over HTTP: requests, pausing, waiting for a version."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None,
        timeout_s: float,
        http: httpx.Client | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/").removesuffix("/v1")
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._own_http = http is None
        self.http = http or httpx.Client(timeout=timeout_s)

    def close(self) -> None:
        if self._own_http:
            self.http.close()

    def call(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, str] | None = None,
    ) -> Any:
        response = self.http.request(
            method, f"{self.base_url}{path}", json=json, params=params, headers=self.headers
        )
        if response.is_error:
            code, message = _error_of(response)
            raise ServerRefusedError(method, path, response.status_code, code, message)
        return response.json() if response.content else None

    def call_retrying(self, method: str, path: str, *, attempts: int, backoff_s: float,
                      **kwargs: Any) -> Any:  # fmt: skip
        """`call` again after a connection error or a retryable answer (idempotent routes)."""
        for attempt in range(1, attempts + 1):
            try:
                return self.call(method, path, **kwargs)
            except (httpx.TransportError, ServerRefusedError) as exc:
                if attempt == attempts or not _retryable(exc):
                    raise
                log.warning("%s %s failed (%s); trying again", method, path, exc)
                time.sleep(backoff_s * 2 ** (attempt - 1))
        raise AssertionError("unreachable")

    @contextlib.contextmanager
    def paused(self, mode: PauseMode | None, *, version: str) -> Iterator[None]:
        """Generation paused for the block (`mode` None: not paused); resumed whatever happens,
        and a server that cannot be resumed is an error of its own: it would stall rollouts."""
        if mode is None:
            yield
            return
        self.call_retrying("POST", "/pause", params={"mode": mode}, attempts=3, backoff_s=0.5)
        try:
            yield
        finally:
            try:
                self.call_retrying("POST", "/resume", attempts=5, backoff_s=0.5)
            except (httpx.TransportError, ServerRefusedError) as exc:
                raise WeightSyncError(
                    version, f"the server could not be resumed and stays paused: {exc}",
                    attempts=0,
                ) from exc  # fmt: skip

    def weight_info(self) -> dict[str, Any]:
        info = self.call("GET", "/weight_info")
        return info if isinstance(info, dict) else {}

    def wait_until_serving(
        self, version: str, checksum: str | None, *, timeout_s: float
    ) -> dict[str, Any]:
        """Poll `/weight_info` until it names `version` (and `checksum`, when given)."""
        deadline = time.monotonic() + timeout_s
        while True:
            info = self.weight_info()
            if info.get("weight_version") == version:
                served = info.get("checksum")
                if checksum is not None and served != checksum:
                    raise NotServingError(f"the server serves {version} with checksum {served}, "
                                          f"not {checksum}")  # fmt: skip
                return info
            if time.monotonic() > deadline:
                raise NotServingError(
                    f"the server still serves {info.get('weight_version')!r} after {timeout_s} s"
                )
            time.sleep(0.2)


def _broadcast_failure(exc: Exception, request: Future[Any]) -> str:
    """What went wrong, the server's answer first when it has already refused."""
    refused = request.exception() if request.done() else None
    said = f"{refused}; " if refused is not None else ""
    return f"{said}the broadcast failed: {exc}"


def _retryable(exc: Exception) -> bool:
    if isinstance(exc, ServerRefusedError):
        return exc.retryable
    return isinstance(exc, httpx.TransportError | NotServingError)


def _safe_name(version: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", version)[:80]


# ---- the transformers server ----


class TransformersServerSync:
    """Weights to PhoneBuddy's transformers policy server by file or store URL.

    `staging` is a folder the server can read at the same path (inside its
    PHONEBUDDY_POLICY_WEIGHT_ROOTS) or a store URL (`s3://bucket/prefix`, `local:/path`) below
    one of its roots, read with PHONEBUDDY_STORE_* on both sides. Each push writes its own
    sub-folder and removes it once the server has copied the files in (or given up)."""

    def __init__(
        self,
        base_url: str,
        *,
        admin_token: str,
        staging: str | Path,
        pause_mode: PauseMode | None = "keep",
        attempts: int = 3,
        backoff_s: float = 1.0,
        timeout_s: float = 600.0,
        verify_timeout_s: float = 30.0,
        chunk_bytes: int | None = None,
        http: httpx.Client | None = None,
    ) -> None:
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.server = ServerControl(base_url, token=admin_token, timeout_s=timeout_s, http=http)
        self.staging = str(staging)
        self.pause_mode = pause_mode
        self.attempts = attempts
        self.backoff_s = backoff_s
        self.verify_timeout_s = verify_timeout_s
        self.chunk_bytes = chunk_bytes
        is_url = self.staging.startswith(("s3://", "local:", "file:"))
        self._store = SyncStore(self.staging) if is_url else None

    def close(self) -> None:
        self.server.close()
        if self._store is not None:
            self._store.close()

    def __enter__(self) -> TransformersServerSync:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def push(self, state_dict: Mapping[str, torch.Tensor], version: str) -> SyncResult:
        started = time.monotonic()
        tensors = sync_tensors(state_dict)
        expected = weights_checksum(tensors)
        for attempt in range(1, self.attempts + 1):
            try:
                if attempt == 1 or not self._already_serving(version, expected):
                    self._send(tensors, version, expected)
                self.server.wait_until_serving(version, expected, timeout_s=self.verify_timeout_s)
                return SyncResult(version, expected, attempt, time.monotonic() - started)
            except (httpx.TransportError, ServerRefusedError, NotServingError) as exc:
                if not _retryable(exc):
                    raise WeightSyncError(version, str(exc), attempts=attempt) from exc
                if attempt == self.attempts:
                    raise WeightSyncError(version, str(exc), attempts=attempt) from exc
                delay = self.backoff_s * 2 ** (attempt - 1)
                log.warning("weight sync attempt %d failed (%s); again in %.1f s",
                            attempt, exc, delay)  # fmt: skip
                time.sleep(delay)
        raise AssertionError("unreachable")

    def _already_serving(self, version: str, checksum: str) -> bool:
        """An attempt whose answer was lost may have landed all the same."""
        with contextlib.suppress(httpx.TransportError, ServerRefusedError):
            info = self.server.weight_info()
            return info.get("weight_version") == version and info.get("checksum") == checksum
        return False

    def _send(self, tensors: Mapping[str, torch.Tensor], version: str, checksum: str) -> None:
        folder = f"{_safe_name(version)}-{uuid.uuid4().hex[:8]}"
        sources: list[tuple[str, dict[str, Any]]] = []
        try:
            for number, chunk in enumerate(chunked(tensors, self.chunk_bytes)):
                sources.append((self._write(folder, number, chunk), update_info(chunk)))
            with self.server.paused(self.pause_mode, version=version):
                self.server.call("POST", "/start_weight_update", json={})
                for source, info in sources:
                    body = {"update_info": {**info, "source": source}}
                    self.server.call("POST", "/update_weights", json=body)
                finish = {"weight_version": version, "checksum": checksum}
                self.server.call("POST", "/finish_weight_update", json=finish)
        finally:
            self._remove(folder)

    def _write(self, folder: str, number: int, chunk: Mapping[str, torch.Tensor]) -> str:
        """Write one chunk; returns the `source` the server reads it from."""
        metadata = {"format": "pt"}
        if self._store is not None:
            prefix = f"{folder}/{number:04d}"
            self._store.put(f"{prefix}/model.safetensors", save(dict(chunk), metadata=metadata))
            return join_url(self.staging, prefix)
        path = Path(self.staging) / folder / f"part-{number:04d}.safetensors"
        path.parent.mkdir(parents=True, exist_ok=True)
        save_file(dict(chunk), path, metadata=metadata)
        return str(path.resolve())

    def _remove(self, folder: str) -> None:
        if self._store is None:
            shutil.rmtree(Path(self.staging) / folder, ignore_errors=True)
            return
        try:
            for key in self._store.list(f"{folder}/"):
                self._store.delete(key)
        except Exception:  # a leftover is not worth failing a sync that worked
            log.warning("could not remove the staged weights under %s", folder, exc_info=True)


# ---- vLLM ----


class NcclTransport(Protocol):
    """The trainer's side of vLLM's NCCL weight transfer (rank 0 of the group)."""

    def init(self, *, master_address: str, master_port: int, world_size: int) -> None: ...

    def send(self, tensors: Sequence[tuple[str, torch.Tensor]], *, packed: bool) -> None: ...


def _nccl_engine() -> Any:
    """vLLM's NCCL weight-transfer module: in GPU trainer images only."""
    try:
        from vllm.distributed.weight_transfer import nccl_engine
    except ImportError as exc:
        raise RuntimeError(
            f"the vLLM weight sync needs vllm in the trainer's environment ({exc})"
        ) from exc
    return nccl_engine


class VllmNcclTransport:
    """vLLM's trainer side (`NCCLWeightTransferEngine.trainer_init` / `trainer_send_weights`,
    vLLM 0.17+): what vLLM's workers expect on the wire, packed buffers included. Needs `vllm`
    and a GPU in the trainer; untested here."""

    def __init__(self) -> None:
        self.group: Any = None

    def init(self, *, master_address: str, master_port: int, world_size: int) -> None:
        self.group = _nccl_engine().NCCLWeightTransferEngine.trainer_init(
            {"master_address": master_address, "master_port": master_port,
             "world_size": world_size}
        )  # fmt: skip

    def send(self, tensors: Sequence[tuple[str, torch.Tensor]], *, packed: bool) -> None:
        if self.group is None:
            raise RuntimeError("call init() before send()")
        engine = _nccl_engine()
        engine.NCCLWeightTransferEngine.trainer_send_weights(
            iterator=iter(tensors),
            trainer_args=engine.NCCLTrainerSendWeightsArgs(group=self.group, packed=packed),
        )


class VllmNcclSync:
    """Weights to a vLLM server over NCCL, driven through vLLM's RL HTTP routes.

    `connect(master_address=, master_port=)` once: `GET /get_world_size`, then
    `POST /init_weight_transfer_engine` (`init_info`: master address and port, `rank_offset` 1,
    `world_size` = vLLM's + 1 for the trainer) while the transport joins as rank 0. Each push:
    `POST /pause?mode=keep`, `/start_weight_update`, `/update_weights` (`update_info`: names,
    dtype_names, shapes, packed) while the tensors are broadcast, `/finish_weight_update`
    (`weight_version`), `/resume`, then `GET /weight_info` until it names the version.
    Pause and resume are retried; a failure during the transfer is not (the NCCL group's state
    is unknown): it raises `WeightSyncError` and the trainer stops. vLLM's per-shard weight
    checksums (`/weight_checker`) describe its kernel-format tensors, not the trainer's, so no
    checksum is compared. The NCCL path is untested here (no GPU): only the HTTP requests are."""

    def __init__(
        self,
        base_url: str,
        *,
        transport: NcclTransport | None = None,
        api_key: str | None = None,
        pause_mode: PauseMode | None = "keep",
        packed: bool = True,
        attempts: int = 3,
        backoff_s: float = 1.0,
        timeout_s: float = 600.0,
        verify_timeout_s: float = 60.0,
        http: httpx.Client | None = None,
    ) -> None:
        self.server = ServerControl(base_url, token=api_key, timeout_s=timeout_s, http=http)
        self.transport = transport or VllmNcclTransport()
        self.pause_mode = pause_mode
        self.packed = packed
        self.attempts = attempts
        self.backoff_s = backoff_s
        self.verify_timeout_s = verify_timeout_s
        self._requests = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vllm-sync")
        self.world_size: int | None = None

    def close(self) -> None:
        self._requests.shutdown(wait=False, cancel_futures=True)
        self.server.close()

    def __enter__(self) -> VllmNcclSync:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _retrying(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.server.call_retrying(
            method, path, attempts=self.attempts, backoff_s=self.backoff_s, **kwargs
        )

    def connect(self, *, master_address: str, master_port: int) -> int:
        """Join vLLM's weight-transfer group as rank 0; returns the group's world size."""
        answer = self._retrying("GET", "/get_world_size")
        world_size = int(answer["world_size"]) + 1
        init_info = {"master_address": master_address, "master_port": master_port,
                     "rank_offset": 1, "world_size": world_size}  # fmt: skip
        # vLLM answers once every rank has joined, the trainer included: both run at once.
        pending = self._requests.submit(
            self.server.call, "POST", "/init_weight_transfer_engine", json={"init_info": init_info}
        )
        self.transport.init(
            master_address=master_address, master_port=master_port, world_size=world_size
        )
        pending.result()
        self.world_size = world_size
        return world_size

    def push(self, state_dict: Mapping[str, torch.Tensor], version: str) -> SyncResult:
        if self.world_size is None:
            raise WeightSyncError(version, "connect() first", attempts=0)
        started = time.monotonic()
        tensors = _unshared(state_dict)
        try:
            with self.server.paused(self.pause_mode, version=version):
                self._retrying("POST", "/start_weight_update", json={"is_checkpoint_format": True})
                body = {"update_info": {**update_info(tensors), "packed": self.packed}}
                pending = self._requests.submit(self.server.call, "POST", "/update_weights",
                                                json=body)  # fmt: skip
                try:
                    self.transport.send(list(tensors.items()), packed=self.packed)
                except Exception as exc:  # NCCL's errors are of many kinds; all end the sync
                    raise WeightSyncError(version, _broadcast_failure(exc, pending),
                                          attempts=1) from exc  # fmt: skip
                pending.result()
                self.server.call("POST", "/finish_weight_update", json={"weight_version": version})
            self.server.wait_until_serving(version, None, timeout_s=self.verify_timeout_s)
        except (httpx.TransportError, ServerRefusedError, NotServingError) as exc:
            raise WeightSyncError(version, str(exc), attempts=1) from exc
        return SyncResult(version, None, 1, time.monotonic() - started)
