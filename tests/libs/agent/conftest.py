import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from phonebuddy.agent import CHAT_TEMPLATE, render_chat
from phonebuddy.protocol import (
    Action,
    Category,
    Episode,
    EpisodeStatus,
    FrameRef,
    Instruction,
    Observation,
    PolicyRef,
    ScreenSize,
    Step,
    TaskSpec,
)


def frame(name: str) -> FrameRef:
    return FrameRef(
        sha256=hashlib.sha256(name.encode()).hexdigest(), media_type="image/png", size_bytes=100
    )


def observation(name: str, **extra) -> Observation:
    return Observation(frame=frame(name), screen=ScreenSize(width=1080, height=2400), **extra)


@pytest.fixture
def task() -> TaskSpec:
    return TaskSpec(
        template_id="chat.send_message",
        instruction=Instruction(zh="给张三发消息说你好", en="Send 张三 the message 你好"),
        category=Category.SINGLE_APP,
        apps=("com.example.chat",),
    )


MakeStep = Callable[..., Step]


@pytest.fixture
def make_step() -> MakeStep:
    def make(index: int, action: Action | None = None, invalid_reason: str | None = None) -> Step:
        return Step(
            index=index,
            observation=observation(f"screen-{index}"),
            raw_output=f"raw answer {index}",
            action=action,
            invalid_reason=invalid_reason,
        )

    return make


@pytest.fixture
def make_episode(task: TaskSpec) -> Callable[[tuple[Step, ...]], Episode]:
    def make(steps: tuple[Step, ...]) -> Episode:
        now = datetime(2026, 1, 1, tzinfo=UTC)
        return Episode(
            episode_id="ep-1",
            run_id="run-1",
            task=task,
            policy=PolicyRef(model="tiny", version="0"),
            device_id="device-1",
            steps=steps,
            status=EpisodeStatus.TERMINATED,
            started_at=now,
            finished_at=now,
        )

    return make


@pytest.fixture
def frame_of() -> Callable[[str], FrameRef]:
    """A frame reference named by a word (its sha256 is the word's)."""
    return frame


@pytest.fixture
def observation_of() -> Callable[..., Observation]:
    """An observation of the frame named by a word."""
    return observation


Renderer = Callable[..., str]


def _jinja_renderer() -> Renderer:
    """Renders CHAT_TEMPLATE the way transformers' `apply_chat_template` and vLLM do."""
    jinja2 = pytest.importorskip("jinja2")
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"]
    )
    env.filters["tojson"] = lambda value: json.dumps(value, ensure_ascii=False)
    template = env.from_string(CHAT_TEMPLATE)
    assert jinja2.__version__

    def render(messages, **kwargs) -> str:
        return template.render(messages=messages, **kwargs)

    return render


@pytest.fixture(params=["python", "jinja"])
def render(request) -> Renderer:
    """Every golden case runs on the Python renderer, and on the Jinja template where jinja2 is
    installed (it is not a dependency of phonebuddy-agent)."""
    if request.param == "python":
        return render_chat
    return _jinja_renderer()
