"""Checkpoints in the object store: a Hugging Face model folder plus the trainer's state.

Layout under a job's folder (`<output>/<name>/`):

    checkpoints/step-00000100/model/     config.json, model.safetensors, tokenizer files, chat
                                         template, preprocessor_config.json, generation_config.json
    checkpoints/step-00000100/trainer/   optimizer.pt, trainer.json (step, sampler position,
                                         scheduler), rng-rank00000.pt ... one per rank
    checkpoints/step-00000100/COMPLETE   written last
    latest.json                          moved only after COMPLETE exists

`phonebuddy policy serve --model <output>/<name>/checkpoints/step-00000100/model` and vLLM load the
model folder as it is. A folder without COMPLETE is an interrupted write: resume ignores it and
`latest.json` never points at it.
"""

from __future__ import annotations

import io
import json
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from phonebuddy.training.store_sync import SyncStore, join_url

CHECKPOINTS = "checkpoints"
LATEST = "latest.json"
COMPLETE = "COMPLETE"


class CheckpointError(Exception):
    """A checkpoint that cannot be written or read; the message says which and why."""


def step_prefix(step: int) -> str:
    return f"{CHECKPOINTS}/step-{step:08d}"


@dataclass(frozen=True, slots=True)
class Latest:
    step: int
    prefix: str  # relative to the job folder
    model_url: str


def rng_state() -> dict[str, Any]:
    state: dict[str, Any] = {"python": random.getstate(), "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def tensor_bytes(obj: Any) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


def tensor_load(data: bytes) -> Any:
    return torch.load(io.BytesIO(data), map_location="cpu", weights_only=False)


class CheckpointStore:
    """One job's folder in the store: write checkpoints, find and read the latest one."""

    def __init__(self, output_url: str, name: str) -> None:
        self.url = join_url(output_url, name)
        self.store = SyncStore(self.url)

    def close(self) -> None:
        self.store.close()

    def model_url(self, step: int) -> str:
        return join_url(self.url, step_prefix(step), "model")

    def write_model(self, step: int, folder: Path) -> None:
        self.store.upload_folder(folder, f"{step_prefix(step)}/model")

    def write_trainer_file(self, step: int, name: str, data: bytes) -> None:
        self.store.put(f"{step_prefix(step)}/trainer/{name}", data)

    def complete(self, step: int, *, keep_last: int) -> None:
        """Mark `step` complete, move `latest.json` to it, drop checkpoints beyond `keep_last`."""
        prefix = step_prefix(step)
        self.store.put(f"{prefix}/{COMPLETE}", b"ok\n")
        self.store.put_json(
            LATEST, {"step": step, "prefix": prefix, "model_url": self.model_url(step)}
        )
        for old in self.complete_steps()[:-keep_last]:
            for key in self.store.list(f"{step_prefix(old)}/"):
                self.store.delete(key)

    def complete_steps(self) -> list[int]:
        steps = set()
        for key in self.store.list(f"{CHECKPOINTS}/"):
            parts = key.split("/")
            if len(parts) == 3 and parts[2] == COMPLETE and parts[1].startswith("step-"):
                steps.add(int(parts[1].removeprefix("step-")))
        return sorted(steps)

    def latest(self) -> Latest | None:
        if not self.store.exists(LATEST):
            return None
        try:
            data = self.store.get_json(LATEST)
            latest = Latest(
                step=int(data["step"]), prefix=data["prefix"], model_url=data["model_url"]
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CheckpointError(f"{self.url}/{LATEST} is damaged ({exc})") from exc
        if not self.store.exists(f"{latest.prefix}/{COMPLETE}"):
            raise CheckpointError(f"{self.url}/{LATEST} points at an incomplete checkpoint")
        return latest

    def read_trainer_file(self, step: int, name: str) -> bytes:
        return self.store.get(f"{step_prefix(step)}/trainer/{name}")

    def has_trainer_file(self, step: int, name: str) -> bool:
        return self.store.exists(f"{step_prefix(step)}/trainer/{name}")

    def download_model(self, step: int, folder: Path) -> Path:
        count = self.store.download_folder(f"{step_prefix(step)}/model", folder)
        if count == 0:
            raise CheckpointError(f"{self.model_url(step)} holds no files")
        return folder

    def put_text(self, key: str, text: str) -> None:
        self.store.put(key, text.encode("utf-8"))

    def get_text(self, key: str) -> str | None:
        """The text at `key` in the job's folder, None when there is none."""
        if not self.store.exists(key):
            return None
        return self.store.get(key).decode("utf-8")


def fetch_model_folder(source: str, scratch: Path) -> Path:
    """A local folder for `source`: a folder as it is, a store URL copied into `scratch`."""
    if not source.startswith(("s3://", "local:", "file:")):
        folder = Path(source).expanduser()
        if not folder.is_dir():
            raise CheckpointError(f"the base checkpoint {source} is not a folder")
        return folder
    target = Path(tempfile.mkdtemp(prefix="base-", dir=scratch))
    with SyncStore(source) as store:
        if store.download_folder("", target) == 0:
            raise CheckpointError(f"the base checkpoint {source} holds no files")
    return target


def write_json_bytes(obj: Any) -> bytes:
    return (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode("utf-8")
