"""Per-row sampling: filtering, seeding, and what `RowSampler` records and forces each step.

`RowSampler.__call__` is driven directly with small score tensors over a ten-token vocabulary,
as `generate` would call it once per step; no model is involved.
"""

import math
from collections.abc import Sequence

import pytest
import torch

from phonebuddy.policy.backend import SamplingParams, TokenInfo
from phonebuddy.policy.sampling import (
    RowSampler,
    RowState,
    _filtered_probs,
    cut_at_stop,
    make_row,
)

VOCAB = ["<eos>", "a", "b", "c", "d", " ", "\n", "x", "<im_end>", "<pad>"]
EOS, A, B, C, D, SPACE, NEWLINE, X, IM_END, PAD = range(10)


def token_text(token: int) -> str:
    return VOCAB[token]


def decode(tokens: list[int]) -> str:
    return "".join(VOCAB[token] for token in tokens)


def sampler(rows: Sequence[RowState], *, eos_ids: Sequence[int] = (EOS, IM_END)) -> RowSampler:
    return RowSampler(
        rows, eos_id=EOS, pad_id=PAD, token_text=token_text, decode=decode, eos_ids=eos_ids
    )


def peaked(*favourites: int) -> torch.Tensor:
    """Scores for one step: row i strongly prefers token `favourites[i]`."""
    scores = torch.zeros(len(favourites), len(VOCAB))
    for row, token in enumerate(favourites):
        scores[row, token] = 10.0
    return scores


def flat(rows: int) -> torch.Tensor:
    """Scores for one step that make every ordinary token roughly equally likely (`x` a little
    more than the rest) and the special ones impossible."""
    scores = torch.linspace(0.0, 0.5, len(VOCAB))
    scores[X] = 0.6
    scores[[EOS, IM_END, PAD]] = float("-inf")
    return scores.repeat(rows, 1)


def step(processor: RowSampler, scores: torch.Tensor) -> list[int]:
    """One generate step: the token each row is forced to, checked to be a one-hot choice."""
    input_ids = torch.zeros(scores.shape[0], 3, dtype=torch.long)
    forced = processor(input_ids, scores)  # type: ignore[arg-type]
    assert forced.shape == scores.shape
    chosen = [int(i) for i in torch.argmax(forced, dim=-1)]
    for row, token in enumerate(chosen):
        assert forced[row, token] == 0.0
        assert torch.isinf(forced[row]).sum() == len(VOCAB) - 1
    return chosen


GREEDY = SamplingParams(temperature=0, max_tokens=16)


# -- _filtered_probs ---------------------------------------------------------------------------


def test_filtered_probs_without_filters_is_the_tempered_softmax() -> None:
    logits = torch.tensor([1.0, 2.0, 0.5, -1.0])
    probs = _filtered_probs(logits, SamplingParams(temperature=0.5))
    assert torch.allclose(probs, torch.softmax(logits / 0.5, dim=-1))


def test_top_k_keeps_only_the_k_most_likely_tokens_renormalised() -> None:
    logits = torch.tensor([0.1, 3.0, 0.2, 2.0, 1.0])
    probs = _filtered_probs(logits, SamplingParams(top_k=2))
    assert probs.nonzero().flatten().tolist() == [1, 3]
    assert torch.allclose(probs[[1, 3]], torch.softmax(torch.tensor([3.0, 2.0]), dim=-1))


@pytest.mark.parametrize("top_k", [None, 0, 5, 50])
def test_top_k_that_is_unset_or_not_below_the_vocabulary_filters_nothing(
    top_k: int | None,
) -> None:
    logits = torch.tensor([0.1, 3.0, 0.2, 2.0, 1.0])
    probs = _filtered_probs(logits, SamplingParams(top_k=top_k))
    assert torch.allclose(probs, torch.softmax(logits, dim=-1))


def test_top_p_keeps_the_smallest_set_reaching_p_in_original_positions() -> None:
    # Probabilities 0.05, 0.5, 0.15, 0.3 (deliberately not sorted).
    logits = torch.log(torch.tensor([0.05, 0.5, 0.15, 0.3]))
    probs = _filtered_probs(logits, SamplingParams(top_p=0.6))
    assert probs.nonzero().flatten().tolist() == [1, 3]
    kept = probs[[1, 3]] / probs[[1, 3]].sum()
    assert torch.allclose(kept, torch.tensor([0.5 / 0.8, 0.3 / 0.8]))


