"""One logging configuration for every PhoneBuddy process: JSON lines in the cluster, plain text
locally. Called once from each `__main__`; modules only use `logging.getLogger(__name__)`."""

from __future__ import annotations

import logging.config
import os
from typing import Any, Literal

LogFormat = Literal["json", "text"]
FORMAT_ENV = "PHONEBUDDY_LOG_FORMAT"
LEVEL_ENV = "PHONEBUDDY_LOG_LEVEL"


def logging_config(*, level: str = "INFO", log_format: LogFormat = "text") -> dict[str, Any]:
    formatters: dict[str, dict[str, Any]] = {
        "text": {"format": "%(asctime)s %(levelname)-7s %(name)s: %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {log_format: formatters[log_format]},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": log_format,
            }
        },
        "root": {"level": level.upper(), "handlers": ["stderr"]},
        # Third-party loggers that are chatty at INFO.
        "loggers": {name: {"level": "WARNING"} for name in ("httpx", "httpcore", "nats")},
    }


def configure_logging(*, level: str | None = None, log_format: LogFormat | None = None) -> None:
    """Configure the root logger; arguments win over the PHONEBUDDY_LOG_* variables."""
    chosen_format = log_format or os.environ.get(FORMAT_ENV, "text")
    if chosen_format not in ("json", "text"):
        raise ValueError(f"{FORMAT_ENV} must be 'json' or 'text', got {chosen_format!r}")
    chosen_level = level or os.environ.get(LEVEL_ENV, "INFO")
    logging.config.dictConfig(logging_config(level=chosen_level, log_format=chosen_format))
