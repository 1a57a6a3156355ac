"""`PhoneWorld-v0`: a Gymnasium environment for training in-process.

    env = gymnasium.make("phonebuddy.phoneworld.gym_env:PhoneWorld-v0")
    observation, info = env.reset(seed=3, options={"task": "notes.create"})
    observation, reward, terminated, truncated, info = env.step(Click(coordinate=(500, 500)))

Observations are screenshots as (H, W, 3) uint8 arrays; `info` carries the instruction, the
`TaskSpec`, the protocol `Observation` (UI tree, foreground app) and the last action's effect.
The reward is 1.0 when the episode ends (`answer` / `terminate`) in a verified success.
"""

from __future__ import annotations

import io
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image

from phonebuddy.phoneworld.device import DEFAULT_SCREEN, Device
from phonebuddy.phoneworld.tasks.registry import all_templates, get_template
from phonebuddy.phoneworld.tasks.runner import TaskInstance, evaluate, instantiate, start
from phonebuddy.phoneworld.world import World, default_world
from phonebuddy.protocol import FINAL_ACTIONS, Action, Answer, ScreenSize, action_adapter

ENV_ID = "PhoneWorld-v0"
_SAMPLE_TEXT = ("hello", "你好", "123", "a; rm -rf /", "周末")


class ActionSpace(spaces.Space[Action]):
    """The protocol's action space; `sample()` draws random valid actions (for fuzzing)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(shape=None, dtype=None, seed=seed)

    def contains(self, x: Any) -> bool:
        try:
            action_adapter.validate_python(x)
        except ValueError:
            return False
        return True

    def sample(self, mask: Any = None, probability: Any = None) -> Action:
        rng = self.np_random

        def point() -> tuple[int, int]:
            return int(rng.integers(0, 1001)), int(rng.integers(0, 1001))

        kind = rng.choice(
            [
                "click",
                "click",
                "click",
                "long_press",
                "swipe",
                "swipe",
                "type",
                "key",
                "system_button",
                "open",
                "wait",
            ]
        )
        arguments: dict[str, Any] = {"action": str(kind)}
        if kind in ("click", "long_press"):
            arguments["coordinate"] = point()
        elif kind == "swipe":
            arguments |= {"coordinate": point(), "coordinate2": point()}
        elif kind in ("type", "open"):
            arguments["text"] = str(rng.choice(_SAMPLE_TEXT))
        elif kind == "key":
            arguments["text"] = str(rng.choice(["DEL", "ENTER", "KEYCODE_BACK", "VOLUME_UP"]))
        elif kind == "system_button":
            arguments["button"] = str(rng.choice(["Back", "Home", "Menu", "Enter"]))
        else:
            arguments["time"] = 1.0
        return action_adapter.validate_python(arguments)

    @property
    def is_np_flattenable(self) -> bool:
        return False


class PhoneWorldEnv(gym.Env[np.ndarray, Action]):
    metadata = {"render_modes": ["rgb_array"]}

    def __init__(
        self,
        *,
        world: World | None = None,
        screen: ScreenSize = DEFAULT_SCREEN,
        step_budget: int = 30,
        language: str = "zh",
        render_mode: str | None = "rgb_array",
    ) -> None:
        self.world = world or default_world(0)
        self.device = Device(self.world, screen=screen)
        self.step_budget = step_budget
        self.language = language
        self.render_mode = render_mode
        self.action_space = ActionSpace()
        self.observation_space = spaces.Box(0, 255, (screen.height, screen.width, 3), np.uint8)
        self.instance: TaskInstance | None = None
        self._before: dict[str, Any] | None = None
        self._steps = 0

    def _pixels(self) -> np.ndarray:
        frame = self.device.frame("png")
        return np.asarray(Image.open(io.BytesIO(frame.data)).convert("RGB"))

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        observation, _ = self.device.observe(image_format="png")
        assert self.instance is not None  # reset() ran
        spec = self.instance.spec
        return self._pixels(), {
            "instruction": spec.instruction_text,
            "task": spec,
            "observation": observation,
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        options = options or {}
        template_id = options.get("task")
        if template_id is None:
            templates = all_templates()
            template = templates[int(self.np_random.integers(len(templates)))]
        else:
            template = get_template(str(template_id))
        task_seed = 0 if seed is None else seed
        self.instance = instantiate(template, self.world, task_seed, language=self.language)
        self._before = start(self.device, self.instance)
        self._steps = 0
        return self._observe()

    def step(
        self, action: Action | dict[str, Any]
    ) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.instance is None or self._before is None:
            raise RuntimeError("call reset() before step()")
        parsed = action_adapter.validate_python(action) if isinstance(action, dict) else action
        result = self.device.act(parsed)
        self._steps += 1
        terminated = parsed.action in FINAL_ACTIONS
        truncated = not terminated and self._steps >= self.step_budget
        reward = 0.0
        info_extra: dict[str, Any] = {"effect": result.effect, "note": result.note}
        if terminated:
            answer = parsed.text if isinstance(parsed, Answer) else None
            verdict = evaluate(
                self.world,
                self.instance.template,
                self.instance.params,
                self._before,
                self.device.snapshot(),
                answer,
            )
            reward = verdict.reward
            info_extra["verdict"] = verdict
        obs, info = self._observe()
        return obs, reward, terminated, truncated, {**info, **info_extra}

    def render(self) -> np.ndarray:
        return self._pixels()


# Importing this module registers the environment (gymnasium imports it for the
# "phonebuddy.phoneworld.gym_env:PhoneWorld-v0" form of the id).
if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="phonebuddy.phoneworld.gym_env:PhoneWorldEnv")