def test_tiny_top_p_still_keeps_the_most_likely_token() -> None:
    logits = torch.tensor([0.0, 1.0, 4.0, 2.0])
    probs = _filtered_probs(logits, SamplingParams(top_p=0.01))
    assert probs.nonzero().flatten().tolist() == [2]


def test_top_k_and_top_p_combine() -> None:
    logits = torch.log(torch.tensor([0.4, 0.3, 0.2, 0.1]))
    probs = _filtered_probs(logits, SamplingParams(top_k=3, top_p=0.5))
    # top_k leaves 0.4/0.9, 0.3/0.9, 0.2/0.9; top_p 0.5 then needs the first two.
    assert probs.nonzero().flatten().tolist() == [0, 1]


# -- make_row seeding --------------------------------------------------------------------------


def draws(row: RowState) -> list[float]:
    return torch.rand(8, generator=row.generator).tolist()


def test_same_seed_and_index_give_the_same_random_stream() -> None:
    params = SamplingParams(seed=1234)
    assert draws(make_row(params, 2)) == draws(make_row(params, 2))


def test_same_seed_with_another_sample_index_gives_another_stream() -> None:
    params = SamplingParams(seed=1234)
    assert draws(make_row(params, 0)) != draws(make_row(params, 1))


def test_another_seed_gives_another_stream() -> None:
    assert draws(make_row(SamplingParams(seed=1), 0)) != draws(make_row(SamplingParams(seed=2), 0))


def test_negative_and_huge_seeds_are_accepted() -> None:
    for seed in (-1, 2**70):
        params = SamplingParams(seed=seed)
        assert draws(make_row(params, 0)) == draws(make_row(params, 0))


def test_new_row_starts_empty_and_unfinished() -> None:
    row = make_row(GREEDY, 0)
    assert (row.tokens, row.logprobs, row.finish, row.ended, row.done) == (
        [],
        [],
        None,
        False,
        False,
    )


# -- RowSampler: choosing tokens ---------------------------------------------------------------


def test_greedy_row_takes_the_argmax_and_records_it() -> None:
    row = make_row(GREEDY, 0)
    processor = sampler([row])
    assert step(processor, peaked(C)) == [C]
    assert step(processor, peaked(A)) == [A]
    assert row.tokens == [C, A]
    assert row.finish is None


def test_seeded_rows_sample_the_same_tokens_whatever_shares_the_batch() -> None:
    params = SamplingParams(temperature=1.0, seed=99, max_tokens=30)
    alone = make_row(params, 0)
    processor = sampler([alone])
    together = [make_row(SamplingParams(temperature=1.0), 0), make_row(params, 0)]
    batch = sampler(together)
    for _ in range(20):
        step(processor, flat(1))
        step(batch, flat(2))
    assert alone.tokens == together[1].tokens
    assert len(alone.tokens) == 20
    assert len(set(alone.tokens)) > 1  # it really sampled


def test_rows_with_different_sample_indexes_sample_different_tokens() -> None:
    params = SamplingParams(temperature=1.0, seed=99, max_tokens=30)
    rows = [make_row(params, 0), make_row(params, 1)]
    processor = sampler(rows)
    for _ in range(20):
        step(processor, flat(2))
    assert rows[0].tokens != rows[1].tokens


def test_top_k_one_always_samples_the_argmax() -> None:
    row = make_row(SamplingParams(temperature=1.5, top_k=1, seed=3), 0)
    processor = sampler([row])
    for _ in range(10):
        assert step(processor, flat(1)) == [X]
    assert row.tokens == [X] * 10


# -- RowSampler: ending rows -------------------------------------------------------------------


def test_each_row_is_forced_to_eos_at_its_own_max_tokens_then_padded() -> None:
    rows = [
        make_row(SamplingParams(temperature=0, max_tokens=2), 0),
        make_row(SamplingParams(temperature=0, max_tokens=4), 0),
    ]
    processor = sampler(rows)
    steps = [step(processor, peaked(A, B)) for _ in range(6)]
    assert [s[0] for s in steps] == [A, A, EOS, PAD, PAD, PAD]
    assert [s[1] for s in steps] == [B, B, B, B, EOS, PAD]
    assert [row.tokens for row in rows] == [[A, A], [B, B, B, B]]
    assert [row.finish for row in rows] == ["length", "length"]
    assert all(row.ended for row in rows)


