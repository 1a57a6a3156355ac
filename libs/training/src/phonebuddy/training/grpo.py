"""GRPO's math: group-normalized advantages, dynamic sampling, the clipped token-level loss.

A group is the G episodes of one task. A masked episode (failed for environment reasons, or its
judge errored) has no reward: it is in no statistic and gets no advantage, never a reward of 0. A
group whose unmasked rewards are all equal teaches nothing and is dropped; the job refills until
`FillStatus` says the batch is full or the extra rounds are spent. The loss takes flat per-token
tensors (built from packed rows with `loss.token_log_probs`) and averages over all tokens of the
batch at once (token-mean). Definitions and metric names follow verl's `core_algos`.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import torch

# exp(20) ~ 5e8: a log-ratio beyond it is a numerical accident, and exp would overflow (verl too).
LOG_RATIO_LIMIT = 20.0
K3_LIMIT = 10.0  # verl bounds the k3 estimate the same way


def group_advantages(
    rewards: Sequence[float | None], *, scale_by_std: bool = False, epsilon: float = 1e-6
) -> list[float | None]:
    """Each reward minus the mean of the group's unmasked rewards (None marks masked: stays None).

    With `scale_by_std`, divided by the unmasked rewards' sample standard deviation plus
    `epsilon` (verl's `norm_adv_by_std_in_grpo`); off, this is Dr. GRPO's mean-centring."""
    scored = [reward for reward in rewards if reward is not None]
    if not scored:
        return [None] * len(rewards)
    mean = statistics.fmean(scored)
    scale = 1.0
    if scale_by_std:
        std = statistics.stdev(scored) if len(scored) > 1 else 0.0
        scale = 1.0 / (std + epsilon)
    return [None if reward is None else (reward - mean) * scale for reward in rewards]


@dataclass(frozen=True, slots=True)
class Group:
    task_id: str
    rewards: Mapping[str, float | None]  # episode id -> reward, None where the episode is masked

    @property
    def masked_episodes(self) -> int:
        return sum(reward is None for reward in self.rewards.values())

    @property
    def informative(self) -> bool:
        """Its unmasked rewards differ, so some advantage is not 0."""
        return len({reward for reward in self.rewards.values() if reward is not None}) > 1

    def advantages(self, *, scale_by_std: bool = False, epsilon: float = 1e-6) -> dict[str, float]:
        """Episode id -> advantage, for the unmasked episodes only."""
        rewards = [*self.rewards.values()]
        values = group_advantages(rewards, scale_by_std=scale_by_std, epsilon=epsilon)
        return {e: v for e, v in zip(self.rewards, values, strict=True) if v is not None}


@dataclass(frozen=True, slots=True)
class Selection:
    kept: tuple[Group, ...] = ()
    dropped_uniform: int = 0  # groups whose unmasked rewards are all equal (one alone included)
    dropped_masked: int = 0  # groups with every episode masked
    masked_episodes: int = 0  # over every group seen, kept or dropped

    def __add__(self, other: Selection) -> Selection:
        """This batch so far with a refill round's selection added."""
        return Selection(
            self.kept + other.kept,
            self.dropped_uniform + other.dropped_uniform,
            self.dropped_masked + other.dropped_masked,
            self.masked_episodes + other.masked_episodes,
        )


def select_groups(groups: Iterable[Group]) -> Selection:
    """Dynamic sampling's filter: keep the informative groups, count what was dropped and why."""
    kept: list[Group] = []
    uniform = all_masked = masked = 0
    for group in groups:
        masked += group.masked_episodes
        if group.informative:
            kept.append(group)
        elif group.masked_episodes == len(group.rewards):
            all_masked += 1
        else:
            uniform += 1
    return Selection(tuple(kept), uniform, all_masked, masked)


@dataclass(frozen=True, slots=True)
class FillStatus:
    selection: Selection  # the batch so far, all rounds added
    target_groups: int
    extra_rounds: int  # refill rounds done after the first request
    max_extra_rounds: int

    def __post_init__(self) -> None:
        if self.target_groups < 1 or self.extra_rounds < 0 or self.max_extra_rounds < 0:
            raise ValueError("target_groups must be >= 1 and the round counts >= 0")

    @property
    def full(self) -> bool:
        return self.groups_needed == 0

    @property
    def exhausted(self) -> bool:
        """Not full, and no refill round is left: train on what was kept."""
        return not self.full and self.extra_rounds >= self.max_extra_rounds

    @property
    def done(self) -> bool:
        return self.full or self.exhausted

    @property
    def groups_needed(self) -> int:
        return max(self.target_groups - len(self.selection.kept), 0)

    def metrics(self) -> dict[str, float]:
        selection = self.selection
        return {
            "kept_groups": len(selection.kept),
            "target_groups": self.target_groups,
            "dropped_uniform_groups": selection.dropped_uniform,
            "dropped_masked_groups": selection.dropped_masked,
            "masked_episodes": selection.masked_episodes,
            "extra_rounds": self.extra_rounds,
            "batch_full": float(self.full),
        }


def per_token(values: Sequence[float], token_counts: Sequence[int]) -> torch.Tensor:
    """One value per sample (its episode's advantage) repeated over the sample's tokens."""
    if len(values) != len(token_counts):
        raise ValueError(f"{len(values)} values for {len(token_counts)} samples")
    counts = torch.tensor(token_counts, dtype=torch.long)
    return torch.tensor(values, dtype=torch.float32).repeat_interleave(counts)


def episode_balanced(
    advantages: Sequence[float], episode_ids: Sequence[str], token_counts: Sequence[int]
) -> list[float]:
    """Per-sample advantages reweighted so that, under the batch token-mean, every episode
    weighs the same whatever its length: each sample's advantage times (tokens per episode on
    average) / (its episode's tokens).

    With one sample per action step, a plain token-mean gives a long episode (a failure that
    runs to the step budget) more weight than a short success of the same group: the actions
    both share are then pushed down on balance, though the group's advantages sum to zero."""
    if not len(advantages) == len(episode_ids) == len(token_counts):
        raise ValueError("one advantage, episode id and token count per sample")
    per_episode: dict[str, int] = {}
    for episode, count in zip(episode_ids, token_counts, strict=True):
        per_episode[episode] = per_episode.get(episode, 0) + count
    if not per_episode:
        return []
    mean = sum(per_episode.values()) / len(per_episode)
    return [
        advantage * mean / per_episode[episode]
        for advantage, episode in zip(advantages, episode_ids, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class PolicyLossConfig:
    clip_ratio_low: float = 0.2
    clip_ratio_high: float = 0.28  # DAPO's clip-higher: room for unlikely tokens to grow
    # Dual-clip PPO (verl's clip_ratio_c, 3.0 there): caps a negative-advantage token's loss at
    # -A * c once its ratio passes c. Off by default: the loss is exactly -min(rA, clip(r)A).
    clip_ratio_c: float | None = None
    kl_coef: float = 0.0  # k3 KL to the reference, added to the loss when > 0

    def __post_init__(self) -> None:
        if not 0 <= self.clip_ratio_low < 1 or self.clip_ratio_high < 0:
            raise ValueError("clip ratios: 0 <= low < 1 and high >= 0")
        if self.clip_ratio_c is not None and self.clip_ratio_c <= 1:
            raise ValueError(f"clip_ratio_c must be > 1, not {self.clip_ratio_c}")
        if self.kl_coef < 0:
            raise ValueError(f"kl_coef must be >= 0, not {self.kl_coef}")


# The metrics `policy_loss` reports whatever the batch (with entropies given); `kl_loss` is added
# when reference log-probs are.
LOSS_METRICS = ("pg_loss", "pg_clipfrac", "pg_clipfrac_lower", "ppo_kl", "entropy")


@dataclass(frozen=True, slots=True)
class PolicyLoss:
    loss: torch.Tensor  # scalar with grad: this part's token sum over the batch's loss tokens
    tokens: int  # tokens in this part's mask
    metrics: dict[str, float]  # means over this part's tokens; `merge_metrics` combines parts


def masked_token_sum(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    # where, not multiply: a masked token's gradient is exactly 0 whatever its value
    return torch.where(mask, values, torch.zeros_like(values)).sum()


def token_mean(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """verl's token-mean: one mean over every unmasked token (0 when there is none)."""
    return masked_token_sum(values, mask) / max(int(mask.sum()), 1)


def k3_kl(log_probs: torch.Tensor, ref_log_probs: torch.Tensor) -> torch.Tensor:
    """Per-token k3 estimate of KL(policy || reference): exp(ref - new) - (ref - new) - 1."""
    log_ratio = (ref_log_probs - log_probs).clamp(-LOG_RATIO_LIMIT, LOG_RATIO_LIMIT)
    return (log_ratio.exp() - log_ratio - 1).clamp(-K3_LIMIT, K3_LIMIT)


def _check_flat(mask: torch.Tensor, **tensors: torch.Tensor | None) -> None:
    if mask.ndim != 1:
        raise ValueError(f"token tensors are flat (1-D); the mask has shape {tuple(mask.shape)}")
    for name, tensor in tensors.items():
        if tensor is not None and tensor.shape != mask.shape:
            raise ValueError(f"{name} has shape {tuple(tensor.shape)}, not {tuple(mask.shape)}")


def clipped_losses(
    log_ratio: torch.Tensor, advantages: torch.Tensor, config: PolicyLossConfig
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Per token: -min(rA, clip(r)A) (dual-clipped when on), where the clipped term was taken
    (verl's pg_clipfrac counts these), where the dual clip was (pg_clipfrac_lower)."""
    ratio = log_ratio.exp()
    unclipped = -advantages * ratio
    clipped = -advantages * ratio.clamp(1 - config.clip_ratio_low, 1 + config.clip_ratio_high)
    losses = torch.maximum(unclipped, clipped)
    dual = torch.zeros_like(losses, dtype=torch.bool)
    if config.clip_ratio_c is not None:
        bound = -advantages * config.clip_ratio_c
        dual = (advantages < 0) & (losses > bound)
        losses = torch.where(dual, bound, losses)
    return losses, clipped > unclipped, dual


def policy_loss(
    log_probs: torch.Tensor,
    old_log_probs: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    *,
    config: PolicyLossConfig = PolicyLossConfig(),
    ref_log_probs: torch.Tensor | None = None,
    entropies: torch.Tensor | None = None,
    loss_tokens: int | None = None,
) -> PolicyLoss:
    """The clipped policy-gradient loss over flat per-token tensors; `mask` selects loss tokens.

    `loss_tokens` is the unmasked token count of the whole batch when it is split into parts
    (packed rows, micro-batches): each part's loss is its token sum over that count, so the parts'
    losses add up to the batch's token-mean. Default: this part is the batch."""
    _check_flat(
        mask, log_probs=log_probs, old_log_probs=old_log_probs, advantages=advantages,
        ref_log_probs=ref_log_probs, entropies=entropies,
    )  # fmt: skip
    mask = mask.bool()
    tokens = int(mask.sum())
    if loss_tokens is not None and loss_tokens < tokens:
        raise ValueError(f"loss_tokens={loss_tokens} is fewer than this part's {tokens} tokens")
    if config.kl_coef > 0 and ref_log_probs is None:
        raise ValueError("kl_coef > 0 needs ref_log_probs")
    denominator, local = max(loss_tokens or tokens, 1), max(tokens, 1)
    log_probs = log_probs.float()
    log_ratio = (log_probs - old_log_probs.float()).clamp(-LOG_RATIO_LIMIT, LOG_RATIO_LIMIT)
    losses, clipped, dual = clipped_losses(log_ratio, advantages.float(), config)
    pg_sum = masked_token_sum(losses, mask)
    loss = pg_sum / denominator
    metrics = {
        "pg_loss": float(pg_sum.detach()) / local,
        "pg_clipfrac": float(token_mean(clipped.float(), mask)),
        "pg_clipfrac_lower": float(token_mean(dual.float(), mask)),
        "ppo_kl": float(token_mean(-log_ratio.detach(), mask)),
    }
    if ref_log_probs is not None:
        kl_sum = masked_token_sum(k3_kl(log_probs, ref_log_probs.float()), mask)
        metrics["kl_loss"] = float(kl_sum.detach()) / local
        if config.kl_coef > 0:
            loss = loss + config.kl_coef * kl_sum / denominator
    if entropies is not None:
        metrics["entropy"] = float(token_mean(entropies.detach().float(), mask))
    return PolicyLoss(loss=loss, tokens=tokens, metrics=metrics)


def merge_metrics(parts: Sequence[PolicyLoss]) -> dict[str, float]:
    """The batch's metrics from its parts': each a token-weighted mean."""
    merged = {}
    for name in sorted({name for part in parts for name in part.metrics}):
        having = [(part.metrics[name], part.tokens) for part in parts if name in part.metrics]
        merged[name] = sum(v * n for v, n in having) / max(sum(n for _, n in having), 1)
    return merged
