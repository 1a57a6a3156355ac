"""PhoneBuddy's trajectory store: runs of episodes in an object store (S3 or a local folder),
screenshots once by content hash, judge records beside their episodes, run manifests, summaries,
and parquet export for training (`phonebuddy.trajectories.export`, needs the `export` extra)."""

from phonebuddy.trajectories.layout import instruction_hash, rubric_key
from phonebuddy.trajectories.manifest import (
    GroupRecord,
    GroupStatus,
    RunManifest,
    RunStatus,
)
from phonebuddy.trajectories.store import TrajectoryError, TrajectoryStore
from phonebuddy.trajectories.stores import RunStores, StoreNotAllowedError
from phonebuddy.trajectories.summary import Rate, RunSummary, rate_of, summarize, wilson

__all__ = [
    "GroupRecord",
    "GroupStatus",
    "Rate",
    "RunManifest",
    "RunStatus",
    "RunStores",
    "RunSummary",
    "StoreNotAllowedError",
    "TrajectoryError",
    "TrajectoryStore",
    "instruction_hash",
    "rate_of",
    "rubric_key",
    "summarize",
    "wilson",
]
