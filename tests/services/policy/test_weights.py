"""Weight updates on the transformers server through vLLM-shaped routes: the trainer's weights by
file or store URL, the served version and checksum, refusals that keep the old weights, pausing."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import torch
from safetensors.torch import load_file, save_file
from transformers import AutoModelForImageTextToText

from phonebuddy.policy.app import backend_for, create_app
from phonebuddy.storage import S3Store
from phonebuddy.testing import S3Server, serve_asgi_in_thread
from phonebuddy.training.weight_sync import (
    TransformersServerSync,
    WeightSyncError,
    tensor_sha256,
    update_info,
    weights_checksum,
)

from .conftest import ADMIN_TOKEN, API_KEY, MODEL, settings_for, user_message

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
BUCKET = "weights"
ROUTES = [
    ("POST", "/pause"), ("POST", "/resume"), ("GET", "/is_paused"), ("GET", "/get_world_size"),
    ("POST", "/init_weight_transfer_engine"), ("POST", "/start_weight_update"),
    ("POST", "/update_weights"), ("POST", "/finish_weight_update"), ("GET", "/weight_info"),
    ("POST", "/weight_checker"),
]  # fmt: skip


@pytest.fixture(scope="module")
def roots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("weight-roots")
    yield folder
    shutil.rmtree(folder)  # full-size weight files (~750 MB); the suite's disk is not unbounded


@pytest.fixture(scope="module")
def store_env(s3_server: S3Server) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PHONEBUDDY_STORE_ENDPOINT", s3_server.endpoint)
        patch.setenv("PHONEBUDDY_STORE_ACCESS_KEY", s3_server.access_key)
        patch.setenv("PHONEBUDDY_STORE_SECRET_KEY", s3_server.secret_key)
        yield


@pytest.fixture(scope="module")
def url(tiny_checkpoint: Path, roots: Path, store_env: None) -> Iterator[str]:
    settings = settings_for(tiny_checkpoint, weight_roots=(str(roots), f"s3://{BUCKET}/rl"))
    with serve_asgi_in_thread(create_app(settings, backend_for(settings))) as base:
        yield base


@pytest.fixture(scope="module")
def short_wait_url(tiny_checkpoint: Path) -> Iterator[str]:
    """A server without weight roots whose paused requests give up after half a second."""
    settings = settings_for(tiny_checkpoint, pause_max_wait_s=0.5)
    with serve_asgi_in_thread(create_app(settings, backend_for(settings))) as base:
        yield base


@pytest.fixture(scope="module")
def original(tiny_checkpoint: Path) -> dict[str, torch.Tensor]:
    return load_file(tiny_checkpoint / "model.safetensors")


@pytest.fixture
def sync(url: str, roots: Path) -> Iterator[TransformersServerSync]:
    with TransformersServerSync(
        url, admin_token=ADMIN_TOKEN, staging=roots / "staging", attempts=2, backoff_s=0.1
    ) as client:
        yield client


@pytest.fixture
def serving_original(
    url: str, sync: TransformersServerSync, original: dict[str, torch.Tensor]
) -> str:
    """The server serves the checkpoint's own weights (an earlier test may have changed them)."""
    if weight_info(url)["checksum"] != weights_checksum(original):
        sync.push(original, "original")
    return weight_info(url)["weight_version"]


