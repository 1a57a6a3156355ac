"""What a trained checkpoint records about its prompts: `phonebuddy.json` in the model folder.

A checkpoint is trained on prompts of one `PromptConfig` (observation mode, element actions...);
rollouts, RL and evaluation that serve it must build the same prompts, so the training jobs write
the setting next to the weights and the jobs that serve a checkpoint read it and refuse a
different one (`phonebuddy.protocol.check_prompt_match`). A base model records nothing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import ValidationError

from phonebuddy.protocol import PromptConfig

RECORD_FILE = "phonebuddy.json"


class RecordError(ValueError):
    """A checkpoint record that cannot be read; the message names the file."""


def record_bytes(prompt: PromptConfig) -> bytes:
    return (json.dumps({"prompt": prompt.model_dump(mode="json")}, indent=2) + "\n").encode()


def write_record(folder: str | os.PathLike[str], prompt: PromptConfig) -> Path:
    path = Path(folder) / RECORD_FILE
    path.write_bytes(record_bytes(prompt))
    return path


def parse_record(data: bytes, where: str) -> PromptConfig:
    try:
        return PromptConfig.model_validate(json.loads(data)["prompt"])
    except (ValueError, KeyError, TypeError, ValidationError) as exc:
        raise RecordError(f"{where} is not a valid checkpoint record: {exc}") from None


def read_record(folder: str | os.PathLike[str]) -> PromptConfig | None:
    """The prompt setting a local checkpoint folder was trained with; None when it records
    none."""
    path = Path(folder) / RECORD_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc}") from None
    return parse_record(data, str(path))
