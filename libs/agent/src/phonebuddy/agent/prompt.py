"""The prompt a phone-use policy sees at one step, built the same way for rollouts and training.

Layout: a system message (the agent's role; the `mobile_use` tool schema travels in `tools` and
the chat template writes it into the system turn, or a brief list of the actions instead), then
one user message with the instruction, the earlier steps as short action text (invalid answers
too, with their reason), the screen — the last K screenshots (earlier ones first, the current one
last) and/or the current UI tree as numbered element lines — and what the observation adds
(foreground app, device time, the app's direct tools). `PromptConfig` (in `phonebuddy.protocol`)
chooses among these; the same setting must serve rollouts, training and evaluation.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from phonebuddy.agent.chat_format import render_chat
from phonebuddy.agent.messages import ChatMessage, ContentPart, ImagePart, TextPart
from phonebuddy.agent.messages import to_openai_messages as _to_openai_messages
from phonebuddy.agent.tool import action_text, mobile_use_tool
from phonebuddy.protocol import (
    NORMALIZED_MAX,
    TOOL_NAME,
    FrameRef,
    Observation,
    PromptConfig,
    Step,
    TaskSpec,
    elements_text,
    screen_elements,
)

SYSTEM_PROMPT = (
    "You are a phone-use agent. You operate an Android phone to complete the user's task, one "
    f"action per turn, by calling the `{TOOL_NAME}` tool.\n"
    "Each turn you see the task, your previous actions and the current screenshot. Coordinates "
    f"are normalized to [0, {NORMALIZED_MAX}] on both axes: (0, 0) is the top-left corner of the "
    f"screen and ({NORMALIZED_MAX}, {NORMALIZED_MAX}) the bottom-right corner.\n"
    f"Reply with exactly one `{TOOL_NAME}` tool call. When the task asks a question, give the "
    "answer with `answer`. When the task is done, call `terminate` with status `success`; if it "
    "cannot be done, call `terminate` with status `failure`."
)


BRIEF_SYSTEM_PROMPT = (
    f"Operate the Android phone for the user: one `{TOOL_NAME}` tool call per turn. Actions: "
    "click, long_press, type, swipe, system_button, open, answer, terminate."
)


# How rollouts ask the policy to answer: no reasoning, so the generation prompt opens the answer
# with an empty `<think>` block. `PolicyClient`'s default sampling sends it, and SFT examples
# render their prompts with it, so training sees the prompt that rollouts send.
ROLLOUT_ENABLE_THINKING = False


class Prompt(BaseModel):
    """The messages and tools of one policy request; images are frame references."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    messages: tuple[ChatMessage, ...]
    tools: tuple[dict[str, Any], ...]

    @property
    def frames(self) -> tuple[FrameRef, ...]:
        """The screenshots in the order the prompt shows them."""
        return tuple(frame for message in self.messages for frame in message.frames)

    def chat_messages(self) -> list[dict[str, Any]]:
        """Plain message dicts for the chat template."""
        return [message.to_dict() for message in self.messages]

    def render(self, *, enable_thinking: bool | None = None) -> str:
        """The prompt text in Qwen3.5's chat format, ending with the generation prompt."""
        return render_chat(
            self.chat_messages(),
            tools=self.tools,
            add_generation_prompt=True,
            enable_thinking=enable_thinking,
        )

    def to_openai(self, image_url: Callable[[FrameRef], str]) -> dict[str, Any]:
        """`messages` and `tools` of an OpenAI chat-completions request."""
        return {
            "messages": _to_openai_messages(self.messages, image_url),
            "tools": [dict(tool) for tool in self.tools],
        }


def step_text(step: Step) -> str:
    """One earlier step as the history shows it."""
    if step.action is not None:
        return action_text(step.action)
    return f"invalid output ({step.invalid_reason})"


def history_text(history: Sequence[Step], *, last: int | None = None) -> str:
    """The earlier steps, numbered; only the `last` N when given."""
    if not history:
        return "Previous actions: none"
    shown = list(enumerate(history, 1))
    if last is not None:
        shown = shown[len(shown) - last :] if last else []
    lines = [f"Step {number}: {step_text(step)}" for number, step in shown]
    if len(shown) < len(history):
        lines.insert(0, f"({len(history) - len(shown)} earlier)")
    return "Previous actions:\n" + "\n".join(lines)


def ui_tree_text(observation: Observation) -> str:
    """The screen's elements as numbered lines (`phonebuddy.protocol.elements`)."""
    if observation.ui_tree is None:
        return "(the device sent no UI tree)"
    listed = elements_text(screen_elements(observation.ui_tree, observation.screen))
    return listed or "(no labelled elements)"


def _observation_text(observation: Observation, config: PromptConfig) -> str:
    lines = []
    if config.device_info and observation.foreground_app is not None:
        lines.append(f"Foreground app: {observation.foreground_app}")
    if config.device_info and observation.device_time is not None:
        lines.append(f"Device time: {observation.device_time}")
    if observation.tools and config.tool_schema == "full":
        lines.append("App tools (call them with the `call_tool` action):")
        lines.extend(
            f"- {tool.name}: {tool.description} "
            f"Parameters: {json.dumps(tool.parameters, ensure_ascii=False)}"
            for tool in observation.tools
        )
    return "".join(f"\n{line}" for line in lines)


def _merge_text(parts: list[ContentPart]) -> tuple[ContentPart, ...]:
    merged: list[ContentPart] = []
    for part in parts:
        previous = merged[-1] if merged else None
        if isinstance(part, TextPart) and isinstance(previous, TextPart):
            merged[-1] = TextPart(text=previous.text + part.text)
        else:
            merged.append(part)
    return tuple(merged)


def build_prompt(
    task: TaskSpec,
    history: Sequence[Step],
    observation: Observation,
    *,
    config: PromptConfig | None = None,
) -> Prompt:
    """The prompt for the step after `history`, whose screen is `observation`."""
    config = config or PromptConfig()
    current = len(history) + 1
    parts: list[ContentPart] = [
        TextPart(
            text=f"Task: {task.instruction_text}\n\n"
            f"{history_text(history, last=config.history_steps)}\n"
        ),
    ]
    if config.shows_screenshots:
        earlier = history[max(0, len(history) - (config.screenshots - 1)) :]
        for number, step in enumerate(earlier, current - len(earlier)):
            parts += [
                TextPart(text=f"\nScreenshot at step {number}:\n"),
                ImagePart(frame=step.observation.frame),
            ]
        parts += [
            TextPart(text=f"\nCurrent screenshot (step {current}):\n"),
            ImagePart(frame=observation.frame),
        ]
    if config.shows_ui_tree:
        parts.append(
            TextPart(text=f"\nScreen elements (step {current}):\n{ui_tree_text(observation)}\n")
        )
    extra = _observation_text(observation, config)
    if extra:
        parts.append(TextPart(text="\n" + extra.removeprefix("\n")))
    if config.repeat_task:
        parts.append(TextPart(text=f"\nTask: {task.instruction_text}"))
    full = config.tool_schema == "full"
    return Prompt(
        messages=(
            ChatMessage(role="system", content=SYSTEM_PROMPT if full else BRIEF_SYSTEM_PROMPT),
            ChatMessage(role="user", content=_merge_text(parts)),
        ),
        tools=(mobile_use_tool(),) if full else (),
    )
