"""Stored trajectories -> SFT examples: the exact prompt a rollout sent, plus the tool call.

An example is built with `build_prompt` from the same task, earlier steps and observation the
rollout had, so training sees exactly the prompt rollouts send; the target is the step's action
as an assistant tool call, in the form `parse_output` reads back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from phonebuddy.agent.chat_format import render_completion
from phonebuddy.agent.messages import ChatMessage, FunctionCall, ToolCall
from phonebuddy.agent.prompt import ROLLOUT_ENABLE_THINKING, Prompt, PromptConfig, build_prompt
from phonebuddy.protocol import TOOL_NAME, Action, Episode, Step, TaskSpec, to_arguments


class UntrainableStepError(ValueError):
    """A step with no action (the model's answer was invalid) has no target to train on."""

    def __init__(self, index: int, reason: str) -> None:
        self.index = index
        self.reason = reason
        super().__init__(f"step {index} has no action to train on: {reason}")


def assistant_message(action: Action) -> ChatMessage:
    """`action` as the assistant's `mobile_use` tool call (arguments as compact JSON text)."""
    arguments = json.dumps(to_arguments(action), ensure_ascii=False)
    return ChatMessage(
        role="assistant",
        tool_calls=(ToolCall(function=FunctionCall(name=TOOL_NAME, arguments=arguments)),),
    )


class SFTExample(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    prompt: Prompt
    target: ChatMessage

    def chat_messages(self) -> list[dict[str, Any]]:
        """Prompt and target as plain message dicts, for a chat template."""
        return [*self.prompt.chat_messages(), self.target.to_dict()]

    def prompt_text(self) -> str:
        """What the model is conditioned on (no loss), ending with the generation prompt."""
        return self.prompt.render(enable_thinking=ROLLOUT_ENABLE_THINKING)

    def completion_text(self) -> str:
        """What the model learns to generate, ending with `<|im_end|>\\n`."""
        return render_completion(self.target.to_dict())

    def text(self) -> str:
        """The whole conversation as training sees it: `prompt_text() + completion_text()`."""
        return self.prompt_text() + self.completion_text()


def sft_example(
    step: Step,
    task: TaskSpec,
    history: Sequence[Step],
    *,
    config: PromptConfig | None = None,
) -> SFTExample:
    """The example for `step`, taken after the steps in `history`."""
    if step.action is None:
        raise UntrainableStepError(step.index, step.invalid_reason or "no action")
    prompt = build_prompt(task, history, step.observation, config=config)
    return SFTExample(prompt=prompt, target=assistant_message(step.action))


def sft_examples(episode: Episode, *, config: PromptConfig | None = None) -> list[SFTExample]:
    """One example per step with an action (invalid steps stay in later prompts' history)."""
    return [
        sft_example(step, episode.task, episode.steps[:position], config=config)
        for position, step in enumerate(episode.steps)
        if step.action is not None
    ]
