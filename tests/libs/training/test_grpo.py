"""GRPO's math: advantages, dynamic sampling, the clipped token-mean loss, and one step on the tiny
model moving the sampled tokens' log-probabilities the way the advantage says."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch

from phonebuddy.policy_model.inputs import Processing, encode_completion
from phonebuddy.training.batch import IGNORE_INDEX, EncodedExample, PackedRow, pack_row
from phonebuddy.training.grpo import (
    FillStatus,
    Group,
    PolicyLossConfig,
    Selection,
    group_advantages,
    merge_metrics,
    per_token,
    policy_loss,
    select_groups,
    token_mean,
)
from phonebuddy.training.loss import token_log_probs
from phonebuddy.training.model import load_for_training

# --- advantages ----------------------------------------------------------------------------


def test_advantages_are_mean_centred_by_default() -> None:
    assert group_advantages([1, 0, 0, 0]) == pytest.approx([0.75, -0.25, -0.25, -0.25])
    assert group_advantages([1, 1, 0, 0]) == pytest.approx([0.5, 0.5, -0.5, -0.5])


def test_std_scaling_divides_by_the_sample_std_plus_epsilon() -> None:
    # sample std of [1, 0, 0, 0] is exactly 0.5
    scaled = group_advantages([1, 0, 0, 0], scale_by_std=True, epsilon=1e-6)
    assert scaled == pytest.approx([0.75 / 0.500001] + [-0.25 / 0.500001] * 3)
    assert group_advantages([1, 0, 0, 0], scale_by_std=True, epsilon=0.5) == pytest.approx(
        [0.75, -0.25, -0.25, -0.25]
    )


def test_masked_episodes_are_excluded_not_counted_as_zero() -> None:
    # over the unmasked [1, 0, 0] the mean is 1/3; counting masked as 0 would make it 1/5
    assert group_advantages([1, None, 0, None, 0]) == pytest.approx(
        [2 / 3, None, -1 / 3, None, -1 / 3]
    )
    group = Group("t", {"a": 1.0, "b": None, "c": 0.0})
    assert group.advantages() == pytest.approx({"a": 0.5, "c": -0.5})
    assert group.masked_episodes == 1


def test_a_group_with_every_episode_masked_has_no_advantages() -> None:
    assert group_advantages([None, None]) == [None, None]
    assert Group("t", {"a": None}).advantages() == {}


# --- dynamic sampling ------------------------------------------------------------------------


def _group(task: str, *rewards: float | None) -> Group:
    return Group(task, {f"{task}-{i}": reward for i, reward in enumerate(rewards)})


def test_uniform_groups_are_dropped_and_counted() -> None:
    groups = [
        _group("mixed", 1, 0, 0, 1),
        _group("all-ones", 1, 1, 1, 1),
        _group("all-zeros", 0, 0, 0, 0),
        _group("ones-and-masked", 1, None, 1, None),  # uniform once the masked are left out
        _group("mixed-masked", None, 1, 0, 0),
        _group("one-left", None, None, None, 0),
        _group("all-masked", None, None, None, None),
    ]
    selection = select_groups(groups)
    assert [group.task_id for group in selection.kept] == ["mixed", "mixed-masked"]
    assert selection.dropped_uniform == 4
    assert selection.dropped_masked == 1
    assert selection.masked_episodes == 2 + 1 + 3 + 4


def test_fill_status_says_full_or_exhausted_with_the_counts() -> None:
    first = select_groups([_group("a", 1, 0), _group("b", 1, 1), _group("c", None, 0)])
    status = FillStatus(first, target_groups=2, extra_rounds=0, max_extra_rounds=2)
    assert (status.full, status.exhausted, status.done, status.groups_needed) == (
        False, False, False, 1,
    )  # fmt: skip
    batch = first + select_groups([_group("d", 0, 0)])
    status = FillStatus(batch, target_groups=2, extra_rounds=1, max_extra_rounds=2)
    assert not status.done
    batch += select_groups([_group("e", 0, 1), _group("f", 1, 0)])
    status = FillStatus(batch, target_groups=2, extra_rounds=2, max_extra_rounds=2)
    assert (status.full, status.exhausted, status.groups_needed) == (True, False, 0)
    assert status.metrics() == {
        "kept_groups": 3.0,
        "target_groups": 2.0,
        "dropped_uniform_groups": 3.0,
        "dropped_masked_groups": 0.0,
        "masked_episodes": 1.0,
        "extra_rounds": 2.0,
        "batch_full": 1.0,
    }
    starved = FillStatus(Selection(), target_groups=2, extra_rounds=3, max_extra_rounds=3)
    assert (starved.full, starved.exhausted, starved.done) == (False, True, True)
    with pytest.raises(ValueError, match="target_groups"):
        FillStatus(Selection(), target_groups=0, extra_rounds=0, max_extra_rounds=1)


# --- the loss on hand-built ratios -----------------------------------------------------------


def _loss_at(ratio: float, advantage: float, **config: float):
    new = torch.tensor([math.log(ratio)], requires_grad=True)
    result = policy_loss(
        new,
        torch.zeros(1),
        torch.tensor([advantage]),
        torch.ones(1, dtype=torch.bool),
        config=PolicyLossConfig(**config),
    )
    result.loss.backward()
    assert new.grad is not None
    return result, float(new.grad)


@pytest.mark.parametrize(
    ("ratio", "advantage", "loss", "clipped"),
    [
        (1.1, 1.0, -1.1, False),  # inside [0.8, 1.28]
        (1.1, -1.0, 1.1, False),
        (1.5, 1.0, -1.28, True),  # above the high bound, positive advantage: capped at 1.28
        (1.5, -1.0, 1.5, False),  # above, negative: the unclipped term is the larger loss
        (0.5, 1.0, -0.5, False),  # below, positive: unclipped is larger
        (0.5, -1.0, 0.8, True),  # below the low bound, negative advantage: floored at 0.8
        (1.5, 2.0, -2.56, True),
        (0.5, -2.0, 1.6, True),
    ],
)
def test_clipping_gives_the_specified_loss_and_clipfrac(
    ratio: float, advantage: float, loss: float, clipped: bool
) -> None:
    result, grad = _loss_at(ratio, advantage)
    assert float(result.loss.detach()) == pytest.approx(loss)
    assert result.metrics["pg_loss"] == pytest.approx(loss)
    assert result.metrics["pg_clipfrac"] == float(clipped)
    assert result.metrics["pg_clipfrac_lower"] == 0.0
    assert result.metrics["ppo_kl"] == pytest.approx(-math.log(ratio))
    # a clipped token passes no gradient; otherwise d(-A r)/d(log r) = -A r
    assert grad == pytest.approx(0.0 if clipped else -advantage * ratio)


def test_dual_clip_caps_a_negative_advantage_when_on() -> None:
    result, grad = _loss_at(4.0, -1.0)
    assert float(result.loss.detach()) == pytest.approx(4.0)
    result, grad = _loss_at(4.0, -1.0, clip_ratio_c=3.0)
    assert float(result.loss.detach()) == pytest.approx(3.0)
    assert result.metrics["pg_clipfrac_lower"] == 1.0
    assert grad == 0.0
    result, _ = _loss_at(4.0, 1.0, clip_ratio_c=3.0)  # positive advantages are not dual-clipped
    assert float(result.loss.detach()) == pytest.approx(-1.28)
    assert result.metrics["pg_clipfrac_lower"] == 0.0


def test_clipfrac_is_the_fraction_of_unmasked_tokens_clipped() -> None:
    ratios = torch.tensor([1.5, 1.1, 0.5, 1.0, 3.0])  # the last token is masked out
    advantages = torch.tensor([1.0, 1.0, -1.0, -1.0, 1.0])
    mask = torch.tensor([True, True, True, True, False])
    result = policy_loss(ratios.log(), torch.zeros(5), advantages, mask)
    assert result.tokens == 4
    assert result.metrics["pg_clipfrac"] == pytest.approx(2 / 4)
    assert float(result.loss.detach()) == pytest.approx((-1.28 - 1.1 + 0.8 + 1.0) / 4)


def test_k3_kl_is_reported_and_added_only_with_a_coefficient() -> None:
    new = torch.tensor([0.0, -1.0])
    ref = torch.tensor([-0.5, -1.0])
    k3 = (math.exp(-0.5) + 0.5 - 1 + 0.0) / 2
    args = (new, new, torch.tensor([1.0, -1.0]), torch.ones(2, dtype=torch.bool))
    plain = policy_loss(*args, ref_log_probs=ref)
    assert plain.metrics["kl_loss"] == pytest.approx(k3)
    assert float(plain.loss.detach()) == pytest.approx(0.0)  # ratio 1: -(1) + (1) over 2 tokens
    with_kl = policy_loss(*args, ref_log_probs=ref, config=PolicyLossConfig(kl_coef=0.1))
    assert float(with_kl.loss.detach()) == pytest.approx(0.1 * k3)
    assert "kl_loss" not in policy_loss(*args).metrics
    with pytest.raises(ValueError, match="ref_log_probs"):
        policy_loss(*args, config=PolicyLossConfig(kl_coef=0.1))


def test_entropy_is_the_token_mean_of_the_given_entropies() -> None:
    args = (torch.zeros(3), torch.zeros(3), torch.ones(3), torch.tensor([True, True, False]))
    result = policy_loss(*args, entropies=torch.tensor([1.0, 2.0, 100.0]))
    assert result.metrics["entropy"] == pytest.approx(1.5)


# --- aggregation -----------------------------------------------------------------------------


def test_token_mean_weighs_every_token_not_every_sequence() -> None:
    # two episodes of 1 and 3 tokens, one per-token loss each: 4.0 and 1.0
    losses = torch.tensor([4.0, 1.0, 1.0, 1.0])
    mask = torch.ones(4, dtype=torch.bool)
    sequence_mean = (4.0 + 1.0) / 2
    assert float(token_mean(losses, mask)) == pytest.approx(7 / 4)
    assert float(token_mean(losses, mask)) != pytest.approx(sequence_mean)
    # the policy loss aggregates that way: ratio 1 gives a per-token loss of -A
    result = policy_loss(torch.zeros(4), torch.zeros(4), -losses, mask)
    assert float(result.loss.detach()) == pytest.approx(7 / 4)


def test_parts_with_the_batch_token_count_add_up_to_the_batch_loss() -> None:
    torch.manual_seed(0)
    new = torch.randn(10) * 0.3
    old, advantages = torch.zeros(10), torch.randn(10)
    mask = torch.rand(10) > 0.3
    whole = policy_loss(new, old, advantages, mask)
    cut = 4
    parts = [
        policy_loss(new[s], old[s], advantages[s], mask[s], loss_tokens=whole.tokens)
        for s in (slice(0, cut), slice(cut, 10))
    ]
    assert float(sum(part.loss for part in parts)) == pytest.approx(float(whole.loss.detach()))
    assert merge_metrics(parts) == pytest.approx(whole.metrics)


def test_per_token_repeats_each_episode_value_over_its_tokens() -> None:
    assert per_token([0.5, -0.25], [2, 3]).tolist() == [0.5, 0.5, -0.25, -0.25, -0.25]


def test_token_tensors_must_be_flat_and_of_one_shape() -> None:
    with pytest.raises(ValueError, match="flat"):
        policy_loss(torch.zeros(1, 2), torch.zeros(1, 2), torch.zeros(1, 2), torch.ones(1, 2))
    with pytest.raises(ValueError, match="advantages"):
        policy_loss(torch.zeros(2), torch.zeros(2), torch.zeros(3), torch.ones(2))


# --- one optimizer step on the tiny model ---------------------------------------------------

PROMPT = (
    "<|im_start|>user\nOpen the Clock app and switch off the 7:30 alarm, then tell me when "
    "you are done.<|im_end|>\n<|im_start|>assistant\n"
)
ANSWERS = ('{"action": "tap", "x": 120, "y": 640}', '{"action": "swipe", "direction": "up"}')
LR = 1e-3


@pytest.fixture(scope="module")
def loaded(tiny_seed0: Path) -> tuple[torch.nn.Module, Processing, dict[str, torch.Tensor]]:
    model, processing = load_for_training(
        tiny_seed0, dtype=torch.float32, device=torch.device("cpu")
    )
    initial = {name: value.clone() for name, value in model.state_dict().items()}
    return model, processing, initial


@pytest.fixture
def tiny(
    loaded: tuple[torch.nn.Module, Processing, dict[str, torch.Tensor]],
) -> tuple[torch.nn.Module, Processing]:
    """The tiny model as loaded for training, its weights reset for each test."""
    model, processing, initial = loaded
    model.load_state_dict(initial)
    model.zero_grad(set_to_none=True)
    return model, processing


def _episode(processing: Processing, answer: str) -> EncodedExample:
    prompt = encode_completion(processing, PROMPT)
    generated = encode_completion(processing, answer)
    ids = torch.tensor(prompt + generated)
    labels = torch.cat([torch.full((len(prompt),), IGNORE_INDEX), torch.tensor(generated)])
    return EncodedExample(ids, labels)


def _row(tiny: tuple[torch.nn.Module, Processing]) -> tuple[PackedRow, list[int]]:
    model, processing = tiny
    episodes = [_episode(processing, answer) for answer in ANSWERS]
    return pack_row(model, episodes), [episode.target_tokens for episode in episodes]


def _episode_log_probs(model: torch.nn.Module, row: PackedRow, counts: list[int]) -> list[float]:
    with torch.no_grad():
        return [float(part.sum()) for part in token_log_probs(model, row).split(counts)]


def _step(
    model: torch.nn.Module,
    row: PackedRow,
    counts: list[int],
    advantages: list[float],
    kept: list[bool],
) -> None:
    """One on-policy GRPO step (old log-probs = the current ones) with plain SGD."""
    log_probs = token_log_probs(model, row)
    mask = per_token([float(k) for k in kept], counts).bool()
    result = policy_loss(log_probs, log_probs.detach(), per_token(advantages, counts), mask)
    optimizer = torch.optim.SGD(model.parameters(), lr=LR)
    optimizer.zero_grad()
    result.loss.backward()
    optimizer.step()


@pytest.mark.parametrize("advantage", [1.0, -1.0])
def test_a_step_moves_the_sampled_tokens_log_prob_with_the_advantage_sign(
    tiny: tuple[torch.nn.Module, Processing], advantage: float
) -> None:
    model = tiny[0]
    row, counts = _row(tiny)
    before = _episode_log_probs(model, row, counts)
    _step(model, row, counts, [advantage, 0.0], [True, False])
    after = _episode_log_probs(model, row, counts)
    change = after[0] - before[0]
    assert math.copysign(1.0, change) == advantage
    assert abs(change) > 1e-3, change


def test_a_group_step_raises_the_success_and_lowers_the_failure(
    tiny: tuple[torch.nn.Module, Processing],
) -> None:
    model = tiny[0]
    row, counts = _row(tiny)
    advantages = Group("clock", {"ok": 1.0, "failed": 0.0, "env-error": None}).advantages()
    before = _episode_log_probs(model, row, counts)
    _step(model, row, counts, [advantages["ok"], advantages["failed"]], [True, True])
    after = _episode_log_probs(model, row, counts)
    assert after[0] > before[0]
    assert after[1] < before[1]


@pytest.mark.parametrize("case", ["masked", "zero advantage"])
def test_a_masked_or_zero_advantage_batch_leaves_the_model_unchanged(
    tiny: tuple[torch.nn.Module, Processing], case: str
) -> None:
    model = tiny[0]
    row, counts = _row(tiny)
    params = {name: p.detach().clone() for name, p in model.named_parameters()}
    before = _episode_log_probs(model, row, counts)
    if case == "masked":
        _step(model, row, counts, [1.0, -1.0], [False, False])
    else:
        _step(model, row, counts, [0.0, 0.0], [True, True])
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    assert grads
    assert all(bool((grad == 0).all()) for grad in grads)
    assert all(torch.equal(p, params[name]) for name, p in model.named_parameters())
    assert _episode_log_probs(model, row, counts) == before


def test_a_masked_episode_packed_with_others_adds_no_gradient(
    tiny: tuple[torch.nn.Module, Processing],
) -> None:
    """Whatever the masked episode's advantage and old log-probs, the gradient is the same."""
    model = tiny[0]
    row, counts = _row(tiny)
    mask = per_token([1.0, 0.0], counts).bool()
    grads = []
    for masked_advantage, masked_old in ((5.0, 0.0), (-5.0, -30.0)):
        model.zero_grad()
        log_probs = token_log_probs(model, row)
        old = torch.cat([log_probs[: counts[0]].detach(), torch.full((counts[1],), masked_old)])
        advantages = per_token([1.0, masked_advantage], counts)
        policy_loss(log_probs, old, advantages, mask).loss.backward()
        grads.append([p.grad.clone() for p in model.parameters() if p.grad is not None])
    assert all(torch.equal(a, b) for a, b in zip(*grads, strict=True))


def test_episode_balancing_weighs_every_episode_the_same() -> None:
    from phonebuddy.training.grpo import episode_balanced

    # one group: a 2-step success (A=+0.5) and a 6-step failure (A=-0.5), 10 tokens a step
    ids = ["win"] * 2 + ["lose"] * 6
    advantages = [0.5] * 2 + [-0.5] * 6
    counts = [10] * 8
    balanced = episode_balanced(advantages, ids, counts)
    token_weight = per_token(balanced, counts)
    plain = per_token(advantages, counts)
    # every episode's total token weight is the same size, and they cancel as the group does
    win, lose = float(token_weight[:20].sum()), float(token_weight[20:].sum())
    assert math.isclose(win, -lose)
    assert math.isclose(win, 0.5 * 40)  # the mean episode length (40 tokens) times A
    # under a plain token-mean the longer failure dominates: an action both episodes took at
    # each step is pushed down on balance, though the advantages sum to zero per episode
    assert float(plain.sum()) < 0
    assert math.isclose(float(token_weight.sum()), 0.0, abs_tol=1e-6)
    assert episode_balanced([], [], []) == []
    with pytest.raises(ValueError, match="one advantage"):
        episode_balanced([1.0], ["a", "b"], [1, 1])
