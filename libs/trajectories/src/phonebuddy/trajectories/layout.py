"""Where things live in the object store (one store may hold many runs):

runs/<run_id>/request.json               the rollout request as submitted
runs/<run_id>/manifest.json              RunManifest: groups, their episodes and status
runs/<run_id>/tasks.json                 the TaskSpec of every group, in group order
runs/<run_id>/episodes/<episode_id>.json one Episode (frames by reference)
runs/<run_id>/judge/<episode_id>.json    the judge's record (rubric, per-item results, raw)
blobs/sha256/<2>/<sha256>                screenshots, once per content, shared by all runs
rubrics/<sha256 of instruction>.json     the judge's rubric cache
"""

from __future__ import annotations

import hashlib
import re

RUNS = "runs/"
RUBRICS = "rubrics/"
_ID = re.compile(r"^[A-Za-z0-9_.\-]{1,128}$")


def check_id(value: str, what: str) -> str:
    if not _ID.fullmatch(value) or value in (".", ".."):
        raise ValueError(f"{what} {value!r} must be 1-128 letters, digits, '.', '_' or '-'")
    return value


def run_prefix(run_id: str) -> str:
    return f"{RUNS}{check_id(run_id, 'run id')}/"


def request_key(run_id: str) -> str:
    return run_prefix(run_id) + "request.json"


def manifest_key(run_id: str) -> str:
    return run_prefix(run_id) + "manifest.json"


def tasks_key(run_id: str) -> str:
    return run_prefix(run_id) + "tasks.json"


def episodes_prefix(run_id: str) -> str:
    return run_prefix(run_id) + "episodes/"


def episode_key(run_id: str, episode_id: str) -> str:
    return episodes_prefix(run_id) + check_id(episode_id, "episode id") + ".json"


def judge_key(run_id: str, episode_id: str) -> str:
    return run_prefix(run_id) + "judge/" + check_id(episode_id, "episode id") + ".json"


def failures_prefix(run_id: str) -> str:
    return run_prefix(run_id) + "failed/"


def failure_key(run_id: str, episode_id: str) -> str:
    return failures_prefix(run_id) + check_id(episode_id, "episode id") + ".json"


def instruction_hash(instruction: str) -> str:
    return hashlib.sha256(instruction.encode()).hexdigest()


def rubric_key(instruction: str) -> str:
    return f"{RUBRICS}{instruction_hash(instruction)}.json"
