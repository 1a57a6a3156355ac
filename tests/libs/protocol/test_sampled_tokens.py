"""`Step.sample`: the tokens a policy generated, kept with the step for RL; records without it
(older ones, the teacher's) still load."""

import hashlib
from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from phonebuddy.protocol import (
    Category,
    Click,
    Episode,
    EpisodeStatus,
    Frame,
    Instruction,
    Observation,
    PolicyRef,
    ScreenSize,
    Step,
    TaskSpec,
)
from phonebuddy.protocol.episodes import SampledTokens, token_ids_sha256
from phonebuddy.protocol.judging import for_judging

FRAME = Frame.from_bytes(b"\x89PNG not really", "image/png")
OBSERVATION = Observation(frame=FRAME.ref, screen=ScreenSize(width=1080, height=2400))
PROMPT = (248045, 9125, 198, 248056, 248056, 248046)


def _sample(**overrides: object) -> SampledTokens:
    values: dict[str, object] = {
        "token_ids": (151, 27, 248046),
        "logprobs": (-0.5, -1.25, -0.01),
        "prompt_tokens": len(PROMPT),
        "prompt_sha256": token_ids_sha256(PROMPT),
        **overrides,
    }
    return SampledTokens(**values)  # type: ignore[arg-type]


def test_the_digest_is_sha256_of_the_decimal_ids_comma_separated() -> None:
    expected = hashlib.sha256(b"248045,9125,198,248056,248056,248046").hexdigest()
    assert token_ids_sha256(PROMPT) == expected
    assert token_ids_sha256([1, 23]) != token_ids_sha256([12, 3])


def test_a_sample_knows_the_prompt_it_followed() -> None:
    sample = _sample()
    assert sample.matches_prompt(list(PROMPT))
    assert not sample.matches_prompt(PROMPT[:-1])
    assert not sample.matches_prompt((*PROMPT[:-1], 9))


@pytest.mark.parametrize(
    ("overrides", "problem"),
    [
        ({"logprobs": (-0.5,)}, "1 logprobs for 3 sampled tokens"),
        ({"token_ids": ()}, "at least 1"),
        ({"prompt_sha256": "abc"}, "pattern"),
        ({"prompt_tokens": 0}, "greater than or equal to 1"),
    ],
)
def test_inconsistent_samples_are_refused(overrides: dict[str, object], problem: str) -> None:
    with pytest.raises(ValidationError, match=problem):
        _sample(**overrides)


def test_logprobs_are_optional() -> None:
    assert _sample(logprobs=None).logprobs is None


def test_a_step_round_trips_its_sample_and_old_steps_load_without_one() -> None:
    step = Step(
        index=0, observation=OBSERVATION, raw_output="<tool_call>...",
        action=Click(coordinate=(1, 2)), sample=_sample(),
    )  # fmt: skip
    assert Step.model_validate_json(step.model_dump_json()) == step
    old = step.model_dump(mode="json")
    del old["sample"]
    assert Step.model_validate(old).sample is None


def test_the_judge_gets_no_tokens() -> None:
    step = Step(index=0, observation=OBSERVATION, raw_output="x", invalid_reason="no call",
                sample=_sample())  # fmt: skip
    task = TaskSpec(
        template_id="notes.create", instruction=Instruction(zh="新建笔记", en="Create a note"),
        category=Category.SINGLE_APP, apps=("com.pw.notes",),
    )  # fmt: skip
    now = datetime(2026, 12, 1, tzinfo=UTC)
    episode = Episode(
        episode_id="e", run_id="r", task=task, policy=PolicyRef(model="m", version="v"),
        device_id="d", steps=(step,), status=EpisodeStatus.BUDGET_EXHAUSTED,
        started_at=now, finished_at=now,
    )  # fmt: skip
    assert for_judging(episode).steps[0].sample is None
