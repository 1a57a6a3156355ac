"""Tasks: a template instantiated with parameters, an instruction, a source and a step budget."""

from __future__ import annotations

import hashlib
import json
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, computed_field, model_validator

TRAIN_STEP_BUDGET = 30
EVAL_STEP_BUDGET = 50
MAX_STEP_BUDGET = 200


class Category(StrEnum):
    """The evaluation split a task belongs to."""

    SINGLE_APP = "single_app"
    CROSS_APP = "cross_app"
    MINI_PROGRAM = "mini_program"


class Split(StrEnum):
    """Which side of the train/test split a task is on. PhoneWorld declares it (held-out seeds,
    templates and apps); training jobs refuse test tasks and evaluation refuses train seeds."""

    TRAIN = "train"
    TEST = "test"


# Seeds are split by range, the same for every template: a train job samples from the first
# range, evaluation from the second, so no (template, seed) can be on both sides.
TRAIN_SEEDS: tuple[int, int] = (0, 1_000_000)
TEST_SEEDS: tuple[int, int] = (1_000_000, 2_000_000)


def seed_split(seed: int) -> Split | None:
    """The split a seed is reserved for; None beyond both ranges."""
    if TRAIN_SEEDS[0] <= seed < TRAIN_SEEDS[1]:
        return Split.TRAIN
    if TEST_SEEDS[0] <= seed < TEST_SEEDS[1]:
        return Split.TEST
    return None


class Source(StrEnum):
    """Where an episode runs: a PhoneWorld simulated phone, or a real phone/emulator over ADB."""

    SIM = "sim"
    REAL = "real"


class Instruction(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)


class TaskSpec(BaseModel):
    """One task as scheduled: a template, its sampled parameters, and how to run it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    template_id: str = Field(min_length=1, max_length=128, pattern=r"^[a-z0-9][a-z0-9_.\-]*$")
    seed: int = Field(default=0, ge=0)
    params: dict[str, JsonValue] = Field(default_factory=dict)
    instruction: Instruction
    language: Literal["zh", "en"] = "en"
    category: Category
    apps: tuple[str, ...] = Field(min_length=1)
    source: Source = Source.SIM
    step_budget: int = Field(default=TRAIN_STEP_BUDGET, ge=1, le=MAX_STEP_BUDGET)
    split: Split | None = Field(
        default=None, description="PhoneWorld's split for this task; None: not a PhoneWorld task"
    )

    @model_validator(mode="before")
    @classmethod
    def _drop_derived_task_id(cls, data: Any) -> Any:
        # task_id is serialized for readers of stored JSON but always derived, never trusted.
        if isinstance(data, dict) and "task_id" in data:
            data = {key: value for key, value in data.items() if key != "task_id"}
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def task_id(self) -> str:
        """Stable id of (template, seed, params): the same task always gets the same id."""
        digest = hashlib.sha256(
            json.dumps([self.template_id, self.seed, self.params], sort_keys=True).encode()
        ).hexdigest()[:12]
        return f"{self.template_id}-{self.seed}-{digest}"

    @property
    def instruction_text(self) -> str:
        return self.instruction.zh if self.language == "zh" else self.instruction.en


# Request metadata that names a PhoneWorld task, sent only to scripted stand-ins at the model
# boundary (the teacher, the ground-truth grader), which derive everything else from PhoneWorld.
# A model endpoint gets nothing about the task beyond the prompt: no parameters, no answers.
TEMPLATE_KEY = "phonebuddy_template_id"
SEED_KEY = "phonebuddy_seed"
LANGUAGE_KEY = "phonebuddy_language"


def task_metadata(task: TaskSpec) -> dict[str, str]:
    """What identifies `task` to a PhoneWorld stand-in: nothing of its parameters or answers."""
    return {TEMPLATE_KEY: task.template_id, SEED_KEY: str(task.seed), LANGUAGE_KEY: task.language}
