"""The teacher: a scripted PhoneWorld policy behind the same OpenAI-compatible API.

It is not a model. It answers each step with the next action of the task's oracle solution,
which PhoneWorld computes (`pb.world.oracle` over NATS) from the task's start state, so rollouts
through the whole pipeline produce successes — demonstration data for SFT and an end-to-end test
of the broker, store and judge. It needs to know the task and the step: clients send them in the
request's `metadata` (`phonebuddy_task`: the TaskSpec as JSON, `phonebuddy_step`: the step
index), which `phonebuddy.agent.PolicyClient` does when given a task. Every response names the
model version `phoneworld-oracle`: teacher episodes are never mistaken for a model's.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from PIL import Image
from pydantic import ValidationError

from phonebuddy.agent.client import STEP_KEY, TASK_KEY
from phonebuddy.bus import Bus, BusError, NatsSettings, connect
from phonebuddy.policy.api import ChatCompletionRequest
from phonebuddy.policy.backend import EncodedPrompt, Generation, Sample, SamplingParams
from phonebuddy.policy.errors import BadRequestError, NotReadyError, PolicyError
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.protocol import (
    Action,
    OracleReply,
    OracleRequest,
    TaskSpec,
    Terminate,
    TerminateStatus,
    to_tool_call_json,
)
from phonebuddy.protocol.subjects import WORLD_ORACLE

TEACHER_VERSION = "phoneworld-oracle"
CACHE = 256


class OracleUnavailableError(PolicyError):
    status = 502
    type = "upstream_error"
    code = "oracle_unavailable"


class TeacherBackend:
    name = "teacher"
    uses_checkpoints = False

    def __init__(self, settings: PolicySettings, nats: NatsSettings | None = None) -> None:
        self.settings = settings
        self.nats = nats
        self.bus: Bus | None = None
        self._oracles: OrderedDict[str, tuple[Action, ...]] = OrderedDict()

    @property
    def loaded(self) -> bool:
        return self.bus is not None and self.bus.is_connected

    @property
    def version(self) -> str:
        return TEACHER_VERSION

    @property
    def max_model_len(self) -> int:
        return self.settings.max_model_len

    @property
    def queue_depth(self) -> int:
        return 0

    async def start(self) -> None:
        self.bus = await connect(self.nats or NatsSettings())

    async def close(self) -> None:
        if self.bus is not None:
            await self.bus.close()

    async def reload(self, checkpoint: Path, version: str) -> None:
        raise BadRequestError("the teacher has no weights to reload", param="model")

    async def encode(
        self, request: ChatCompletionRequest, images: list[Image.Image]
    ) -> EncodedPrompt:
        metadata = (request.model_extra or {}).get("metadata") or {}
        if not isinstance(metadata, dict) or TASK_KEY not in metadata or STEP_KEY not in metadata:
            raise BadRequestError(
                f"the teacher needs metadata.{TASK_KEY} (the TaskSpec as JSON) and "
                f"metadata.{STEP_KEY} (the step index); PolicyClient sends them for a task",
                param="metadata",
            )
        try:
            task = TaskSpec.model_validate_json(metadata[TASK_KEY])
            step = int(metadata[STEP_KEY])
        except (ValidationError, ValueError, TypeError) as exc:
            raise BadRequestError(f"unusable teacher metadata: {exc}", param="metadata") from exc
        if step < 0:
            raise BadRequestError(f"{STEP_KEY} must be >= 0, got {step}", param="metadata")
        return EncodedPrompt(prompt_tokens=0, payload=(task, step))

    async def generate(self, prompt: EncodedPrompt, params: SamplingParams, n: int) -> Generation:
        task, step = prompt.payload
        actions = await self._oracle(task)
        action = actions[step] if step < len(actions) else Terminate(status=TerminateStatus.SUCCESS)
        text = f"<tool_call>\n{to_tool_call_json(action)}\n</tool_call>"
        return Generation(
            samples=[Sample(text=text, token_ids=[], finish="stop") for _ in range(n)],
            prompt_tokens=0,
            model_version=TEACHER_VERSION,
        )

    async def _oracle(self, task: TaskSpec) -> tuple[Action, ...]:
        cached = self._oracles.get(task.task_id)
        if cached is not None:
            return cached
        if self.bus is None:
            raise NotReadyError("the teacher is not connected to NATS")
        try:
            reply = await self.bus.request(WORLD_ORACLE, OracleRequest(task=task), OracleReply)
        except BusError as exc:
            raise OracleUnavailableError(f"PhoneWorld's oracle did not answer: {exc}") from exc
        self._oracles[task.task_id] = reply.actions
        if len(self._oracles) > CACHE:
            self._oracles.popitem(last=False)
        return reply.actions
