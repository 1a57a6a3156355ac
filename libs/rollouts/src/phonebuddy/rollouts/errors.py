"""What the rollout client raises. Each error keeps its data as attributes and builds its
message once."""

from __future__ import annotations

from phonebuddy.protocol import ErrorCode, RunProgress


class RolloutError(Exception):
    """Base of every error of `phonebuddy.rollouts`."""


class RolloutRefusedError(RolloutError):
    """The broker answered with an error: an invalid request, a policy endpoint or store it does
    not know, a run id already used for another request, or a question about a store it may not
    read. `retryable`: the broker says trying again may help (PhoneWorld's catalogue was down)."""

    def __init__(
        self, run_id: str, *, code: ErrorCode, message: str, retryable: bool = False
    ) -> None:
        self.run_id = run_id
        self.code = code
        self.message = message
        self.retryable = retryable
        super().__init__(f"the broker refused run {run_id} ({code.value}): {message}")


class BrokerUnavailableError(RolloutError):
    """No broker took the submission (none listening, or none answered in time)."""

    def __init__(self, run_id: str, reason: str) -> None:
        self.run_id = run_id
        self.reason = reason
        super().__init__(f"no broker took run {run_id}: {reason}")


class UnknownRunError(RolloutError):
    """The broker's store holds no run of that id."""

    def __init__(self, run_id: str, store_url: str | None) -> None:
        self.run_id = run_id
        self.store_url = store_url
        where = f"in {store_url}" if store_url else "in the broker's store"
        super().__init__(f"there is no run {run_id} {where}; was it submitted?")


def _progress_text(progress: RunProgress | None) -> str:
    if progress is None:
        return "no broker has said where it stands"
    return (
        f"{progress.groups_settled}/{progress.groups} groups settled, "
        f"{progress.episodes_stored} episodes stored"
    )


class FollowTimeoutError(RolloutError, TimeoutError):
    """The run was not done within the follower's `timeout_s` (the broker kept answering)."""

    def __init__(self, run_id: str, timeout_s: float, progress: RunProgress | None) -> None:
        self.run_id = run_id
        self.timeout_s = timeout_s
        self.progress = progress
        super().__init__(
            f"run {run_id} is not done after {timeout_s:g} s ({_progress_text(progress)})"
        )


class BrokerSilentError(RolloutError, TimeoutError):
    """While following a run, no broker sent an event or answered a status request for
    `silent_s` seconds: the brokers are gone (or this client's connection is)."""

    def __init__(
        self, run_id: str, silent_s: float, *, connected: bool, progress: RunProgress | None
    ) -> None:
        self.run_id = run_id
        self.silent_s = silent_s
        self.connected = connected
        self.progress = progress
        cause = "is a broker running?" if connected else "this client's NATS connection is down"
        super().__init__(
            f"no broker has said anything about run {run_id} for {silent_s:g} s: no progress "
            f"event, no answer to a status request ({cause}); last known: "
            f"{_progress_text(progress)}"
        )
