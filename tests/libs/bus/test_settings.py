from pathlib import Path

import pytest
from pydantic import ValidationError

from phonebuddy.bus import NatsSettings, redact_url


def test_settings_read_prefixed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONEBUDDY_NATS_URL", "nats://nats.phonebuddy:4222")
    monkeypatch.setenv("PHONEBUDDY_NATS_USER", "judge")
    monkeypatch.setenv("PHONEBUDDY_NATS_PASSWORD", "s3cret")
    monkeypatch.setenv("PHONEBUDDY_NATS_REQUEST_TIMEOUT_S", "2.5")

    settings = NatsSettings()

    assert settings.url == "nats://nats.phonebuddy:4222"
    assert settings.user == "judge"
    assert settings.password is not None
    assert settings.password.get_secret_value() == "s3cret"
    assert "s3cret" not in repr(settings)
    assert settings.request_timeout_s == 2.5
    assert settings.connect_timeout_s == 5
    assert not settings.uses_tls


def test_settings_are_frozen() -> None:
    settings = NatsSettings()
    with pytest.raises(ValidationError):
        settings.url = "nats://elsewhere:4222"  # type: ignore[misc]


def test_tls_key_without_certificate_is_rejected_with_the_variable_name() -> None:
    with pytest.raises(ValidationError, match="PHONEBUDDY_NATS_TLS_CERT_FILE"):
        NatsSettings(tls_key_file=Path("/etc/nats/client.key"))


def test_password_without_user_is_rejected() -> None:
    with pytest.raises(ValidationError, match="PHONEBUDDY_NATS_USER"):
        NatsSettings(password="secret")


def test_redact_url_hides_password_only() -> None:
    assert redact_url("nats://bob:hunter2@nats:4222") == "nats://bob:***@nats:4222"
    assert redact_url("nats://nats:4222") == "nats://nats:4222"


def test_replies_come_to_the_users_own_inbox_unless_a_prefix_is_set() -> None:
    assert NatsSettings(user="broker").reply_prefix == "_INBOX.broker"
    assert NatsSettings().reply_prefix == "_INBOX"
    assert NatsSettings(user="bob@example.com").reply_prefix == "_INBOX"  # not a subject token
    assert NatsSettings(user="broker", inbox_prefix="_R.b").reply_prefix == "_R.b"


@pytest.mark.parametrize("prefix", ["_INBOX.>", "_INBOX.*", "a b", "a..b", ""])
def test_an_inbox_prefix_with_wildcards_or_empty_tokens_is_rejected(prefix: str) -> None:
    with pytest.raises(ValidationError, match="inbox_prefix"):
        NatsSettings(inbox_prefix=prefix)
