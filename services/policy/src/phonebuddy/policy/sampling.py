"""Per-row sampling inside one batched `generate`: each row keeps its own temperature, top-p,
top-k, seed, token budget and stop strings, so requests with different parameters share a batch.

transformers' `generate` runs greedy decoding over what this logits processor returns: for every
row it samples (or takes the argmax) from the raw logits, records the token and its
log-probability, and returns a one-hot score that makes the greedy step pick exactly that token.
A row that reached its budget or a stop string is forced to end-of-sequence.

What a row records follows vLLM's `token_ids` and `logprobs`: every sampled token, a sampled
end-of-sequence token included (it is part of what the model generated, and what an RL trainer
must train), but not the end-of-sequence `generate` is forced to after a budget or a stop string
(the model never chose it). Log-probabilities are the raw model's (`log_softmax` of the logits,
before temperature, top-k and top-p), as vLLM's default `--logprobs-mode raw_logprobs` returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch
from transformers import LogitsProcessor

from phonebuddy.policy.backend import Finish, SamplingParams, TokenInfo


@dataclass(slots=True)
class RowState:
    params: SamplingParams
    generator: torch.Generator
    tokens: list[int] = field(default_factory=list)  # as sampled, a sampled end token included
    logprobs: list[TokenInfo] = field(default_factory=list)
    finish: Finish | None = None
    ended: bool = False  # end-of-sequence handed to `generate`, which then pads the row
    sampled_end: bool = False  # the last of `tokens` is an end-of-sequence token

    @property
    def done(self) -> bool:
        return self.finish is not None

    @property
    def text_tokens(self) -> list[int]:
        """The tokens the answer's text is decoded from: all but a sampled end token."""
        return self.tokens[:-1] if self.sampled_end else self.tokens


def make_row(params: SamplingParams, sample_index: int) -> RowState:
    """A row whose random stream depends only on the request's seed and the sample's index, so
    the same seed gives the same samples whatever else shares the batch."""
    generator = torch.Generator(device="cpu")
    seed = params.seed + sample_index if params.seed is not None else random.getrandbits(63)
    generator.manual_seed(seed % 2**63)
    return RowState(params=params, generator=generator)


def _filtered_probs(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
    scaled = logits / params.temperature
    if params.top_k is not None and 0 < params.top_k < scaled.numel():
        kth = torch.topk(scaled, params.top_k).values[-1]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    probs = torch.softmax(scaled, dim=-1)
    if params.top_p < 1.0:
        sorted_probs, order = torch.sort(probs, descending=True)
        before = torch.cumsum(sorted_probs, dim=-1) - sorted_probs
        sorted_probs[before > params.top_p] = 0.0
        probs = torch.zeros_like(probs).scatter_(0, order, sorted_probs)
    return probs


class RowSampler(LogitsProcessor):
    def __init__(
        self,
        rows: Sequence[RowState],
        *,
        eos_id: int,
        pad_id: int,
        token_text: Callable[[int], str],
        decode: Callable[[list[int]], str],
        eos_ids: Sequence[int] = (),
    ) -> None:
        self.rows = list(rows)
        self.eos_id = eos_id
        self.pad_id = pad_id
        self.token_text = token_text
        self.decode = decode
        self.eos_ids: frozenset[int] = frozenset(eos_ids or {eos_id})

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        logits = scores.float().cpu()
        logprobs = torch.log_softmax(logits, dim=-1)
        chosen = [self._choose(row, logits[i], logprobs[i]) for i, row in enumerate(self.rows)]
        forced = torch.full_like(scores, float("-inf"))
        forced[torch.arange(len(chosen)), torch.tensor(chosen, device=scores.device)] = 0.0
        return forced  # type: ignore[return-value]

    def _choose(self, row: RowState, logits: torch.Tensor, logprobs: torch.Tensor) -> int:
        if row.ended:
            return self.pad_id
        if row.done:  # a stop string ended it on the previous step
            row.ended = True
            return self.eos_id
        if len(row.tokens) >= row.params.max_tokens:
            row.finish, row.ended = "length", True
            return self.eos_id
        if row.params.greedy:
            token = int(torch.argmax(logits))
        else:
            probs = _filtered_probs(logits, row.params)
            token = int(torch.multinomial(probs, 1, generator=row.generator))
        row.tokens.append(token)
        if row.params.logprobs:
            row.logprobs.append(self._token_info(row, token, logprobs))
        if token in self.eos_ids:
            row.finish, row.ended, row.sampled_end = "stop", True, True
            return token
        if row.params.stop and self._hit_stop(row):
            row.finish = "stop"
        return token

    def _token_info(self, row: RowState, token: int, logprobs: torch.Tensor) -> TokenInfo:
        top: tuple[tuple[str, float], ...] = ()
        if row.params.top_logprobs:
            values, ids = torch.topk(logprobs, row.params.top_logprobs)
            top = tuple(
                (self.token_text(int(i)), float(v))
                for v, i in zip(values.tolist(), ids.tolist(), strict=True)
            )
        return TokenInfo(self.token_text(token), float(logprobs[token]), top)

    def _hit_stop(self, row: RowState) -> bool:
        # A stop string spans at most as many tokens as it has UTF-8 bytes (byte-level BPE can
        # split one character into byte pieces); one more token covers a piece that started it.
        longest = max(len(stop.encode()) for stop in row.params.stop)
        tail = self.decode(row.tokens[-(longest + 1) :])
        return any(stop in tail for stop in row.params.stop)


def cut_at_stop(text: str, stops: Sequence[str]) -> tuple[str, bool]:
    """`text` up to the first stop string (excluded), and whether one was found."""
    positions = [text.find(stop) for stop in stops if stop in text]
    if not positions:
        return text, False
    return text[: min(positions)], True
