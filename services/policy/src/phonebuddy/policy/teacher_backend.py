"""The teacher: a scripted PhoneWorld policy behind the same OpenAI-compatible API.

It is not a model. It answers each step with the next action of the task's oracle solution,
which PhoneWorld computes (`pb.world.oracle` over NATS) from the task's start state, so rollouts
through the whole pipeline produce successes — demonstration data for SFT and an end-to-end test
of the broker, store and judge. It needs to know which task and which step: clients send only
what identifies them in the request's `metadata` (`phonebuddy_template_id`, `phonebuddy_seed`,
`phonebuddy_language`, `phonebuddy_step`), as `phonebuddy.agent.PolicyClient` does for an
endpoint marked `teacher`; the teacher asks PhoneWorld for the task (`pb.world.tasks`) and its
solution. Every response names the model version `phoneworld-oracle`: teacher episodes are never
mistaken for a model's.
"""

from __future__ import annotations

from collections import OrderedDict

from PIL import Image
from pydantic import ValidationError

from phonebuddy.agent.client import STEP_KEY
from phonebuddy.bus import Bus, BusError, NatsSettings, RemoteError, connect
from phonebuddy.policy.api import ChatCompletionRequest
from phonebuddy.policy.backend import EncodedPrompt, Generation, SamplingParams
from phonebuddy.policy.errors import BadRequestError, NotReadyError, PolicyError
from phonebuddy.policy.scripted import ScriptedBackend
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.protocol import (
    LANGUAGE_KEY,
    SEED_KEY,
    TEMPLATE_KEY,
    Action,
    ErrorCode,
    OracleReply,
    OracleRequest,
    TaskList,
    TaskQuery,
    Terminate,
    TerminateStatus,
)
from phonebuddy.protocol.subjects import WORLD_ORACLE, WORLD_TASKS

TEACHER_VERSION = "phoneworld-oracle"
CACHE = 256
_KEYS = (TEMPLATE_KEY, SEED_KEY, LANGUAGE_KEY, STEP_KEY)


class OracleUnavailableError(PolicyError):
    status = 502
    type = "upstream_error"
    code = "oracle_unavailable"


class TeacherBackend(ScriptedBackend):
    name = "teacher"

    def __init__(self, settings: PolicySettings, nats: NatsSettings | None = None) -> None:
        super().__init__(settings)
        self.nats = nats
        self.bus: Bus | None = None
        self._oracles: OrderedDict[TaskQuery, tuple[Action, ...]] = OrderedDict()

    @property
    def loaded(self) -> bool:
        return self.bus is not None and self.bus.is_connected

    @property
    def version(self) -> str:
        return TEACHER_VERSION

    async def start(self) -> None:
        self.bus = await connect(self.nats or NatsSettings())

    async def close(self) -> None:
        if self.bus is not None:
            await self.bus.close()

    async def encode(
        self, request: ChatCompletionRequest, images: list[Image.Image]
    ) -> EncodedPrompt:
        metadata = (request.model_extra or {}).get("metadata") or {}
        if not isinstance(metadata, dict) or any(key not in metadata for key in _KEYS):
            raise BadRequestError(
                f"the teacher needs metadata.{TEMPLATE_KEY}, .{SEED_KEY} and .{LANGUAGE_KEY} "
                f"(which task) and .{STEP_KEY} (the step index); PolicyClient sends them to an "
                "endpoint marked teacher",
                param="metadata",
            )
        try:
            query = TaskQuery(
                template_ids=(str(metadata[TEMPLATE_KEY]),), seeds=(int(metadata[SEED_KEY]),),
                language=metadata[LANGUAGE_KEY],
            )  # fmt: skip
            step = int(metadata[STEP_KEY])
        except (ValidationError, ValueError, TypeError) as exc:
            raise BadRequestError(f"unusable teacher metadata: {exc}", param="metadata") from exc
        if step < 0:
            raise BadRequestError(f"{STEP_KEY} must be >= 0, got {step}", param="metadata")
        return EncodedPrompt(prompt_tokens=0, payload=(query, step))

    async def generate(self, prompt: EncodedPrompt, params: SamplingParams, n: int) -> Generation:
        query, step = prompt.payload
        actions = await self._oracle(query)
        action = actions[step] if step < len(actions) else Terminate(status=TerminateStatus.SUCCESS)
        return self.answer(action, n)

    async def _oracle(self, query: TaskQuery) -> tuple[Action, ...]:
        """The scripted solution of the task (template, seed, language) names: PhoneWorld
        instantiates the task, then solves it."""
        cached = self._oracles.get(query)
        if cached is not None:
            self._oracles.move_to_end(query)
            return cached
        if self.bus is None:
            raise NotReadyError("the teacher is not connected to NATS")
        try:
            tasks = await self.bus.request(WORLD_TASKS, query, TaskList)
            reply = await self.bus.request(
                WORLD_ORACLE, OracleRequest(task=tasks.tasks[0]), OracleReply
            )
        except RemoteError as exc:
            if exc.code == ErrorCode.UNKNOWN_TASK:
                raise BadRequestError(
                    f"no task {query.template_ids[0]!r}: {exc.message}", param="metadata"
                ) from exc
            raise OracleUnavailableError(f"PhoneWorld's oracle did not answer: {exc}") from exc
        except BusError as exc:
            raise OracleUnavailableError(f"PhoneWorld's oracle did not answer: {exc}") from exc
        self._oracles[query] = reply.actions
        if len(self._oracles) > CACHE:
            self._oracles.popitem(last=False)
        return reply.actions
