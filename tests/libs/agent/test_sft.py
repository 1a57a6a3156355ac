import pytest

from phonebuddy.agent import (
    ChatMessage,
    FunctionCall,
    PromptConfig,
    Sampling,
    ToolCall,
    UntrainableStepError,
    build_prompt,
    parse_output,
    sft_example,
    sft_examples,
)
from phonebuddy.protocol import (
    Click,
    Episode,
    Step,
    Swipe,
    Terminate,
    Type,
    to_tool_call,
)

ACTIONS = [
    Click(coordinate=(540, 800)),
    None,  # an invalid answer
    Type(text="你好"),
    Swipe(coordinate=(500, 800), coordinate2=(500, 200)),
    Terminate(status="success"),
]


@pytest.fixture
def episode(make_step, make_episode) -> Episode:
    steps = tuple(
        make_step(i, action, None if action is not None else "no tool call found")
        for i, action in enumerate(ACTIONS)
    )
    # Stored and read back, as training reads it.
    stored = make_episode(steps).model_dump_json()
    return Episode.model_validate_json(stored)


def _rollout_prompts(episode: Episode, config: PromptConfig | None):
    """The prompts a rollout sends: one per step, built from what it has seen so far."""
    seen: list[Step] = []
    prompts = []
    for step in episode.steps:
        prompts.append(build_prompt(episode.task, tuple(seen), step.observation, config=config))
        seen.append(step)
    return prompts


@pytest.mark.parametrize("screenshots", [1, 3])
def test_sft_prompt_equals_the_rollout_prompt(episode, screenshots):
    config = PromptConfig(screenshots=screenshots)
    rollout = _rollout_prompts(episode, config)
    examples = sft_examples(episode, config=config)
    trained = [i for i, step in enumerate(episode.steps) if step.action is not None]
    assert len(examples) == len(trained) == 4
    for example, index in zip(examples, trained, strict=True):
        assert example.prompt == rollout[index]
        # the text the policy renders for PolicyClient's request (its default sampling)
        assert example.prompt_text() == rollout[index].render(
            enable_thinking=Sampling().enable_thinking
        )


def test_target_is_the_steps_tool_call(episode):
    example = sft_example(episode.steps[2], episode.task, episode.steps[:2])
    assert example.target == ChatMessage(
        role="assistant",
        tool_calls=(
            ToolCall(
                function=FunctionCall(
                    name="mobile_use", arguments='{"action": "type", "text": "你好"}'
                )
            ),
        ),
    )
    assert example.completion_text() == (
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "type", "text": "你好"}}\n'
        "</tool_call><|im_end|>\n"
    )


def test_full_text_is_prompt_then_completion(episode):
    for example in sft_examples(episode):
        assert example.text() == example.prompt_text() + example.completion_text()


def test_the_parser_reads_every_target_back(episode):
    for example, step in zip(
        sft_examples(episode), [s for s in episode.steps if s.action], strict=True
    ):
        parsed = parse_output(example.completion_text())
        assert parsed.action == step.action
        assert to_tool_call(parsed.action) == to_tool_call(step.action)


def test_invalid_steps_stay_in_history_but_are_not_targets(episode):
    later = sft_examples(episode)[1]
    assert "Step 2: invalid output (no tool call found)" in later.prompt_text()
    with pytest.raises(UntrainableStepError) as caught:
        sft_example(episode.steps[1], episode.task, episode.steps[:1])
    assert caught.value.index == 1
    assert caught.value.reason == "no tool call found"


def test_the_template_renders_the_training_prompt_as_rollouts_request_it(render, episode):
    """Training text = the prompt the template renders for a rollout's request (generation
    prompt, thinking off as PolicyClient asks) + the completion."""
    for example in sft_examples(episode, config=PromptConfig(screenshots=2)):
        prompt = render(
            example.prompt.chat_messages(), tools=list(example.prompt.tools),
            add_generation_prompt=True, enable_thinking=Sampling().enable_thinking,
        )  # fmt: skip
        assert prompt == example.prompt_text()
        assert prompt.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
        assert example.text() == prompt + example.completion_text()