def perturbed(weights: dict[str, torch.Tensor], seed: int) -> dict[str, torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    return {
        name: tensor + 0.05 * torch.randn(tensor.shape, generator=generator)
        for name, tensor in weights.items()
    }


def weight_info(url: str) -> dict[str, object]:
    response = httpx.get(f"{url}/weight_info", headers=ADMIN)
    assert response.status_code == 200, response.text
    return response.json()


@dataclass(frozen=True)
class Answer:
    version: str
    text: str
    logprobs: list[float]


def ask(url: str) -> Answer:
    response = httpx.post(
        f"{url}/v1/chat/completions",
        headers={"Authorization": f"Bearer {API_KEY}"},
        json={"model": MODEL, "messages": [user_message("Open Settings.")], "max_tokens": 5,
              "temperature": 0, "logprobs": True},
        timeout=120,
    )  # fmt: skip
    assert response.status_code == 200, response.text
    body = response.json()
    choice = body["choices"][0]
    logprobs = [token["logprob"] for token in choice["logprobs"]["content"]]
    return Answer(body["model_version"], choice["message"]["content"], logprobs)


def post(url: str, path: str, body: object = None) -> httpx.Response:
    return httpx.post(f"{url}{path}", headers=ADMIN, json=body, timeout=120)


def update_body(tensors: dict[str, torch.Tensor], source: str | Path) -> dict[str, object]:
    return {"update_info": {**update_info(tensors), "source": str(source)}}


# ---- syncs that land ----


def test_the_served_checksum_is_the_trainers(
    url: str, tiny_checkpoint: Path, serving_original: str
) -> None:
    model = AutoModelForImageTextToText.from_pretrained(tiny_checkpoint)
    state = model.state_dict()
    info = weight_info(url)
    assert info["weight_version"] == serving_original
    assert info["checksum"] == weights_checksum(state)
    assert info["tensors"] == len(state)
    digests = post(url, "/weight_checker", {"action": "checksum"}).json()["checksums"]
    assert digests == {name: tensor_sha256(tensor) for name, tensor in state.items()}
    changed = {**digests, "lm_head.weight": "0" * 64}
    compared = post(url, "/weight_checker", {"action": "compare", "baseline": changed}).json()
    assert compared == {"match": False, "mismatches": ["lm_head.weight"]}
    same = post(url, "/weight_checker", {"action": "compare", "baseline": digests}).json()
    assert same == {"match": True, "mismatches": []}


def test_a_sync_serves_the_new_weights_under_its_version(
    url: str,
    roots: Path,
    sync: TransformersServerSync,
    original: dict[str, torch.Tensor],
    serving_original: str,
) -> None:
    before = ask(url)
    assert before.version == serving_original
    new = perturbed(original, seed=1)
    result = sync.push(new, "rl-step-1")
    assert (result.version, result.checksum, result.attempts) == (
        "rl-step-1", weights_checksum(new), 1,
    )  # fmt: skip
    assert weight_info(url) == {
        "weight_version": "rl-step-1", "checksum": weights_checksum(new), "tensors": len(new)
    }  # fmt: skip
    after = ask(url)
    assert after.version == "rl-step-1"
    assert after.logprobs != before.logprobs
    metrics = httpx.get(f"{url}/metrics").text
    assert 'phonebuddy_policy_model_info{version="rl-step-1"} 1.0' in metrics
    assert 'phonebuddy_policy_weight_updates_total{outcome="ok"}' in metrics
    assert not any((roots / "staging").iterdir())  # the client removes what it staged

    sync.push(original, "rl-step-2")
    back = ask(url)
    assert back.version == "rl-step-2"
    assert (back.text, back.logprobs) == (before.text, before.logprobs)  # the very same weights


def test_a_chunked_sync_through_the_object_store(
    url: str, s3_server: S3Server, store_env: None, original: dict[str, torch.Tensor]
) -> None:
    async def make_bucket() -> None:
        async with S3Store(s3_server.endpoint, s3_server.access_key, s3_server.secret_key,
                           BUCKET, create_bucket=True):  # fmt: skip
            pass

    asyncio.run(make_bucket())
    new = perturbed(original, seed=2)
    with TransformersServerSync(
        url, admin_token=ADMIN_TOKEN, staging=f"s3://{BUCKET}/rl/run-1", chunk_bytes=64 * 2**20
    ) as client:
        result = client.push(new, "rl-step-s3")
        assert client._store is not None
        assert client._store.list() == []  # staged objects removed
    assert result.checksum == weights_checksum(new)
    assert weight_info(url)["weight_version"] == "rl-step-s3"
    assert ask(url).version == "rl-step-s3"


# ---- refusals keep the old weights ----


def test_damaged_missing_or_partial_weights_leave_the_old_weights_serving(
    url: str, roots: Path, sync: TransformersServerSync, original: dict[str, torch.Tensor]
) -> None:
    served = weight_info(url)
    answer = ask(url)
    new = perturbed(original, seed=3)

    def refused(source: Path, tensors: dict[str, torch.Tensor] = new) -> dict[str, str]:
        assert post(url, "/start_weight_update").status_code == 200
        response = post(url, "/update_weights", update_body(tensors, source))
        assert response.status_code == 400, response.text
        return response.json()["error"]

    assert "does not exist" in refused(roots / "missing.safetensors")["message"]
    (roots / "garbage.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00not json")
    assert refused(roots / "garbage.safetensors")["code"] == "invalid_weights"
    save_file(new, roots / "cut.safetensors")
    with (roots / "cut.safetensors").open("r+b") as handle:
        handle.truncate((roots / "cut.safetensors").stat().st_size - 100)
    assert "cut off" in refused(roots / "cut.safetensors")["message"]
    half = dict(list(new.items())[:10])
    save_file(half, roots / "half.safetensors")
    assert "exactly the tensors named" in refused(roots / "half.safetensors")["message"]

    # A bit flipped in the data: the header is fine, the checksum is not.
    save_file(new, roots / "flipped.safetensors")
    with (roots / "flipped.safetensors").open("r+b") as handle:
        handle.seek(-1000, 2)
        byte = handle.read(1)
        handle.seek(-1000, 2)
        handle.write(bytes([byte[0] ^ 0x10]))
    assert post(url, "/start_weight_update").status_code == 200
    assert post(url, "/update_weights", update_body(new, roots / "flipped.safetensors")).is_success
    finish = post(url, "/finish_weight_update",
                  {"weight_version": "flipped", "checksum": weights_checksum(new)})  # fmt: skip
    assert (finish.status_code, finish.json()["error"]["code"]) == (400, "checksum_mismatch")

    # Some of the model's tensors only: a transformers server takes whole weight sets.
    assert post(url, "/start_weight_update").status_code == 200
    assert post(url, "/update_weights", update_body(half, roots / "half.safetensors")).is_success
    finish = post(url, "/finish_weight_update", {"weight_version": "half"})
    assert finish.json()["error"]["code"] == "weights_mismatch"
    assert "missing" in finish.json()["error"]["message"]
    assert post(url, "/finish_weight_update").status_code == 409  # a failed finish ends it

    # A tensor of the wrong shape fails the client at once: another attempt cannot help.
    wrong = {**new, "lm_head.weight": new["lm_head.weight"][:-64]}
    with pytest.raises(WeightSyncError, match=r"lm_head\.weight") as failure:
        sync.push(wrong, "wrong-shape")
    assert failure.value.attempts == 1

    assert weight_info(url) == served
    still = ask(url)
    assert (still.version, still.logprobs) == (answer.version, answer.logprobs)
    assert (
        'phonebuddy_policy_weight_updates_total{outcome="error"}'
        in httpx.get(f"{url}/metrics").text
    )


def test_weights_outside_the_roots_are_refused(
    url: str, roots: Path, tmp_path: Path, original: dict[str, torch.Tensor]
) -> None:
    small = {"lm_head.weight": original["lm_head.weight"]}
    save_file(small, tmp_path / "outside.safetensors")
    (roots / "link.safetensors").unlink(missing_ok=True)
    (roots / "link.safetensors").symlink_to(tmp_path / "outside.safetensors")
    (roots / "folder-link").unlink(missing_ok=True)
    (roots / "folder-link").symlink_to(tmp_path, target_is_directory=True)
    assert post(url, "/start_weight_update").status_code == 200
    for source in (
        tmp_path / "outside.safetensors",
        f"{roots}/../{tmp_path.name}/outside.safetensors",
        roots / "link.safetensors",
        roots / "folder-link",
        tmp_path / "does-not-exist.safetensors",  # refused before its existence is told
        "s3://another-bucket/rl",
        f"s3://{BUCKET}/rl-other",
        "local:/etc",
    ):
        response = post(url, "/update_weights", update_body(small, source))
        assert response.status_code == 403, (source, response.text)
        assert "outside" in response.json()["error"]["message"]
    relative = post(url, "/update_weights", update_body(small, "weights/model.safetensors"))
    assert relative.status_code == 400


def test_update_without_start_is_a_conflict(url: str, original: dict[str, torch.Tensor]) -> None:
    post(url, "/finish_weight_update")  # ends whatever an earlier test left open
    small = {"lm_head.weight": original["lm_head.weight"]}
    response = post(url, "/update_weights", update_body(small, "/nowhere"))
    assert (response.status_code, response.json()["error"]["code"]) == (409, "no_weight_update")


def test_transfer_engine_routes_answer_in_vllms_shape(url: str) -> None:
    assert httpx.get(f"{url}/get_world_size", headers=ADMIN).json() == {"world_size": 1}
    assert post(url, "/init_weight_transfer_engine", {"init_info": {}}).status_code == 200
    nccl = {"init_info": {"master_address": "10.0.0.1", "master_port": 1, "world_size": 2}}
    refused = post(url, "/init_weight_transfer_engine", nccl)
    assert refused.status_code == 400
    assert "NCCL" in refused.json()["error"]["message"]


def test_weight_routes_need_the_admin_token(url: str) -> None:
    for method, path in ROUTES:
        anonymous = httpx.request(method, f"{url}{path}")
        as_client = httpx.request(
            method, f"{url}{path}", headers={"Authorization": f"Bearer {API_KEY}"}
        )
        assert (anonymous.status_code, as_client.status_code) == (401, 401), path


# ---- pausing ----


async def until(admin: httpx.AsyncClient, count: str, request: asyncio.Task[Answer]) -> None:
    """Until `/is_paused` counts a request as `count` (waiting, in_flight) or it is done."""
    for _ in range(3000):
        if (await admin.get("/is_paused")).json()[count] >= 1 or request.done():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"no request became {count}")


