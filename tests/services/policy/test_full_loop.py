"""The whole CPU loop: a PhoneWorld phone -> the shared harness -> the policy server (tiny
Qwen3.5-VL) -> the parsed answer -> the phone, with invalid answers recorded and counted."""

from phonebuddy.agent import (
    ParsedAction,
    PolicyClient,
    PolicyEndpoint,
    PromptConfig,
    Sampling,
    build_prompt,
)
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.phoneworld.tasks.runner import instantiate, start
from phonebuddy.phoneworld.world import default_world
from phonebuddy.protocol import Step

from .conftest import API_KEY

STEPS = 3


async def test_phoneworld_harness_policy_loop(server: str) -> None:
    world = default_world()
    device = Device(world)
    instance = instantiate(get_template("notes.create"), world, seed=0, language="en")
    start(device, instance)
    before = device.state_digest()
    endpoint = PolicyEndpoint(base_url=f"{server}/v1", api_key=API_KEY)
    history: list[Step] = []
    invalid = 0
    versions = set()
    frames: dict[str, bytes] = {}  # screenshot bytes by sha256, as a trajectory store keeps them
    async with PolicyClient(endpoint) as policy:
        for index in range(STEPS):
            observation, frame = device.observe(image_format="jpeg")
            prompt = build_prompt(
                instance.spec, history, observation, config=PromptConfig(screenshots=2)
            )
            assert len(prompt.frames) == min(index + 1, 2)
            frames[frame.ref.sha256] = frame.data
            reply = await policy.act(prompt, frames, Sampling(max_tokens=24, seed=index))
            (answer,) = reply.answers
            versions.add(reply.model_version)
            assert answer.raw, "the raw answer is recorded even when it is unusable"
            if isinstance(answer.parsed, ParsedAction):
                device.act(answer.parsed.action)
                step = Step(
                    index=index, observation=observation, raw_output=answer.raw,
                    action=answer.parsed.action,
                )  # fmt: skip
            else:
                invalid += 1
                step = Step(
                    index=index, observation=observation, raw_output=answer.raw,
                    invalid_reason=answer.parsed.reason,
                )  # fmt: skip
            history.append(step)
    assert len(history) == STEPS
    assert invalid == sum(step.invalid_reason is not None for step in history)
    # A random model writes no valid tool call: every step is an invalid answer, counted, and
    # the phone is untouched.
    assert invalid == STEPS
    assert device.state_digest() == before
    assert len(versions) == 1
    assert next(iter(versions)).startswith("tiny-seed0@")
    last_prompt = build_prompt(instance.spec, history, device.observe()[0])
    text = last_prompt.render()
    assert text.count("invalid output (") == STEPS
