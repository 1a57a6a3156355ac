"""Memory goes back to the system after large requests (benchmarks/policy_memory.py measures it
on the real server): free heap pages are released once no request is in flight."""

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI, Request
from transformers import AutoTokenizer

from phonebuddy.agent import CHAT_TEMPLATE
from phonebuddy.policy.api import ChatCompletionRequest
from phonebuddy.policy.memory import MemoryReturn, ReturnMemoryMiddleware, release_free_memory
from phonebuddy.testing import serve_asgi

from .conftest import MODEL, png_data_uri, user_message

MB = 2**20


def rss_mb() -> float:
    for line in Path(f"/proc/{os.getpid()}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc")
def test_release_free_memory_gives_freed_heap_pages_back() -> None:
    """100 MB freed between small live allocations stays with the allocator (RSS does not
    drop); releasing it hands it back."""
    big, small = 100_000, 600  # 600 bytes: malloc's, not pymalloc's (and not constants)
    chunks = [(b"x" * big, b"k" * small) for _ in range(1000)]
    keep = [kept for _, kept in chunks]
    del chunks
    before = rss_mb()
    assert release_free_memory()
    after = rss_mb()
    assert before - after > 50, f"RSS {before:.0f} MB -> {after:.0f} MB"
    assert len(keep) == 1000


class App:
    """An ASGI app under `ReturnMemoryMiddleware`: POST /upload reads its body, GET /hold
    stays in flight until `release` is set."""

    def __init__(self, memory: MemoryReturn) -> None:
        self.release = asyncio.Event()
        app = FastAPI()

        @app.post("/upload")
        async def upload(request: Request) -> dict[str, int]:
            return {"bytes": len(await request.body())}

        @app.get("/hold")
        async def hold() -> dict[str, bool]:
            await self.release.wait()
            return {"held": True}

        app.add_middleware(ReturnMemoryMiddleware, memory=memory)
        self.app = app


@pytest.fixture
def memory() -> MemoryReturn:
    return MemoryReturn(threshold=2 * MB, idle_s=0.05)


@pytest.fixture
async def served(memory: MemoryReturn) -> AsyncIterator[tuple[str, App]]:
    app = App(memory)
    async with serve_asgi(app.app) as url:
        yield url, app
        app.release.set()
    await memory.close()


async def settle(memory: MemoryReturn) -> None:
    """Past the end of the last request (the server counts it done after the response), and
    past any release it started."""
    await asyncio.sleep(0.2)
    await memory.settled()


async def test_memory_is_released_after_a_large_request(
    served: tuple[str, App], memory: MemoryReturn
) -> None:
    url, _ = served
    async with httpx.AsyncClient() as http:
        answer = await http.post(f"{url}/upload", content=b"\0" * (3 * MB))
        assert answer.json() == {"bytes": 3 * MB}
        await settle(memory)
        assert memory.trims == 1
        for _ in range(5):  # small requests do not add up to a release each
            await http.post(f"{url}/upload", content=b"\0" * 1000)
        await settle(memory)
        assert memory.trims == 1


async def test_the_release_waits_until_no_request_is_in_flight(
    served: tuple[str, App], memory: MemoryReturn
) -> None:
    url, app = served
    async with httpx.AsyncClient() as http:
        held = asyncio.create_task(http.get(f"{url}/hold"))
        await asyncio.sleep(0.1)
        await http.post(f"{url}/upload", content=b"\0" * (3 * MB))
        await settle(memory)
        assert memory.trims == 0
        app.release.set()
        assert (await held).json() == {"held": True}
        await settle(memory)
        assert memory.trims == 1


async def test_decoded_images_count_too(memory: MemoryReturn) -> None:
    """Bytes noted outside request bodies (the image loader's decodes) trigger a release at
    the end of the request that made them."""
    memory.started()
    memory.note(3 * MB)
    memory.finished()
    await settle(memory)
    assert memory.trims == 1
    await memory.close()


def test_the_chat_template_never_holds_image_urls(tiny_checkpoint: Path) -> None:
    """Jinja keeps what a template renders in reference cycles until the next garbage
    collection: given the image URLs, a request's megabytes of base64 outlived it (the RSS of
    every other burst). The template gets image parts without URLs, and writes the same text."""
    url = png_data_uri()
    messages = [
        {"role": "system", "content": "You operate a phone."},
        user_message("Open Settings.", url, url),
    ]
    request = ChatCompletionRequest.model_validate({"model": MODEL, "messages": messages})
    plain = request.template_messages()
    assert url not in repr(plain)
    tokenizer = AutoTokenizer.from_pretrained(tiny_checkpoint)
    tokenizer.chat_template = tokenizer.chat_template or CHAT_TEMPLATE

    def render(given: list[dict[str, object]]) -> str:
        text = tokenizer.apply_chat_template(given, tokenize=False, add_generation_prompt=True)
        assert isinstance(text, str)
        return text

    assert render(plain) == render(messages)
    assert render(plain).count("<|image_pad|>") == 2
