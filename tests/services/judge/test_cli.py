from importlib.metadata import entry_points

import pytest
from typer.testing import CliRunner

from phonebuddy.judge import JudgeConfigError, load_settings
from phonebuddy.judge.cli import app

REQUIRED = {
    "PHONEBUDDY_JUDGE_RUBRIC_BASE_URL": "http://writer.example:8000/v1/",
    "PHONEBUDDY_JUDGE_RUBRIC_MODEL": "big-writer",
    "PHONEBUDDY_JUDGE_GRADER_BASE_URL": "https://grader.example/v1",
    "PHONEBUDDY_JUDGE_GRADER_MODEL": "big-grader",
}


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name, value in REQUIRED.items():
        monkeypatch.setenv(name, value)
    return monkeypatch


def test_settings_come_from_the_environment(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("PHONEBUDDY_JUDGE_GRADER_API_KEY", "sk-secret")
    environment.setenv("PHONEBUDDY_JUDGE_FRAMES", "5")
    settings = load_settings(port=9999)
    assert settings.rubric_base_url == "http://writer.example:8000/v1"  # trailing / dropped
    assert settings.grader_model == "big-grader"
    assert settings.grader_api_key is not None
    assert settings.grader_api_key.get_secret_value() == "sk-secret"
    assert "sk-secret" not in repr(settings)
    assert settings.rubric_api_key is None
    assert (settings.frames, settings.port, settings.host) == (5, 9999, "127.0.0.1")
    assert (settings.max_concurrency, settings.requests_per_minute) == (4, 120.0)


def test_a_missing_required_value_is_one_sentence_naming_the_variable(
    environment: pytest.MonkeyPatch,
) -> None:
    environment.delenv("PHONEBUDDY_JUDGE_GRADER_MODEL")
    with pytest.raises(JudgeConfigError) as raised:
        load_settings()
    message = str(raised.value)
    assert raised.value.variables == ["PHONEBUDDY_JUDGE_GRADER_MODEL"]
    assert message.startswith("The judge cannot start: PHONEBUDDY_JUDGE_GRADER_MODEL is not set")
    assert "base URL and model name of an OpenAI-compatible endpoint" in message
    assert message.endswith(".")
    assert message.count("\n") == 0


def test_every_missing_variable_is_named() -> None:
    with pytest.raises(JudgeConfigError) as raised:
        load_settings()
    assert set(raised.value.variables) == set(REQUIRED)
    assert "PHONEBUDDY_JUDGE_RUBRIC_BASE_URL, PHONEBUDDY_JUDGE_RUBRIC_MODEL," in str(raised.value)


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("PHONEBUDDY_JUDGE_TIMEOUT_S", "-1", "greater than 0"),
        ("PHONEBUDDY_JUDGE_RUBRIC_BASE_URL", "ftp://writer", "not an http:// or https:// URL"),
        ("PHONEBUDDY_JUDGE_FRAMES", "0", "greater than or equal to 1"),
        ("PHONEBUDDY_JUDGE_MAX_CONCURRENCY", "many", "valid integer"),
    ],
)
def test_an_invalid_value_names_its_variable(
    environment: pytest.MonkeyPatch, variable: str, value: str, says: str
) -> None:
    environment.setenv(variable, value)
    with pytest.raises(JudgeConfigError) as raised:
        load_settings()
    assert raised.value.variables == [variable]
    assert f"{variable} is invalid" in str(raised.value)
    assert says in str(raised.value)


def test_backoff_cap_below_the_first_pause_is_refused(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("PHONEBUDDY_JUDGE_BACKOFF_S", "10")
    environment.setenv("PHONEBUDDY_JUDGE_BACKOFF_MAX_S", "1")
    with pytest.raises(JudgeConfigError, match="backoff_max_s must not be smaller"):
        load_settings()


def test_serve_stops_at_start_up_when_a_model_is_not_configured(
    environment: pytest.MonkeyPatch,
) -> None:
    environment.delenv("PHONEBUDDY_JUDGE_RUBRIC_BASE_URL")
    result = CliRunner().invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert "error: The judge cannot start: PHONEBUDDY_JUDGE_RUBRIC_BASE_URL is not set" in (
        result.output
    )


def test_calibrate_stops_on_an_invalid_setting(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("PHONEBUDDY_JUDGE_MAX_RETRIES", "-2")
    result = CliRunner().invoke(app, ["calibrate", "--run", "r", "--store", "local:/tmp/x"])
    assert result.exit_code == 2
    assert "PHONEBUDDY_JUDGE_MAX_RETRIES is invalid" in result.output


def test_calibrate_refuses_a_run_id_that_cannot_be_a_run(
    environment: pytest.MonkeyPatch, tmp_path: pytest.TempPathFactory
) -> None:
    result = CliRunner().invoke(
        app, ["calibrate", "--run", "../etc", "--store", f"local:{tmp_path}"]
    )
    assert result.exit_code == 2
    assert "run id '../etc'" in result.output


def test_the_judge_registers_its_command_and_its_place_in_the_local_stack() -> None:
    (command,) = [e for e in entry_points(group="phonebuddy.cli") if e.name == "judge"]
    assert command.load() is app
    (service,) = [e for e in entry_points(group="phonebuddy.stack") if e.name == "judge"]
    spec = service.load()
    # It judges runs in the stack's store and, for `phonebuddy rollout --out DIR`, in your home.
    assert spec["args"] == ["judge", "serve", "--store-root", "local:~"]
    # After PhoneWorld, whose ground-truth grader the stack's judge uses as its model.
    assert spec["after"] == ["phoneworld", "policy"]
    assert spec["name"] == "judge"