def test_zero_max_tokens_ends_the_row_at_once() -> None:
    row = make_row(SamplingParams(temperature=0, max_tokens=0), 0)
    assert step(sampler([row]), peaked(A)) == [EOS]
    assert (row.tokens, row.finish) == ([], "length")


@pytest.mark.parametrize("eos", [EOS, IM_END])
def test_a_sampled_eos_finishes_with_stop_and_is_recorded_but_not_in_the_text(eos: int) -> None:
    """As vLLM's `token_ids`: the end token is generated (RL trains it), the text omits it."""
    row = make_row(SamplingParams(temperature=0, max_tokens=8, logprobs=True), 0)
    processor = sampler([row])
    assert step(processor, peaked(C)) == [C]
    assert step(processor, peaked(eos)) == [eos]
    assert row.tokens == [C, eos]
    assert row.text_tokens == [C]
    assert [info.token for info in row.logprobs] == ["c", VOCAB[eos]]
    assert row.logprobs[1].logprob == pytest.approx(
        float(torch.log_softmax(peaked(eos)[0], -1)[eos])
    )
    assert (row.finish, row.ended, row.sampled_end) == ("stop", True, True)
    assert step(processor, peaked(A)) == [PAD]
    assert row.tokens == [C, eos]


def test_an_eos_forced_by_the_budget_or_a_stop_string_is_not_recorded() -> None:
    """The model never chose it: it is not a sampled token."""
    budget = make_row(SamplingParams(temperature=0, max_tokens=1, logprobs=True), 0)
    stopped = make_row(SamplingParams(temperature=0, max_tokens=8, stop=("a",), logprobs=True), 0)
    processor = sampler([budget, stopped])
    assert step(processor, peaked(C, A)) == [C, A]
    assert step(processor, peaked(C, A)) == [EOS, EOS]
    for row, token in ((budget, C), (stopped, A)):
        assert row.tokens == row.text_tokens == [token]
        assert len(row.logprobs) == 1
        assert not row.sampled_end


def test_eos_ids_default_to_the_single_eos_id() -> None:
    row = make_row(GREEDY, 0)
    processor = RowSampler([row], eos_id=EOS, pad_id=PAD, token_text=token_text, decode=decode)
    assert step(processor, peaked(IM_END)) == [IM_END]
    assert row.tokens == [IM_END]
    assert row.finish is None
    assert step(processor, peaked(EOS)) == [EOS]
    assert row.finish == "stop"
    assert row.text_tokens == [IM_END]


def test_stop_string_across_tokens_finishes_the_row_with_stop() -> None:
    row = make_row(SamplingParams(temperature=0, max_tokens=16, stop=("b\nc",)), 0)
    other = make_row(GREEDY, 0)
    processor = sampler([row, other])
    assert step(processor, peaked(A, D)) == [A, D]
    assert step(processor, peaked(B, D)) == [B, D]
    assert row.finish is None
    assert step(processor, peaked(NEWLINE, D)) == [NEWLINE, D]
    assert row.finish is None
    assert step(processor, peaked(C, D)) == [C, D]
    assert (row.finish, row.ended) == ("stop", False)
    # The stop string's last token is kept; the next step hands `generate` EOS, then padding.
    assert step(processor, peaked(A, D)) == [EOS, D]
    assert row.ended
    assert step(processor, peaked(A, D)) == [PAD, D]
    assert row.tokens == [A, B, NEWLINE, C]
    assert other.tokens == [D] * 6
    assert other.finish is None


def test_any_of_several_stop_strings_ends_the_row() -> None:
    row = make_row(SamplingParams(temperature=0, stop=("zzz", "x")), 0)
    processor = sampler([row])
    step(processor, peaked(A))
    assert row.finish is None
    step(processor, peaked(X))
    assert row.finish == "stop"


def test_stop_string_in_the_wrong_order_does_not_end_the_row() -> None:
    row = make_row(SamplingParams(temperature=0, stop=("ab",)), 0)
    processor = sampler([row])
    for token in (B, A, SPACE, B):
        step(processor, peaked(token))
    assert row.finish is None
    assert row.tokens == [B, A, SPACE, B]


