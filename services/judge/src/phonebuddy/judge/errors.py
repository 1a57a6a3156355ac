"""What the judge raises. Each exception keeps its data and builds its message once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class JudgeError(Exception):
    """No usable answer from a model (timeouts, HTTP errors, answers that never validated), or
    nothing to grade with (a screenshot missing from the store). `stage` is "rubric" or
    "grading"; `attempts` describes every call made; `raw_answers` are the model's texts."""

    def __init__(
        self,
        stage: str,
        reason: str,
        *,
        attempts: Sequence[dict[str, Any]] = (),
        raw_answers: Sequence[str] = (),
    ) -> None:
        self.stage = stage
        self.reason = reason
        self.attempts = list(attempts)
        self.raw_answers = list(raw_answers)
        tries = f" after {len(self.attempts)} call(s)" if self.attempts else ""
        super().__init__(f"{stage} failed{tries}: {reason}")


class JudgeConfigError(ValueError):
    """A judge setting is missing or invalid; the message is one sentence naming the
    variable(s)."""

    def __init__(self, variables: Sequence[str], message: str) -> None:
        self.variables = list(variables)
        super().__init__(message)
