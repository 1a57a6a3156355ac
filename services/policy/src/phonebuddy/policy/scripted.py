"""What the policy server's scripted stand-ins share (the teacher, the blind replay): no weights,
no tokenizer, no queue, and one action per request written as a Qwen tool call."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from phonebuddy.policy.backend import Generation, Sample
from phonebuddy.policy.errors import BadRequestError
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.protocol import Action, to_tool_call_json


class ScriptedBackend:
    name: ClassVar[str]
    uses_checkpoints = False

    def __init__(self, settings: PolicySettings) -> None:
        self.settings = settings

    @property
    def max_model_len(self) -> int:
        return self.settings.max_model_len

    @property
    def queue_depth(self) -> int:
        return 0

    async def reload(self, checkpoint: Path, version: str) -> None:
        raise BadRequestError(f"the {self.name} backend has no weights to reload", param="model")

    def answer(self, action: Action, n: int) -> Generation:
        """`n` identical samples of `action` as a tool call, under this backend's version."""
        text = f"<tool_call>\n{to_tool_call_json(action)}\n</tool_call>"
        return Generation(
            samples=[Sample(text=text, token_ids=[], finish="stop") for _ in range(n)],
            prompt_tokens=0,
            model_version=self.version,
        )

    @property
    def version(self) -> str:
        raise NotImplementedError
