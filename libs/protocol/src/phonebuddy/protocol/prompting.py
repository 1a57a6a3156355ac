"""How a policy's prompt shows the phone: one setting that rollouts, SFT, RL and evaluation use
identically, recorded in run manifests and checkpoints (`phonebuddy.agent.build_prompt` reads it).

- `observation`: `screenshot` (the paper's recipe), `ui_tree` (the screen's labelled elements as
  numbered text lines, no image) or `screenshot+ui_tree`.
- `element_actions`: clicks, long presses and typing name an element number of the list
  (`click` with `element: 7`) instead of a coordinate; needs a UI-tree observation.
- `tool_schema`: `full` sends the `mobile_use` JSON Schema (the chat template writes it into the
  system turn); `brief` replaces it with a few lines naming the actions, for small models
  whose context is better spent on the screen.
- `history_steps`: how many earlier actions the prompt lists (None: all).
- `repeat_task`: write the task again just before the answer (small models attend to what is
  near).
- `device_info`: the foreground app's package and the device clock as text lines (a UI tree
  already shows the status bar's clock).
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

ObservationMode = Literal["screenshot", "ui_tree", "screenshot+ui_tree"]
OBSERVATION_MODES: tuple[ObservationMode, ...] = ("screenshot", "ui_tree", "screenshot+ui_tree")


class PromptConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    screenshots: int = Field(
        default=1, ge=1, le=8, description="the last K screenshots; 1 = only the current one"
    )
    observation: ObservationMode = "screenshot"
    element_actions: bool = False
    tool_schema: Literal["full", "brief"] = "full"
    history_steps: int | None = Field(default=None, ge=0, le=200)
    repeat_task: bool = False
    device_info: bool = True

    @model_validator(mode="after")
    def _elements_need_a_tree(self) -> Self:
        if self.element_actions and not self.shows_ui_tree:
            raise ValueError(
                f"element_actions needs a UI-tree observation, not {self.observation!r}"
            )
        return self

    @property
    def shows_screenshots(self) -> bool:
        return self.observation != "ui_tree"

    @property
    def shows_ui_tree(self) -> bool:
        return self.observation != "screenshot"

    def describe(self) -> str:
        """One line for logs and errors: `ui_tree, element actions, brief tools, ...`."""
        parts = [self.observation]
        if self.shows_screenshots and self.screenshots > 1:
            parts.append(f"{self.screenshots} screenshots")
        parts.append("element actions" if self.element_actions else "coordinate actions")
        parts.append(f"{self.tool_schema} tools")
        if self.history_steps is not None:
            parts.append(f"last {self.history_steps} actions")
        if self.repeat_task:
            parts.append("task repeated")
        if not self.device_info:
            parts.append("no device info")
        return ", ".join(parts)


class PromptMismatchError(ValueError):
    """A checkpoint trained on one prompt setting asked to act under another."""


def check_prompt_match(trained: PromptConfig | None, used: PromptConfig, *, what: str) -> None:
    """Refuse to run `what` (a checkpoint) under a prompt setting it was not trained with.
    A checkpoint that records none (a base model) runs under any."""
    if trained is not None and trained != used:
        raise PromptMismatchError(
            f"{what} was trained with prompts of ({trained.describe()}) but this run builds "
            f"({used.describe()}); use the checkpoint's setting (its phonebuddy.json) or "
            "retrain"
        )


def resolve_prompt(
    given: PromptConfig | None, recorded: PromptConfig | None, *, what: str
) -> PromptConfig:
    """The setting a job runs a checkpoint under: the one it is `given`, which must be the one
    the checkpoint `recorded`; else the record; else the default (one screenshot)."""
    used = given or recorded or PromptConfig()
    check_prompt_match(recorded, used, what=what)
    return used
