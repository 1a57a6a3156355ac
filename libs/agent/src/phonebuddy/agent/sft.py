"""Stored trajectories -> SFT examples: the exact prompt a rollout sent, plus the tool call.

An example is built with `build_prompt` from the same task, earlier steps and observation the
rollout had, so training sees exactly the prompt rollouts send; the target is the step's action
as an assistant tool call, in the form `parse_output` reads back. Under `element_actions` the
targets (and the history) name UI elements where a tap landed on a listed one (`element_form`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from phonebuddy.agent.chat_format import render_completion
from phonebuddy.agent.messages import ChatMessage, FunctionCall, ToolCall
from phonebuddy.agent.prompt import ROLLOUT_ENABLE_THINKING, Prompt, build_prompt
from phonebuddy.protocol import (
    TOOL_NAME,
    Action,
    Click,
    Episode,
    LongPress,
    Observation,
    PromptConfig,
    Step,
    TaskSpec,
    Type,
    element_at,
    screen_elements,
    to_arguments,
)


class UntrainableStepError(ValueError):
    """A step with no action (the model's answer was invalid) has no target to train on."""

    def __init__(self, index: int, reason: str) -> None:
        self.index = index
        self.reason = reason
        super().__init__(f"step {index} has no action to train on: {reason}")


def element_form(action: Action, observation: Observation) -> Action:
    """`action` as an element action would say it: a tap, long press or focusing tap on a point
    that a listed element holds names that element (and no point, which the device edge resolves);
    a stored element action drops its resolved point. Anything else is unchanged, as is a tap on
    no listed element (it keeps its coordinate)."""
    if not isinstance(action, Click | LongPress | Type):
        return action
    if action.element is not None:
        return action.model_copy(update={"coordinate": None})
    if action.coordinate is None:
        return action
    elements = screen_elements(observation.ui_tree, observation.screen)
    element = element_at(elements, action.coordinate, observation.screen)
    if element is None:
        return action
    return action.model_copy(update={"coordinate": None, "element": element.index})


def _as_configured(step: Step, config: PromptConfig) -> Step:
    if not config.element_actions or step.action is None:
        return step
    return step.model_copy(update={"action": element_form(step.action, step.observation)})


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
    config = config or PromptConfig()
    history = [_as_configured(earlier, config) for earlier in history]
    prompt = build_prompt(task, history, step.observation, config=config)
    target = _as_configured(step, config).action
    assert target is not None
    return SFTExample(prompt=prompt, target=assistant_message(target))


def sft_examples(episode: Episode, *, config: PromptConfig | None = None) -> list[SFTExample]:
    """One example per step with an action (invalid steps stay in later prompts' history)."""
    return [
        sft_example(step, episode.task, episode.steps[:position], config=config)
        for position, step in enumerate(episode.steps)
        if step.action is not None
    ]
