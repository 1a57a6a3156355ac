"""The rollout client: what commands and training jobs use to have the broker run episodes.

    async with RolloutClient.connect(NatsSettings()) as client:
        outcome = await client.run(request, timeout_s=3600)    # submit, then follow
        accepted = await client.submit(request)                # or one step at a time
        outcome = await client.follow(accepted, on_event=print)

A run is followed through the broker's progress events and its status answers, over NATS
alone: knowing a run is done needs no store credentials. Its episodes are then read from the
store at `outcome.store_url` (`phonebuddy.rollouts.report.read_summary`, or a job's own
`TrajectoryStore`).
"""

from phonebuddy.rollouts.client import EventCallback, ProgressCallback, RolloutClient, RunOutcome
from phonebuddy.rollouts.errors import (
    BrokerSilentError,
    BrokerUnavailableError,
    FollowTimeoutError,
    RolloutError,
    RolloutRefusedError,
    UnknownRunError,
)

__all__ = [
    "BrokerSilentError",
    "BrokerUnavailableError",
    "EventCallback",
    "FollowTimeoutError",
    "ProgressCallback",
    "RolloutClient",
    "RolloutError",
    "RolloutRefusedError",
    "RunOutcome",
    "UnknownRunError",
]
