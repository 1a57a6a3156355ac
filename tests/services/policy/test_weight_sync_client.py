"""The weight-sync client: the checksum the policy server computes, retries that end in a clear
error, and the requests the vLLM backend sends (its NCCL broadcast needs a GPU and vLLM: a
recording transport stands in for it, a real local HTTP server records the requests)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import torch
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from safetensors.torch import save_file

from phonebuddy.policy.weight_files import checkpoint_digests, combined_checksum
from phonebuddy.testing import free_port, serve_asgi_in_thread
from phonebuddy.training.weight_sync import (
    TransformersServerSync,
    VllmNcclSync,
    WeightSyncError,
    sync_tensors,
    weights_checksum,
)

TOKEN = "admin-token"


def small_state() -> dict[str, torch.Tensor]:
    generator = torch.Generator().manual_seed(0)
    embed = torch.randn(16, 4, generator=generator)
    return {
        "model.embed.weight": embed,
        "model.norm.weight": torch.ones(4, dtype=torch.bfloat16),
        "model.scale": torch.tensor(0.5),
        "model.steps": torch.arange(3),
        "lm_head.weight": embed,  # tied: the same tensor again
    }


def test_the_checksum_is_the_servers_over_the_written_files(tmp_path: Path) -> None:
    state = small_state()
    tensors = sync_tensors(state)
    assert list(tensors) == ["model.embed.weight", "model.norm.weight", "model.scale",
                             "model.steps"]  # fmt: skip
    save_file(tensors, tmp_path / "model.safetensors")
    assert weights_checksum(state) == combined_checksum(checkpoint_digests(tmp_path))
    changed = {**state, "model.scale": torch.tensor(0.25)}
    assert weights_checksum(changed) != weights_checksum(state)


def test_views_of_one_storage_are_sent_as_copies(tmp_path: Path) -> None:
    fused = torch.arange(8, dtype=torch.float32)
    state = {"q.weight": fused[:4], "k.weight": fused[4:]}
    tensors = sync_tensors(state)
    assert set(tensors) == {"q.weight", "k.weight"}
    save_file(tensors, tmp_path / "model.safetensors")  # safetensors refuses shared memory
    assert weights_checksum(state) == combined_checksum(checkpoint_digests(tmp_path))


# ---- a server that records what it is sent ----


@dataclass
class Recorder:
    """A stand-in policy or vLLM server: records each request; `fail[path]` lists statuses to
    answer (in order) before the route works; `finish_applies` serves the version even when a
    scripted failure answers the finish (an answer lost after the swap)."""

    world_size: int = 1
    fail: dict[str, list[int]] = field(default_factory=dict)
    finish_applies: bool = False
    requests: list[tuple[str, str, dict[str, str], Any]] = field(default_factory=list)
    served: dict[str, Any] = field(
        default_factory=lambda: {"weight_version": "base", "checksum": "0" * 64}
    )
    staged_seen: list[bool] = field(default_factory=list)
    # Like NCCL's rendezvous, each side waits for the other: the HTTP call and the transport
    # must run at the same time, or the test fails.
    init_requested: threading.Event = field(default_factory=threading.Event)
    transport_joined: threading.Event = field(default_factory=threading.Event)
    update_requested: threading.Event = field(default_factory=threading.Event)
    broadcast_started: threading.Event = field(default_factory=threading.Event)

    def paths(self) -> list[str]:
        return [path for _, path, _, _ in self.requests]

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.api_route("/{path:path}", methods=["GET", "POST"])
        def route(path: str, request: Request, body: dict[str, Any] | None = None) -> Any:
            path = f"/{path}"
            self.requests.append((request.method, path, dict(request.query_params), body))
            arrived = {"/init_weight_transfer_engine": self.init_requested,
                       "/update_weights": self.update_requested}  # fmt: skip
            if path in arrived:
                arrived[path].set()
            return self.answer(path, body or {})

        return app

    def answer(self, path: str, body: dict[str, Any]) -> Any:
        if path == "/finish_weight_update" and self.finish_applies:
            self.served = {"weight_version": body.get("weight_version"),
                           "checksum": body.get("checksum")}  # fmt: skip
        if self.fail.get(path):
            status = self.fail[path].pop(0)
            code = "weights_mismatch" if status == 400 else None
            return JSONResponse({"error": {"message": f"scripted {status}", "code": code}}, status)
        if path == "/get_world_size":
            return {"world_size": self.world_size}
        if path == "/init_weight_transfer_engine" and not self.transport_joined.wait(10):
            return JSONResponse({"error": "the trainer never joined"}, 500)
        if path == "/update_weights":
            source = body["update_info"].get("source")
            self.staged_seen.append(source is not None and Path(source).is_file())
            if source is None and not self.broadcast_started.wait(10):
                return JSONResponse({"error": "no broadcast came"}, 500)
        if path == "/finish_weight_update":
            self.served = {"weight_version": body.get("weight_version"),
                           "checksum": body.get("checksum")}  # fmt: skip
        if path == "/weight_info":
            return self.served
        return {"message": "ok"}


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def server(recorder: Recorder) -> Iterator[str]:
    with serve_asgi_in_thread(recorder.app()) as url:
        yield url


def transformers_sync(url: str, staging: Path, **options: Any) -> TransformersServerSync:
    return TransformersServerSync(url, admin_token=TOKEN, staging=staging, backoff_s=0.01,
                                  verify_timeout_s=2, **options)  # fmt: skip


def attempt_paths(count: int) -> list[str]:
    one = ["/pause", "/start_weight_update", "/update_weights", "/finish_weight_update", "/resume"]
    return one * count


# ---- the transformers server's client ----


def test_transformers_sync_retries_then_serves(
    recorder: Recorder, server: str, tmp_path: Path
) -> None:
    recorder.fail["/finish_weight_update"] = [503, 503]
    state = small_state()
    with transformers_sync(server, tmp_path, attempts=3) as client:
        result = client.push(state, "rl-step-1")
    assert (result.version, result.attempts) == ("rl-step-1", 3)
    assert result.checksum == weights_checksum(state)
    sent = [path for path in recorder.paths() if path != "/weight_info"]
    assert sent == attempt_paths(3)
    method, _, query, _ = recorder.requests[0]
    assert (method, query) == ("POST", {"mode": "keep"})
    update = next(body for _, path, _, body in recorder.requests if path == "/update_weights")
    assert update["update_info"]["names"] == list(sync_tensors(state))
    assert update["update_info"]["dtype_names"] == ["float32", "bfloat16", "float32", "int64"]
    assert update["update_info"]["shapes"] == [[16, 4], [4], [], [3]]
    finish = next(body for _, path, _, body in recorder.requests if path == "/finish_weight_update")
    assert finish == {"weight_version": "rl-step-1", "checksum": weights_checksum(state)}
    assert recorder.staged_seen == [True, True, True]  # the file was there when the server read
    assert not any(tmp_path.iterdir())  # and is gone afterwards


def test_transformers_sync_gives_up_after_its_attempts(
    recorder: Recorder, server: str, tmp_path: Path
) -> None:
    recorder.fail["/finish_weight_update"] = [503] * 5
    with (
        transformers_sync(server, tmp_path, attempts=3) as client,
        pytest.raises(WeightSyncError) as failure,
    ):
        client.push(small_state(), "rl-step-2")
    assert failure.value.attempts == 3
    assert failure.value.version == "rl-step-2"
    assert "after 3 attempts" in str(failure.value)
    assert "/finish_weight_update answered 503: scripted 503" in str(failure.value)
    assert recorder.paths().count("/resume") == 3  # never left paused
    assert recorder.served["weight_version"] == "base"


def test_a_refusal_that_cannot_change_is_not_retried(
    recorder: Recorder, server: str, tmp_path: Path
) -> None:
    recorder.fail["/update_weights"] = [400]
    with (
        transformers_sync(server, tmp_path, attempts=3) as client,
        pytest.raises(WeightSyncError, match="answered 400") as failure,
    ):
        client.push(small_state(), "rl-step-3")
    assert failure.value.attempts == 1
    assert recorder.paths() == ["/pause", "/start_weight_update", "/update_weights", "/resume"]


def test_a_sync_whose_answer_was_lost_is_not_sent_again(
    recorder: Recorder, server: str, tmp_path: Path
) -> None:
    recorder.fail["/finish_weight_update"] = [502]
    recorder.finish_applies = True
    with transformers_sync(server, tmp_path, attempts=3) as client:
        result = client.push(small_state(), "rl-step-4")
    assert result.attempts == 2
    assert recorder.paths().count("/start_weight_update") == 1


def test_a_server_that_cannot_be_resumed_stops_the_trainer(
    recorder: Recorder, server: str, tmp_path: Path
) -> None:
    recorder.fail["/resume"] = [500] * 10
    with (
        transformers_sync(server, tmp_path, attempts=3) as client,
        pytest.raises(WeightSyncError, match="stays paused"),
    ):
        client.push(small_state(), "rl-step-5")


def test_an_unreachable_server_fails_after_the_attempts(tmp_path: Path) -> None:
    with (
        transformers_sync(f"http://127.0.0.1:{free_port()}", tmp_path, attempts=2) as client,
        pytest.raises(WeightSyncError, match="after 2 attempts"),
    ):
        client.push(small_state(), "rl-step-6")
    assert not any(tmp_path.iterdir())


def test_chunks_go_in_separate_updates(recorder: Recorder, server: str, tmp_path: Path) -> None:
    with transformers_sync(server, tmp_path, attempts=1, chunk_bytes=64) as client:
        client.push(small_state(), "rl-step-7")
    updates = [body for _, path, _, body in recorder.requests if path == "/update_weights"]
    assert [u["update_info"]["names"] for u in updates] == [
        ["model.embed.weight"], ["model.norm.weight", "model.scale", "model.steps"],
    ]  # fmt: skip
    assert len({u["update_info"]["source"] for u in updates}) == 2


# ---- vLLM ----


@dataclass
class RecordingTransport:
    """Stands in for NCCL (no GPU here): records what it is asked and signals the server."""

    recorder: Recorder
    joined: dict[str, Any] = field(default_factory=dict)
    sent: list[tuple[str, torch.dtype, tuple[int, ...]]] = field(default_factory=list)
    packed: bool | None = None

    def init(self, *, master_address: str, master_port: int, world_size: int) -> None:
        self.joined = {"master_address": master_address, "master_port": master_port,
                       "world_size": world_size}  # fmt: skip
        self.recorder.transport_joined.set()
        if not self.recorder.init_requested.wait(10):
            raise RuntimeError("the server was never asked to join")

    def send(self, tensors: Sequence[tuple[str, torch.Tensor]], *, packed: bool) -> None:
        self.recorder.broadcast_started.set()
        if not self.recorder.update_requested.wait(10):
            raise RuntimeError("the server was never asked to receive")
        self.sent = [(name, tensor.dtype, tuple(tensor.shape)) for name, tensor in tensors]
        self.packed = packed


def test_vllm_sync_sends_vllms_requests_in_order(recorder: Recorder, server: str) -> None:
    recorder.world_size = 2
    transport = RecordingTransport(recorder)
    with VllmNcclSync(server, transport=transport, backoff_s=0.01, verify_timeout_s=2) as client:
        assert client.connect(master_address="10.0.0.5", master_port=29500) == 3
        result = client.push(small_state(), "rl-step-1")
    init_info = {"master_address": "10.0.0.5", "master_port": 29500, "rank_offset": 1,
                 "world_size": 3}  # fmt: skip
    assert transport.joined == {k: init_info[k] for k in ("master_address", "master_port",
                                                           "world_size")}  # fmt: skip
    names = ["model.embed.weight", "model.norm.weight", "model.scale", "model.steps"]
    assert [(method, path, query, body) for method, path, query, body in recorder.requests] == [
        ("GET", "/get_world_size", {}, None),
        ("POST", "/init_weight_transfer_engine", {}, {"init_info": init_info}),
        ("POST", "/pause", {"mode": "keep"}, None),
        ("POST", "/start_weight_update", {}, {"is_checkpoint_format": True}),
        ("POST", "/update_weights", {}, {"update_info": {
            "names": names, "dtype_names": ["float32", "bfloat16", "float32", "int64"],
            "shapes": [[16, 4], [4], [], [3]], "packed": True}}),
        ("POST", "/finish_weight_update", {}, {"weight_version": "rl-step-1"}),
        ("POST", "/resume", {}, None),
        ("GET", "/weight_info", {}, None),
    ]  # fmt: skip
    assert [name for name, _, _ in transport.sent] == names  # broadcast in update_info's order
    assert transport.packed is True
    assert (result.version, result.checksum) == ("rl-step-1", None)


def test_vllm_sync_resumes_and_fails_clearly_when_the_update_fails(
    recorder: Recorder, server: str
) -> None:
    recorder.fail["/update_weights"] = [500]
    transport = RecordingTransport(recorder)
    with VllmNcclSync(server, transport=transport, backoff_s=0.01) as client:
        client.connect(master_address="127.0.0.1", master_port=29500)
        with pytest.raises(WeightSyncError, match="/update_weights answered 500") as failure:
            client.push(small_state(), "rl-step-2")
    assert failure.value.attempts == 1
    assert recorder.paths()[-2:] == ["/update_weights", "/resume"]
    assert "/finish_weight_update" not in recorder.paths()


def test_vllm_sync_needs_connect_first(server: str, recorder: Recorder) -> None:
    with (
        VllmNcclSync(server, transport=RecordingTransport(recorder)) as client,
        pytest.raises(WeightSyncError, match="connect"),
    ):
        client.push(small_state(), "rl-step-3")
    assert recorder.requests == []
