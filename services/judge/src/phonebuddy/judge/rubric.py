"""The rubric writer: an instruction -> a `Rubric` of 1-8 checkable items, written by the
"rubric" model once per instruction and cached in the object store under
`phonebuddy.trajectories.rubric_key(instruction)` (the instruction's sha256), so that one
instruction is asked for once across episodes, runs and judge processes.

Concurrent requests for the same instruction in one process share one call. A cached rubric that
no longer reads (a schema change, a damaged file) is written anew.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from phonebuddy.judge.llm import ChatClient
from phonebuddy.storage import ObjectNotFoundError, ObjectStore, StoreError
from phonebuddy.trajectories import instruction_hash, rubric_key

log = logging.getLogger(__name__)
MAX_ITEMS = 8

SYSTEM_PROMPT = (
    "You write grading rubrics for tasks that an AI agent carries out on an Android phone. A "
    "rubric is a short list of independent requirements that together mean the task was done "
    "completely and correctly. Another model will later check each item against the agent's "
    "action log and the last screenshots of its episode, so every item must be checkable from "
    "what the screens show and what the agent did or answered."
)


class RubricItem(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", coerce_numbers_to_str=True)

    id: str = Field(min_length=1, max_length=64, description="a short id, e.g. note_saved")
    criterion: str = Field(min_length=1, max_length=1000, description="one checkable requirement")

    @field_validator("id", "criterion", mode="before")
    @classmethod
    def _strip(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value


def _unique_ids(items: tuple[RubricItem, ...] | list[RubricItem]) -> None:
    ids = [item.id for item in items]
    repeated = sorted({item_id for item_id in ids if ids.count(item_id) > 1})
    if repeated:
        raise ValueError(f"rubric item ids must be unique; repeated: {repeated}")


class RubricAnswer(BaseModel):
    """What the rubric model must answer."""

    model_config = ConfigDict(extra="ignore")

    items: list[RubricItem] = Field(min_length=1, max_length=MAX_ITEMS)

    @model_validator(mode="after")
    def _unique(self) -> Self:
        _unique_ids(self.items)
        return self


class Rubric(BaseModel):
    """A rubric as cached in the store."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    instruction: str
    instruction_hash: str
    items: tuple[RubricItem, ...] = Field(min_length=1, max_length=MAX_ITEMS)
    model: str = Field(description="the model that wrote it")
    created_at: datetime
    raw_answer: str = Field(default="", description="the model's answer it came from")

    @model_validator(mode="after")
    def _unique(self) -> Self:
        _unique_ids(self.items)
        return self

    @property
    def ids(self) -> list[str]:
        return [item.id for item in self.items]


def rubric_messages(instruction: str) -> list[dict[str, Any]]:
    schema = json.dumps(RubricAnswer.model_json_schema(), ensure_ascii=False)
    user = (
        f"Task instruction:\n{instruction}\n\n"
        f"Write a rubric of 1 to {MAX_ITEMS} items for this task. Each item states one "
        "requirement: the right app and the right item (contact, note, message...), the exact "
        "values the instruction asks for (names, numbers, text), that the result was really "
        "saved or sent rather than left half done, that nothing the instruction did not ask for "
        "was changed, and, when the instruction asks a question, that the agent's final answer "
        "is correct. Leave out how the agent got there (speed, number of steps). Give each item "
        'a short unique id such as "note_saved".\n\n'
        "Answer with one JSON object and nothing else, matching this JSON schema:\n"
        f"{schema}\n"
        'Example: {"items": [{"id": "note_created", "criterion": "A note titled \'Milk\' '
        'exists in Notes"}]}'
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


@dataclass(frozen=True, slots=True)
class RubricOutcome:
    rubric: Rubric
    cached: bool
    raw_answers: list[str] = field(default_factory=list)
    attempts: list[dict[str, Any]] = field(default_factory=list)
    latency_s: float = 0.0


class RubricWriter:
    """Rubrics by instruction: from the store when cached, else from the rubric model."""

    def __init__(
        self,
        client: ChatClient,
        store: ObjectStore,
        *,
        on_lookup: Callable[[bool], None] | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self._on_lookup = on_lookup
        self._pending: dict[str, asyncio.Task[RubricOutcome]] = {}

    async def rubric_for(self, instruction: str) -> RubricOutcome:
        """The instruction's rubric; `JudgeError` if the model gives no usable one,
        `StoreError` if the store cannot be read."""
        key = instruction_hash(instruction)
        task = self._pending.get(key)
        if task is None:
            task = asyncio.create_task(self._lookup(instruction))
            self._pending[key] = task
            task.add_done_callback(lambda done: self._forget(key, done))
        return await asyncio.shield(task)

    def _forget(self, key: str, task: asyncio.Task[RubricOutcome]) -> None:
        self._pending.pop(key, None)
        if not task.cancelled():
            task.exception()  # retrieved: every waiter has seen it, or none is left to

    async def cached(self, instruction: str) -> Rubric | None:
        key = rubric_key(instruction)
        try:
            rubric: Rubric = await self.store.get_json(key, model=Rubric)
        except ObjectNotFoundError:
            return None
        except ValidationError as exc:
            log.warning("cached rubric %s does not read (%s); writing it anew", key, exc)
            return None
        if rubric.instruction != instruction:  # a hash collision would be news; do not trust it
            log.warning("cached rubric %s belongs to another instruction; writing it anew", key)
            return None
        return rubric

    async def _lookup(self, instruction: str) -> RubricOutcome:
        started = time.perf_counter()
        rubric = await self.cached(instruction)
        if self._on_lookup is not None:
            self._on_lookup(rubric is not None)
        if rubric is not None:
            latency = time.perf_counter() - started
            return RubricOutcome(rubric=rubric, cached=True, latency_s=latency)
        answer = await self.client.structured(
            rubric_messages(instruction), RubricAnswer.model_validate
        )
        rubric = Rubric(
            instruction=instruction,
            instruction_hash=instruction_hash(instruction),
            items=tuple(answer.value.items),
            model=self.client.model,
            created_at=datetime.now(UTC),
            raw_answer=answer.raw_answers[-1],
        )
        try:
            await self.store.put_json(rubric_key(instruction), rubric)
        except StoreError as exc:  # the rubric is still good for this episode
            log.warning("could not cache the rubric for %r: %s", instruction[:60], exc)
        return RubricOutcome(
            rubric=rubric,
            cached=False,
            raw_answers=answer.raw_answers,
            attempts=answer.attempts,
            latency_s=time.perf_counter() - started,
        )
