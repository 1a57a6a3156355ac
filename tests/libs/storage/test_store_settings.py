"""StoreSettings from the environment, and open_store picking the backend for each URL form."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from phonebuddy.storage import (
    LocalStore,
    S3Store,
    StoreConfigError,
    StoreSettings,
    open_store,
    parse_store_url,
)
from phonebuddy.testing import S3Server

SETTINGS = ("URL", "ENDPOINT", "ACCESS_KEY", "SECRET_KEY", "SECURE", "REGION", "CREATE_BUCKET")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in SETTINGS:
        monkeypatch.delenv(f"PHONEBUDDY_STORE_{name}", raising=False)
    return monkeypatch


@pytest.mark.parametrize("form", ["local:{path}", "file://{path}"])
async def test_local_url_opens_a_local_store(tmp_path: Path, form: str) -> None:
    settings = StoreSettings(url=form.format(path=tmp_path / "store"))
    async with open_store(settings) as store:
        assert isinstance(store, LocalStore)
        assert store.root == tmp_path / "store"
        await store.put_json("a.json", {"ok": True})
    assert (tmp_path / "store" / "a.json").is_file()


async def test_local_url_from_the_environment(
    clean_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_env.setenv("PHONEBUDDY_STORE_URL", f"local:{tmp_path}")
    store = open_store()
    assert isinstance(store, LocalStore)
    assert store.root == tmp_path


def test_default_is_a_local_store() -> None:
    assert isinstance(open_store(StoreSettings()), LocalStore)


async def test_s3_url_from_the_environment_opens_the_bucket_and_prefix(
    clean_env: pytest.MonkeyPatch, s3_server: S3Server, s3_bucket: str
) -> None:
    clean_env.setenv("PHONEBUDDY_STORE_URL", f"s3://{s3_bucket}/phonebuddy/dev")
    clean_env.setenv("PHONEBUDDY_STORE_ENDPOINT", s3_server.endpoint)
    clean_env.setenv("PHONEBUDDY_STORE_ACCESS_KEY", s3_server.access_key)
    clean_env.setenv("PHONEBUDDY_STORE_SECRET_KEY", s3_server.secret_key)
    clean_env.setenv("PHONEBUDDY_STORE_SECURE", "false")

    settings = StoreSettings()
    assert s3_server.secret_key not in repr(settings)
    async with open_store(settings) as store:
        assert isinstance(store, S3Store)
        assert (store.bucket, store.prefix) == (s3_bucket, "phonebuddy/dev/")
        await store.put_bytes("x", b"y")
        assert await store.get_bytes("x") == b"y"


def test_settings_are_frozen(tmp_path: Path) -> None:
    settings = StoreSettings(url=f"local:{tmp_path}")
    with pytest.raises(ValidationError):
        settings.url = "local:/elsewhere"  # type: ignore[misc]


@pytest.mark.parametrize("url", ["ftp://host/path", "/just/a/path", "gs://bucket", "local:"])
def test_unsupported_url_is_a_clear_error(url: str) -> None:
    with pytest.raises(ValidationError, match="PHONEBUDDY_STORE_URL"):
        StoreSettings(url=url)


def test_unknown_scheme_lists_the_supported_forms() -> None:
    with pytest.raises(StoreConfigError, match=r"local:/path, file:///path or s3://bucket"):
        parse_store_url("ftp://host/path")


def test_credentials_in_the_url_are_refused_without_echoing_them() -> None:
    with pytest.raises(ValidationError, match="PHONEBUDDY_STORE_ACCESS_KEY") as caught:
        StoreSettings(
            url="s3://AKIAUSER:topsecret@bucket/prefix",
            endpoint="127.0.0.1:9000",
            access_key="k",
            secret_key="s",
        )
    assert "topsecret" not in str(caught.value)


def test_s3_url_needs_endpoint_and_credentials() -> None:
    with pytest.raises(ValidationError) as caught:
        StoreSettings(url="s3://bucket", access_key="k")
    message = str(caught.value)
    assert "PHONEBUDDY_STORE_ENDPOINT" in message
    assert "PHONEBUDDY_STORE_SECRET_KEY" in message
    assert "PHONEBUDDY_STORE_ACCESS_KEY" not in message


def test_s3_url_with_a_malformed_bucket_is_refused() -> None:
    with pytest.raises(ValidationError, match="bucket"):
        StoreSettings(url="s3://Not_A_Bucket", endpoint="h:1", access_key="k", secret_key="s")