async def test_pause_keep_holds_new_requests_until_resume(url: str) -> None:
    async with httpx.AsyncClient(base_url=url, headers=ADMIN, timeout=120) as admin:
        paused = await admin.post("/pause", params={"mode": "keep"})
        assert paused.json()["status"] == "paused"
        assert (await admin.get("/is_paused")).json()["is_paused"] is True
        request = asyncio.create_task(asyncio.to_thread(ask, url))
        await until(admin, "waiting", request)
        assert not request.done()
        assert (await admin.post("/resume")).json() == {"status": "resumed"}
        answer = await request
        assert answer.version
        assert (await admin.get("/is_paused")).json() == {
            "is_paused": False, "waiting": 0, "in_flight": 0
        }  # fmt: skip


async def test_pause_wait_returns_once_admitted_requests_have_finished(url: str) -> None:
    async with httpx.AsyncClient(base_url=url, headers=ADMIN, timeout=120) as admin:
        request = asyncio.create_task(asyncio.to_thread(ask, url))
        await until(admin, "in_flight", request)
        paused = await admin.post("/pause", params={"mode": "wait"})
        try:
            assert paused.json()["in_flight"] == 0
            assert (await request).version
        finally:
            await admin.post("/resume")
        aborted = await admin.post("/pause", params={"mode": "abort"})
        assert aborted.status_code == 400
        assert (await admin.get("/is_paused")).json()["is_paused"] is False


