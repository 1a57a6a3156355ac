"""A finished rollout round -> GRPO groups and token samples.

A group is the episodes of one manifest group (one task on one source). An episode is masked —
in no statistic, no sample — when it carries no reward to trust: its environment or policy
failed, it has no verdict, or its judge errored. A failed group (the broker gave up on it) is
masked whole. Samples are one per step that carries the tokens the policy sampled (valid and
invalid answers alike: an unparseable answer is what a negative advantage should discourage);
each prompt is rebuilt from the stored step and must match the digest the rollout recorded.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from phonebuddy.agent.prompt import ROLLOUT_ENABLE_THINKING, PromptConfig, build_prompt
from phonebuddy.policy_model.inputs import Processing
from phonebuddy.protocol import Episode, EpisodeStatus, Source
from phonebuddy.training.grpo import Group
from phonebuddy.training.samples import TokenSample, encode_sample
from phonebuddy.trajectories import GroupStatus, RunManifest, TrajectoryStore

_MASKED_STATUSES = (EpisodeStatus.ENV_ERROR, EpisodeStatus.POLICY_ERROR)


def reward_of(episode: Episode) -> float | None:
    """The episode's binary reward, or None where it must be masked."""
    verdict = episode.verdict
    if episode.status in _MASKED_STATUSES or verdict is None or verdict.judge_error:
        return None
    return 1.0 if verdict.success else 0.0


@dataclass(frozen=True, slots=True)
class RoundGroup:
    """One group of a round with what the metrics break rewards down by."""

    group: Group
    source: Source
    category: str
    episodes: tuple[Episode, ...]


def round_groups(manifest: RunManifest, episodes: Sequence[Episode]) -> list[RoundGroup]:
    by_id = {episode.episode_id: episode for episode in episodes}
    groups = []
    for record in manifest.groups:
        members = tuple(by_id[e] for e in record.episodes if e in by_id)
        complete = record.status == GroupStatus.COMPLETE
        rewards = {e.episode_id: reward_of(e) if complete else None for e in members}
        groups.append(
            RoundGroup(
                group=Group(task_id=f"{manifest.run_id}/{record.group_id}", rewards=rewards),
                source=record.source,
                category=record.category.value,
                episodes=members,
            )
        )
    return groups


@dataclass(frozen=True, slots=True)
class StepSample:
    episode_id: str
    step_index: int
    sample: TokenSample
    server_logprobs: tuple[float, ...] | None
    policy_version: str | None


async def episode_samples(
    store: TrajectoryStore,
    processing: Processing,
    episode: Episode,
    prompt_config: PromptConfig,
) -> list[StepSample]:
    """One sample per step with sampled tokens, its prompt rebuilt as the rollout sent it."""
    samples = []
    for position, step in enumerate(episode.steps):
        if step.sample is None:
            continue
        prompt = build_prompt(
            episode.task, episode.steps[:position], step.observation, config=prompt_config
        )
        images = [_image(await store.get_frame(ref)) for ref in prompt.frames]
        where = f"episode {episode.episode_id} step {step.index}"
        token_sample = encode_sample(
            processing,
            prompt.render(enable_thinking=ROLLOUT_ENABLE_THINKING),
            images,
            step.sample,
            where=where,
        )
        samples.append(
            StepSample(
                episode.episode_id,
                step.index,
                token_sample,
                step.sample.logprobs,
                step.policy_version,
            )
        )
    return samples


def _image(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as image:
        return image.convert("RGB")