# Byte-level BPE (Qwen's tokenizer) splits rare characters and emoji into several tokens that
# are each less than one character: the real tokenizer encodes "🛑" as three tokens.
BYTE_VOCAB = [b"", b"O", b"K", b"\xf0\x9f", b"\x9b", b"\x91", b" ", b"x", b"", b""]


def byte_decode(tokens: list[int]) -> str:
    return b"".join(BYTE_VOCAB[token] for token in tokens).decode("utf-8", errors="replace")


def test_stop_string_split_over_byte_tokens_ends_the_row() -> None:
    row = make_row(SamplingParams(temperature=0, max_tokens=16, stop=("🛑",)), 0)
    processor = RowSampler(
        [row], eos_id=EOS, pad_id=PAD, token_text=lambda t: byte_decode([t]), decode=byte_decode
    )
    for token in (1, 2, 3, 4, 5):
        step(processor, peaked(token))
    assert byte_decode(row.tokens) == "OK🛑"
    assert row.finish == "stop"


# -- RowSampler: logprobs ----------------------------------------------------------------------


def test_logprobs_record_the_token_its_logprob_and_top_alternatives() -> None:
    row = make_row(SamplingParams(temperature=0, logprobs=True, top_logprobs=3), 0)
    scores = torch.tensor([[0.0, 1.0, 2.5, 3.0, 0.5, 0.0, 0.0, 0.0, -2.0, 0.0]])
    step(sampler([row]), scores)
    expected = torch.log_softmax(scores[0], dim=-1)
    assert row.tokens == [C]
    [info] = row.logprobs
    assert info.token == "c"
    assert info.logprob == pytest.approx(float(expected[C]))
    assert [text for text, _ in info.top] == ["c", "b", "a"]
    assert [value for _, value in info.top] == pytest.approx(
        [float(expected[C]), float(expected[B]), float(expected[A])]
    )


def test_logprobs_are_under_the_raw_scores_not_the_tempered_ones() -> None:
    row = make_row(SamplingParams(temperature=0.3, seed=5, logprobs=True), 0)
    inf = float("inf")
    scores = torch.tensor([[-inf, 1.0, 2.0, 1.5, 0.5, 0.0, 0.0, 0.0, -inf, -inf]])
    processor = sampler([row])
    for _ in range(5):
        step(processor, scores)
    expected = torch.log_softmax(scores[0], dim=-1)
    assert len(row.tokens) == 5
    assert [info.token for info in row.logprobs] == [VOCAB[token] for token in row.tokens]
    assert [info.logprob for info in row.logprobs] == pytest.approx(
        [float(expected[token]) for token in row.tokens]
    )
    assert all(info.top == () for info in row.logprobs)


def test_no_logprobs_are_recorded_unless_asked() -> None:
    row = make_row(GREEDY, 0)
    step(sampler([row]), peaked(A))
    assert row.tokens == [A]
    assert row.logprobs == []


def test_half_precision_scores_get_a_forced_choice_of_the_same_dtype() -> None:
    row = make_row(SamplingParams(temperature=0, logprobs=True), 0)
    scores = peaked(B).half()
    forced = sampler([row])(torch.zeros(1, 3, dtype=torch.long), scores)  # type: ignore[arg-type]
    assert forced.dtype == torch.float16
    assert int(torch.argmax(forced)) == B
    expected = float(torch.log_softmax(scores[0].float(), dim=-1)[B])
    assert row.logprobs == [TokenInfo("b", row.logprobs[0].logprob)]
    assert row.logprobs[0].logprob == pytest.approx(expected)
    assert math.isfinite(expected)


# -- cut_at_stop -------------------------------------------------------------------------------


def test_cut_at_stop_returns_the_text_before_the_earliest_stop() -> None:
    assert cut_at_stop("tap here; then done. more", ["done", ";"]) == ("tap here", True)


def test_cut_at_stop_without_a_match_keeps_the_text() -> None:
    assert cut_at_stop("tap here", ["STOP"]) == ("tap here", False)
    assert cut_at_stop("tap here", []) == ("tap here", False)


def test_cut_at_stop_at_the_start_leaves_nothing() -> None:
    assert cut_at_stop("\n\nrest", ["\n\n"]) == ("", True)
