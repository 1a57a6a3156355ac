import base64
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from phonebuddy.policy.app import backend_for, create_app
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.testing import serve_asgi_in_thread

API_KEY = "test-api-key"
ADMIN_TOKEN = "test-admin-token"
MODEL = "phonebuddy-policy"


@pytest.fixture(scope="session")
def tiny_checkpoint(tiny_seed0: Path) -> Path:
    return tiny_seed0


@pytest.fixture(scope="session")
def other_checkpoint(tiny_seed1: Path) -> Path:
    return tiny_seed1


def settings_for(checkpoint: Path, **overrides: object) -> PolicySettings:
    values: dict[str, object] = {
        "model": str(checkpoint),
        "api_key": API_KEY,
        "admin_token": ADMIN_TOKEN,
        "max_tokens_default": 16,
        "batch_wait_ms": 20.0,
        "max_model_len": 4096,
        "max_n": 8,
        **overrides,
    }
    return PolicySettings(**values)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def server(tiny_checkpoint: Path) -> Iterator[str]:
    """The policy server on the tiny checkpoint, shared by a test module; yields its base URL."""
    settings = settings_for(tiny_checkpoint)
    with serve_asgi_in_thread(create_app(settings, backend_for(settings))) as url:
        yield url


def png_data_uri(
    width: int = 216, height: int = 480, color: tuple[int, int, int] = (20, 90, 160)
) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def user_message(text: str, *images: str) -> dict[str, object]:
    parts: list[dict[str, object]] = [{"type": "text", "text": text}]
    parts += [{"type": "image_url", "image_url": {"url": url}} for url in images]
    return {"role": "user", "content": parts}
