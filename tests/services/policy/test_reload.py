"""Weight reload while serving: atomic, versioned, guarded by the admin token."""

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from openai import AsyncOpenAI, OpenAI

from phonebuddy.policy.app import backend_for, create_app
from phonebuddy.storage import S3Store
from phonebuddy.testing import S3Server, serve_asgi_in_thread

from .conftest import ADMIN_TOKEN, API_KEY, MODEL, settings_for, user_message

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture
def fresh_server(tiny_checkpoint: Path) -> Iterator[str]:
    settings = settings_for(tiny_checkpoint)
    with serve_asgi_in_thread(create_app(settings, backend_for(settings))) as url:
        yield url


def greedy(client: OpenAI) -> tuple[str | None, str]:
    completion = client.chat.completions.create(
        model=MODEL, messages=[user_message("Open Settings.")], max_tokens=6, temperature=0
    )
    return completion.choices[0].message.content, (completion.model_extra or {})["model_version"]


def test_reload_swaps_weights_and_version(fresh_server: str, other_checkpoint: Path) -> None:
    client = OpenAI(base_url=f"{fresh_server}/v1", api_key=API_KEY, max_retries=0)
    text_before, version_before = greedy(client)
    response = httpx.post(
        f"{fresh_server}/admin/reload",
        headers=ADMIN,
        json={"model": str(other_checkpoint)},
        timeout=120,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["previous_version"] == version_before
    assert body["model_version"].startswith("tiny-seed1@")
    text_after, version_after = greedy(client)
    assert version_after == body["model_version"]
    assert text_after != text_before
    metrics = httpx.get(f"{fresh_server}/metrics").text
    assert f'phonebuddy_policy_model_info{{version="{version_after}"}} 1.0' in metrics
    assert version_before not in metrics

    named = httpx.post(
        f"{fresh_server}/admin/reload",
        headers=ADMIN,
        json={"model": str(other_checkpoint), "version": "rl-step-3"},
        timeout=120,
    )
    assert named.json()["model_version"] == "rl-step-3"
    assert greedy(client)[1] == "rl-step-3"


async def test_requests_during_reload_all_succeed(
    fresh_server: str, other_checkpoint: Path
) -> None:
    client = AsyncOpenAI(base_url=f"{fresh_server}/v1", api_key=API_KEY, max_retries=0)

    async def ask(i: int) -> str:
        await asyncio.sleep(i * 0.05)
        completion = await client.chat.completions.create(
            model=MODEL, messages=[user_message(f"step {i}")], max_tokens=3, temperature=0
        )
        return (completion.model_extra or {})["model_version"]

    async with httpx.AsyncClient(timeout=120) as http:
        reload = asyncio.create_task(
            http.post(
                f"{fresh_server}/admin/reload", headers=ADMIN, json={"model": str(other_checkpoint)}
            )
        )
        versions = await asyncio.gather(*(ask(i) for i in range(20)))
        response = await reload
    await client.close()
    assert response.status_code == 200
    assert set(versions) <= {response.json()["previous_version"], response.json()["model_version"]}


def test_failed_reload_keeps_serving_the_old_model(fresh_server: str, tmp_path: Path) -> None:
    client = OpenAI(base_url=f"{fresh_server}/v1", api_key=API_KEY, max_retries=0)
    _, version = greedy(client)
    (tmp_path / "config.json").write_text("{}")
    for target, needle in ((tmp_path / "missing", "does not exist"), (tmp_path, "safetensors")):
        response = httpx.post(
            f"{fresh_server}/admin/reload", headers=ADMIN, json={"model": str(target)}
        )
        assert response.status_code == 400
        assert needle in response.json()["error"]["message"]
    assert greedy(client)[1] == version


def test_reload_needs_the_admin_token(fresh_server: str, tiny_checkpoint: Path) -> None:
    url = f"{fresh_server}/admin/reload"
    body = {"model": str(tiny_checkpoint)}
    assert httpx.post(url, json=body).status_code == 401
    assert httpx.post(url, json=body, headers={"Authorization": "Bearer nope"}).status_code == 401
    assert (
        httpx.post(url, json=body, headers={"Authorization": f"Bearer {API_KEY}"}).status_code
        == 401
    )


def test_reload_is_off_without_an_admin_token(tiny_checkpoint: Path) -> None:
    settings = settings_for(tiny_checkpoint, admin_token=None)
    with serve_asgi_in_thread(create_app(settings, backend_for(settings))) as url:
        response = httpx.post(
            f"{url}/admin/reload", json={"model": str(tiny_checkpoint)}, headers=ADMIN
        )
    assert response.status_code == 403
    assert "PHONEBUDDY_POLICY_ADMIN_TOKEN" in response.json()["error"]["message"]


async def test_reload_from_the_object_store(
    s3_server: S3Server,
    other_checkpoint: Path,
    tiny_checkpoint: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = S3Store(s3_server.endpoint, s3_server.access_key, s3_server.secret_key, "checkpoints",
                    prefix="rl/step-0007", create_bucket=True)  # fmt: skip
    files = {path.name: path.read_bytes() for path in sorted(other_checkpoint.iterdir())}  # noqa: ASYNC240
    async with store:
        for name, data in files.items():
            await store.put_bytes(name, data)
    monkeypatch.setenv("PHONEBUDDY_STORE_ENDPOINT", s3_server.endpoint)
    monkeypatch.setenv("PHONEBUDDY_STORE_ACCESS_KEY", s3_server.access_key)
    monkeypatch.setenv("PHONEBUDDY_STORE_SECRET_KEY", s3_server.secret_key)
    monkeypatch.setenv("PHONEBUDDY_CACHE_DIR", str(tiny_checkpoint.parent / "cache"))
    settings = settings_for(tiny_checkpoint)
    with serve_asgi_in_thread(create_app(settings, backend_for(settings))) as url:
        async with httpx.AsyncClient(timeout=120) as http:
            response = await http.post(
                f"{url}/admin/reload",
                headers=ADMIN,
                json={"model": "s3://checkpoints/rl/step-0007"},
            )
            missing = await http.post(
                f"{url}/admin/reload", headers=ADMIN, json={"model": "s3://checkpoints/rl/none"}
            )
    assert response.status_code == 200, response.text
    assert response.json()["model_version"].startswith("step-0007@")
    local_version = response.json()["model_version"].split("@")[1]
    from phonebuddy.policy.checkpoints import checkpoint_version

    assert checkpoint_version(other_checkpoint).split("@")[1] == local_version
    assert missing.status_code == 400
    assert "holds no files" in missing.json()["error"]["message"]
    assert not any((tiny_checkpoint.parent / "cache" / "checkpoints").iterdir())