def test_a_request_paused_too_long_is_answered_503_with_retry_after(short_wait_url: str) -> None:
    assert post(short_wait_url, "/pause").status_code == 200
    try:
        response = httpx.post(
            f"{short_wait_url}/v1/chat/completions",
            headers={"Authorization": f"Bearer {API_KEY}"},
            json={"model": MODEL, "messages": [user_message("hi")], "max_tokens": 2},
            timeout=60,
        )
    finally:
        post(short_wait_url, "/resume")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert response.json()["error"]["code"] == "paused"
    assert ask(short_wait_url).version


def test_weight_updates_are_off_without_roots(short_wait_url: str) -> None:
    response = post(short_wait_url, "/start_weight_update")
    assert response.status_code == 403
    assert "PHONEBUDDY_POLICY_WEIGHT_ROOTS" in response.json()["error"]["message"]


def test_reload_sets_the_served_checksum(short_wait_url: str, other_checkpoint: Path) -> None:
    response = post(short_wait_url, "/admin/reload", {"model": str(other_checkpoint)})
    assert response.status_code == 200, response.text
    info = weight_info(short_wait_url)
    assert info["weight_version"] == response.json()["model_version"]
    assert info["checksum"] == weights_checksum(load_file(other_checkpoint / "model.safetensors"))
