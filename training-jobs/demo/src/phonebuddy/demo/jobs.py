"""The training jobs as the demo runs them: `python -m phonebuddy.sft` / `python -m
phonebuddy.rl` as their own processes (as a Kubernetes Job runs them), with a progress bar fed
by their JSON `step` events; their stderr goes to a log file that a failure quotes."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

LOG_TAIL_CHARS = 3000


class JobFailedError(RuntimeError):
    """A training job exited with an error; the message holds the end of its log."""


@dataclass
class JobResult:
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def done(self) -> dict[str, Any]:
        return next(e for e in reversed(self.events) if e.get("event") == "done")

    @property
    def steps(self) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("event") == "step"]


def settings_args(settings: Sequence[str]) -> list[str]:
    return [part for setting in settings for part in ("--set", setting)]


async def run_job(
    module: str,
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    log_file: Path,
    label: str,
    total_steps: int,
    console: Console,
) -> JobResult:
    """Run `python -m <module> <args>` to its end; its JSON events. JobFailedError if it fails."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    result = JobResult()
    with log_file.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", module, *args,
            stdout=asyncio.subprocess.PIPE, stderr=log, env=dict(env),
        )  # fmt: skip
        assert process.stdout is not None
        progress = Progress(
            TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"), TimeElapsedColumn(), console=console,
        )  # fmt: skip
        bar = progress.add_task(label, total=total_steps, detail="")
        try:
            with progress:
                async for line in process.stdout:
                    text = line.decode(errors="replace").strip()
                    if not text.startswith("{"):
                        continue
                    try:
                        event = json.loads(text)
                    except json.JSONDecodeError:
                        continue
                    result.events.append(event)
                    if event.get("event") == "step":
                        progress.update(bar, completed=event["step"], detail=_detail(event))
                code = await process.wait()
        except BaseException:
            if process.returncode is None:
                process.terminate()
                await process.wait()
            raise
    if code != 0 or not any(e.get("event") == "done" for e in result.events):
        tail = (await asyncio.to_thread(log_file.read_text, errors="replace"))[-LOG_TAIL_CHARS:]
        raise JobFailedError(f"{module} exited with {code} (log: {log_file}):\n{tail}")
    return result


def _detail(event: dict[str, Any]) -> str:
    if "loss" in event:
        return f"loss {event['loss']:.3f}"
    score = event.get("critic/score/all")
    return "" if score is None else f"reward {score:.2f}"
