"""The blind baseline: each template's most common training path, replayed without reading.

It is not a model and gets nothing a model does not: only the prompt. From the prompt it takes
the step number and the task line, and from the task line only which template it is (the
training instruction it is most similar to); it then answers that template's most common
successful training path, action by action, whatever the screen or the instruction's values say
(`terminate(failure)` past its end). A trained model that does not beat it has not learned to
read. The table (`--model replay.json`) is `phonebuddy.protocol.replay.build_replay_table` of a
training run's episodes.
"""

from __future__ import annotations

import asyncio
import difflib
import re
from collections.abc import Sequence
from pathlib import Path

from PIL import Image
from pydantic import ValidationError

from phonebuddy.policy.api import ChatCompletionRequest
from phonebuddy.policy.backend import EncodedPrompt, Generation, SamplingParams
from phonebuddy.policy.errors import BadRequestError
from phonebuddy.policy.scripted import ScriptedBackend
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.protocol import Terminate, TerminateStatus
from phonebuddy.protocol.replay import ReplayTable

REPLAY_VERSION = "blind-replay"
_TASK_LINE = re.compile(r"^Task: (.+)$", re.MULTILINE)
_STEP = re.compile(r"\(step (\d+)\)")


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


class ReplayBackend(ScriptedBackend):
    name = "replay"

    def __init__(self, settings: PolicySettings) -> None:
        super().__init__(settings)
        self.table: ReplayTable | None = None

    @property
    def loaded(self) -> bool:
        return self.table is not None

    @property
    def version(self) -> str:
        return REPLAY_VERSION

    async def start(self) -> None:
        path = Path(self.settings.model)
        try:
            data = await asyncio.to_thread(path.read_bytes)
            self.table = ReplayTable.model_validate_json(data)
        except (OSError, ValidationError) as exc:
            raise ValueError(f"{path} is not a replay table: {exc}") from None
        if not self.table.templates:
            raise ValueError(f"{path} holds no template paths")

    async def close(self) -> None:
        pass

    def template_of(self, instruction: str) -> str:
        assert self.table is not None
        return max(
            self.table.templates,
            key=lambda template: max(
                difflib.SequenceMatcher(None, instruction, known, autojunk=False).ratio()
                for known in self.table.templates[template].instructions  # type: ignore[union-attr]
            ),
        )

    async def encode(
        self, request: ChatCompletionRequest, images: list[Image.Image]
    ) -> EncodedPrompt:
        users = [m for m in request.model_dump()["messages"] if m.get("role") == "user"]
        text = _text(users[-1].get("content")) if users else ""
        task, step = _TASK_LINE.search(text), _STEP.search(text)
        if task is None or step is None:
            raise BadRequestError(
                "the replay baseline reads the prompt's 'Task: ...' line and '(step N)'; this "
                "prompt has neither: is it a PhoneBuddy harness prompt?",
                param="messages",
            )
        return EncodedPrompt(
            prompt_tokens=0, payload=(self.template_of(task.group(1)), int(step.group(1)) - 1)
        )

    async def generate(self, prompt: EncodedPrompt, params: SamplingParams, n: int) -> Generation:
        assert self.table is not None
        template, step = prompt.payload
        path = self.table.templates[template].actions
        action = path[step] if step < len(path) else Terminate(status=TerminateStatus.FAILURE)
        return self.answer(action, n)
