import json
import logging
import subprocess
import sys

import pytest

from phonebuddy.telemetry import configure_logging

SCRIPT = """
import logging
from phonebuddy.telemetry import configure_logging
configure_logging()
logging.getLogger("phonebuddy.demo").info("leased %s", "pw-3")
"""


def run_with_env(env: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    return result.stderr.strip()


def test_json_lines_format_carries_level_logger_and_rendered_message() -> None:
    line = run_with_env({"PHONEBUDDY_LOG_FORMAT": "json"})
    record = json.loads(line)
    assert record["level"] == "INFO"
    assert record["logger"] == "phonebuddy.demo"
    assert record["message"] == "leased pw-3"
    assert "time" in record


def test_text_format_is_the_local_default() -> None:
    line = run_with_env({})
    assert line.endswith("INFO    phonebuddy.demo: leased pw-3")


def test_level_from_environment_filters_messages() -> None:
    assert run_with_env({"PHONEBUDDY_LOG_LEVEL": "WARNING"}) == ""


def test_unknown_format_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="PHONEBUDDY_LOG_FORMAT must be 'json' or 'text'"):
        configure_logging(log_format="xml")  # type: ignore[arg-type]
    logging.getLogger().handlers.clear()
