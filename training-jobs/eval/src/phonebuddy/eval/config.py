"""The evaluation job's configuration: one pydantic model, read from YAML with CLI overrides.

Defaults are the paper's protocol: PhoneWorld's held-out splits (trained templates at test seeds,
held-out templates, held-out apps), step budget 50, greedy decoding, the same prompt and action
space as training. Evaluation never samples train seeds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from phonebuddy.protocol import EVAL_STEP_BUDGET, TEST_SEEDS, PromptConfig, Source
from phonebuddy.protocol.tasks import MAX_STEP_BUDGET
from phonebuddy.training.config import JobConfigFiles, Section, to_yaml

CONFIGS_DIR = Path(__file__).resolve().parent / "configs"
_NAME = r"^[a-z0-9][a-z0-9_.\-]*$"


class PolicyEntry(Section):
    """One policy to evaluate: exactly one of an OpenAI-compatible `url`, a broker `endpoint`
    name, a `checkpoint` (folder or store URL) the job serves itself for the evaluation, or a
    `replay` table (the blind baseline, `phonebuddy.policy.replay_backend`) it serves."""

    name: str = Field(pattern=_NAME, max_length=40, description="its label in the report")
    url: str = Field(default="", description="OpenAI-compatible base URL, e.g. http://h:8000/v1")
    endpoint: str | None = Field(default=None, description="a policy endpoint the broker knows")
    checkpoint: str = Field(default="", description="a Qwen3.5-VL folder or store URL to serve")
    replay: str = Field(default="", description="a blind-replay table (JSON file) to serve")
    model: str = Field(default="", description="the served model name; '' = the server's first")

    @model_validator(mode="after")
    def _one_way(self) -> PolicyEntry:
        ways = sum(
            [bool(self.url), self.endpoint is not None, bool(self.checkpoint), bool(self.replay)]
        )
        if ways != 1:
            raise ValueError(
                f"policy {self.name!r}: give exactly one of url, endpoint, checkpoint, replay"
            )
        return self


class TasksConfig(Section):
    suites: tuple[str, ...] = Field(
        default=("test_seeds", "test_templates", "test_apps"),
        description="PhoneWorld test suites; each is one split in the report",
    )
    templates: tuple[str, ...] = Field(
        default=(), description="template ids instead of suites (reported as split 'templates')"
    )
    seeds: int = Field(default=1, ge=1, le=1000, description="test seeds per template")
    first_seed: int = Field(default=TEST_SEEDS[0], description="the first of those seeds")
    sources: tuple[Source, ...] = Field(
        default=(Source.SIM,), description="sim (PhoneWorld) and/or real (devices, judged)"
    )
    language: Literal["zh", "en"] = "en"

    @model_validator(mode="after")
    def _check(self) -> TasksConfig:
        if not self.suites and not self.templates:
            raise ValueError("name the tasks: tasks.suites or tasks.templates")
        first, last = self.first_seed, self.first_seed + self.seeds
        if first < TEST_SEEDS[0] or last > TEST_SEEDS[1]:
            raise ValueError(
                f"seeds [{first}, {last}) are not all test seeds [{TEST_SEEDS[0]}, "
                f"{TEST_SEEDS[1]}): evaluation never samples train seeds"
            )
        if not self.sources or len(set(self.sources)) != len(self.sources):
            raise ValueError("tasks.sources must name sim and/or real, each once")
        return self

    @property
    def seed_list(self) -> tuple[int, ...]:
        return tuple(range(self.first_seed, self.first_seed + self.seeds))

    def splits(self) -> tuple[str, ...]:
        """The report's split labels: the suites, or 'templates' for template ids."""
        return ("templates",) if self.templates else self.suites


class RolloutConfig(Section):
    step_budget: int = Field(default=EVAL_STEP_BUDGET, ge=1, le=MAX_STEP_BUDGET)
    temperature: float = Field(default=0.0, ge=0, le=2, description="0 = greedy")
    max_tokens: int = Field(default=256, ge=1)
    sampling_seed: int = 0
    prompt: PromptConfig | None = Field(
        default=None,
        description="how prompts show the phone; None = each checkpoint's recorded setting "
        "(phonebuddy.json), else the default (one screenshot). A checkpoint is never run "
        "under a setting other than the one it records",
    )
    concurrency: int = Field(default=32, ge=1, le=1024)
    timeout_s: float = Field(default=6 * 3600.0, gt=0, description="per rollout run")
    store: str | None = Field(default=None, description="trajectory store; None = the broker's")


class ServeConfig(Section):
    """How the job serves `checkpoint` policies: `phonebuddy policy serve` on this machine."""

    backend: Literal["transformers", "vllm"] = "transformers"
    host: str = Field(default="127.0.0.1", description="where the broker can reach it")
    ready_timeout_s: float = Field(default=900.0, gt=0)


class ReportConfig(Section):
    output: str = Field(
        default="local:.phonebuddy/eval",
        description="where report.json and report.html go: local:/path or s3://bucket/prefix",
    )
    viewer_url: str = Field(
        default="http://127.0.0.1:8099",
        description="the trajectory viewer failures link to (phonebuddy trajectories view)",
    )
    bootstrap_samples: int = Field(default=10_000, ge=100)
    failures_listed: int = Field(default=200, ge=0, description="per policy, in the HTML")


class NoveltyConfig(Section):
    """The training runs to compare held-out tasks against (`phonebuddy.eval.novelty`): results
    are then also split into repeats of training situations, new situations and new templates."""

    train_runs: tuple[str, ...] = Field(default=(), description="run ids; () = no split")
    store: str | None = Field(default=None, description="their store; None = PHONEBUDDY_STORE_*")


class EvalConfig(Section):
    name: str = Field(default="eval", pattern=_NAME, max_length=48)
    policies: tuple[PolicyEntry, ...] = ()
    tasks: TasksConfig = TasksConfig()
    rollout: RolloutConfig = RolloutConfig()
    serve: ServeConfig = ServeConfig()
    report: ReportConfig = ReportConfig()
    novelty: NoveltyConfig = NoveltyConfig()

    @model_validator(mode="after")
    def _distinct_names(self) -> EvalConfig:
        names = [policy.name for policy in self.policies]
        if len(set(names)) != len(names):
            raise ValueError(f"policy names must be distinct: {names}")
        return self

    def to_yaml(self) -> str:
        return to_yaml(self)


_FILES = JobConfigFiles(EvalConfig, "eval", CONFIGS_DIR)
load_config = _FILES.load
bundled_config = _FILES.bundled
