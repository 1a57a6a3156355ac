"""RL samples scored by the trainer's forward: packed (isolated as in SFT), the sampled ids only.

The models here have a slow-decaying linear-attention layer, so that anything reaching its state
from outside a sample (a packed neighbour, left padding) shows in the log-probabilities; random
init forgets within a few tokens and would hide it. End to end, the tiny model rolls out through
the broker on PhoneWorld, and the trainer's recomputation of every stored step's tokens matches
the log-probabilities the policy server sampled them with.
"""

from __future__ import annotations

import asyncio
import io
import math
from pathlib import Path

import pytest
import torch
from fastapi import FastAPI
from PIL import Image
from transformers import Qwen3_5ForConditionalGeneration

from phonebuddy.agent import PromptConfig, build_prompt
from phonebuddy.agent.prompt import ROLLOUT_ENABLE_THINKING
from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.policy.app import backend_for
from phonebuddy.policy.app import create_app as create_policy
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy_model import make_tiny
from phonebuddy.policy_model.inputs import EncodedPrompt
from phonebuddy.policy_model.tiny import make_image_processor, tiny_config
from phonebuddy.protocol import Episode, RolloutRequest, SourceMix, TaskSelection
from phonebuddy.protocol.episodes import SampledTokens, token_ids_sha256
from phonebuddy.rollouts import RolloutClient
from phonebuddy.storage import LocalStore
from phonebuddy.testing import NatsServer, serve_asgi_in_thread
from phonebuddy.training.batch import IGNORE_INDEX, EncodedExample, pack_row, token_types
from phonebuddy.training.isolation import (
    isolate_linear_attention,
    linear_attention_layers,
    packed_segments,
)
from phonebuddy.training.model import load_for_training
from phonebuddy.training.samples import (
    PromptMismatchError,
    SampleTooLongError,
    TokenSample,
    encode_sample,
    row_log_probs,
    sample_rows,
    sampled_log_probs,
    token_sample,
)
from phonebuddy.trajectories import TrajectoryStore

# float32 on CPU: the packed forward and the plain one differ by rounding only (~1e-6).
ATOL_PACKED = 1e-5
# The server's sampling forward (prefill, then one token at a time with a cache, rows left-padded
# in a batch) against the trainer's one packed forward, float32 on CPU: measured 9.5e-7 at most
# over six steps of ~1,500-token prompts whose batches held 71 left pads.
ATOL_SERVER = 1e-4
IM_END = 248046  # <|im_end|>: a token whose embedding is not zero (the pad token's row is)


def _slow_decay(model: torch.nn.Module) -> None:
    for layer in linear_attention_layers(model):
        with torch.no_grad():
            layer.A_log.fill_(math.log(1e-3))  # decay per token exp(-1e-3 * softplus) ~ 0.9995
            layer.dt_bias.fill_(-2.0)


@pytest.fixture(scope="module")
def model() -> Qwen3_5ForConditionalGeneration:
    torch.manual_seed(0)
    built = Qwen3_5ForConditionalGeneration(tiny_config()).float().eval()
    _slow_decay(built)
    isolate_linear_attention(built)
    return built


def _sample(prompt_tokens: int, generated: int, seed: int, image: bool = False) -> TokenSample:
    generator = torch.Generator().manual_seed(seed)
    prompt = torch.randint(10, 20_000, (prompt_tokens,), generator=generator).tolist()
    tokens = tuple(torch.randint(10, 20_000, (generated,), generator=generator).tolist())
    pixels = grid = None
    if image:
        config = tiny_config()
        picture = Image.new("RGB", (120 + seed, 200), (seed * 37 % 256, 90, 160))
        processed = make_image_processor()(images=[picture], return_tensors="pt")
        pixels, grid = processed["pixel_values"], processed["image_grid_thw"]
        pads = [config.image_token_id] * (int(grid.prod()) // 4)
        prompt = [*prompt[:5], config.vision_start_token_id, *pads, config.vision_end_token_id,
                  *prompt[5:]]  # fmt: skip
    return TokenSample(tuple(prompt), tokens, pixels, grid)


def _alone(model: torch.nn.Module, sample: TokenSample) -> torch.Tensor:
    """The sample's generated-token log-probs from a plain, unpacked forward of the model."""
    ids = torch.tensor([sample.prompt_ids + sample.token_ids])
    with torch.no_grad():
        logits = model(
            input_ids=ids, pixel_values=sample.pixel_values, image_grid_thw=sample.image_grid_thw,
            mm_token_type_ids=token_types(ids, model.config), use_cache=False,
        ).logits[0]  # fmt: skip
    start = len(sample.prompt_ids)
    predicting = torch.log_softmax(logits[start - 1 : -1].float(), dim=-1)
    return predicting.gather(-1, torch.tensor(sample.token_ids).unsqueeze(-1)).squeeze(-1)


SAMPLES = [
    _sample(37, 9, 1),
    _sample(101, 30, 2, image=True),
    _sample(13, 1, 3),
    _sample(70, 17, 4, image=True),
    _sample(55, 4, 5),
]


def test_packed_log_probs_equal_each_sample_scored_alone(model) -> None:
    capacity = 240
    rows = sample_rows(model, SAMPLES, capacity=capacity)
    assert len(rows) > 1
    assert any(len(row.members) > 1 for row in rows)  # really packed
    assert sorted(index for row in rows for index in row.members) == list(range(len(SAMPLES)))
    scored = sampled_log_probs(model, SAMPLES, capacity=capacity)
    for sample, values in zip(SAMPLES, scored, strict=True):
        assert values.shape == (len(sample.token_ids),)
        assert (values - _alone(model, sample)).abs().max().item() < ATOL_PACKED


def test_row_log_probs_carry_gradients(model) -> None:
    (row,) = sample_rows(model, SAMPLES[:2], capacity=1024)
    model.zero_grad(set_to_none=True)
    values = row_log_probs(model, row)
    assert [len(v) for v in values] == [len(SAMPLES[i].token_ids) for i in row.members]
    torch.cat(values).sum().backward()
    head = model.get_output_embeddings().weight.grad
    assert head is not None
    assert head.abs().sum() > 0
    model.zero_grad(set_to_none=True)


def _sampled(prompt: list[int], tokens: tuple[int, ...]) -> SampledTokens:
    return SampledTokens(
        token_ids=tokens, prompt_tokens=len(prompt), prompt_sha256=token_ids_sha256(prompt)
    )


def test_a_rebuilt_prompt_must_be_the_one_the_tokens_followed() -> None:
    prompt = EncodedPrompt(input_ids=[5, 6, 7], pixel_values=None, image_grid_thw=None)
    sample = token_sample(prompt, _sampled([5, 6, 7], (8, IM_END)), where="step 0")
    assert (sample.prompt_ids, sample.token_ids) == ((5, 6, 7), (8, IM_END))
    example = sample.example()
    assert example.labels.tolist() == [IGNORE_INDEX] * 3 + [8, IM_END]
    with pytest.raises(PromptMismatchError, match="step 3: the rebuilt prompt"):
        token_sample(prompt, _sampled([5, 6, 9], (8,)), where="step 3")


def test_a_sample_longer_than_a_row_is_refused(model) -> None:
    with pytest.raises(SampleTooLongError, match="longer than a row of 40 tokens"):
        sample_rows(model, [SAMPLES[0], SAMPLES[2]], capacity=40)


def _through_linear_attention(
    model: torch.nn.Module, sample: TokenSample, pads: int
) -> torch.Tensor:
    """The sample's log-probs after `pads` left pads that reach the linear-attention layer (one
    segment there) while the full-attention layer cannot see them (positions restart)."""
    pad = EncodedExample(torch.full((pads,), IM_END), torch.full((pads,), IGNORE_INDEX))
    row = pack_row(model, [pad, sample.example()])
    with torch.no_grad(), packed_segments(model, [row.tokens]):
        hidden = model.model(
            input_ids=row.input_ids, position_ids=row.position_ids,
            mm_token_type_ids=row.mm_token_type_ids, use_cache=False,
        ).last_hidden_state[0, :-1]  # fmt: skip
    targets = row.labels[0, 1:]
    keep = targets != IGNORE_INDEX
    logits = model.get_output_embeddings()(hidden[keep]).float()
    return torch.log_softmax(logits, -1).gather(-1, targets[keep].unsqueeze(-1)).squeeze(-1)


def _left_padded_with_mask(model: torch.nn.Module, sample: TokenSample, pads: int) -> torch.Tensor:
    """The same left padding as `generate` batches it: a 2-D attention mask marks the pads."""
    ids = torch.tensor([[IM_END] * pads + list(sample.prompt_ids + sample.token_ids)])
    mask = torch.ones_like(ids)
    mask[0, :pads] = 0
    with torch.no_grad():
        logits = model(
            input_ids=ids, attention_mask=mask, mm_token_type_ids=torch.zeros_like(ids),
            use_cache=False,
        ).logits[0]  # fmt: skip
    start = pads + len(sample.prompt_ids)
    predicting = torch.log_softmax(logits[start - 1 : -1].float(), dim=-1)
    return predicting.gather(-1, torch.tensor(sample.token_ids).unsqueeze(-1)).squeeze(-1)


@pytest.mark.parametrize("pads", [1, 7, 50])
def test_left_padding_through_the_linear_attention_layers_changes_log_probs(model, pads) -> None:
    """Why the trainer never left-pads: its packed forward passes no 2-D mask, and pads that
    reach a Gated-DeltaNet layer change its state (measured: 0.04-0.06 in log-probability for
    1-50 pads here, 1e-3 with random init). With the mask, as the policy server's batched
    `generate` passes it, transformers zeroes the pads before those layers: exact."""
    sample = SAMPLES[0]
    [alone] = sampled_log_probs(model, [sample], capacity=1024)
    leaked = (_through_linear_attention(model, sample, pads) - alone).abs().max().item()
    assert leaked > 100 * ATOL_SERVER
    masked = (_left_padded_with_mask(model, sample, pads) - alone).abs().max().item()
    assert masked < ATOL_PACKED


# -- end to end: roll out, store, recompute ----------------------------------------------------

TEMPLATES = ("weather.sunrise", "travel.book_earliest")  # the shortest and longest instruction
API_KEY = "token-fidelity-key"
SERVED_NAME = "tiny-slow"


@pytest.fixture(scope="module")
def slow_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = make_tiny(tmp_path_factory.mktemp("tiny") / "tiny-slow", seed=0)
    model = Qwen3_5ForConditionalGeneration.from_pretrained(folder)
    _slow_decay(model)
    model.save_pretrained(folder)
    return folder


async def _roll_out(nats: NatsSettings, store: TrajectoryStore, run_id: str) -> list[Episode]:
    request = RolloutRequest(
        run_id=run_id,
        tasks=TaskSelection(template_ids=TEMPLATES, seeds=(0,)),
        policy={"endpoint": "policy", "model": SERVED_NAME},  # type: ignore[arg-type]
        group_size=1,
        mix=SourceMix(sim=1.0),
        sampling={"temperature": 1.0, "max_tokens": 24, "seed": 11},  # type: ignore[arg-type]
        step_budget=3,
    )
    async with RolloutClient.connect(nats) as client:
        await client.run(request, timeout_s=240)
    return [episode async for episode in store.episodes(run_id)]


def _batches(policy: FastAPI) -> tuple[float, float]:
    """(batches, batches of a single row) the policy server generated."""
    (family,) = policy.state.service.metrics.batch_rows.collect()
    count = next(s.value for s in family.samples if s.name.endswith("_count"))
    single = next(
        s.value for s in family.samples if s.name.endswith("_bucket") and s.labels["le"] == "1.0"
    )
    return count, single


async def _step_samples(
    store: TrajectoryStore, episodes: list[Episode], processing
) -> tuple[list[TokenSample], list[SampledTokens]]:
    """Each stored step's prompt rebuilt as the broker built it, encoded as the server encodes
    it (checked against the stored digest), with the stored tokens."""
    samples, sampled = [], []
    for episode in episodes:
        for position, step in enumerate(episode.steps):
            assert step.sample is not None, f"{episode.episode_id} step {step.index}"
            prompt = build_prompt(
                episode.task, episode.steps[:position], step.observation, config=PromptConfig()
            )
            images = []
            for ref in prompt.frames:
                with Image.open(io.BytesIO(await store.get_frame(ref))) as image:
                    images.append(image.convert("RGB"))
            text = prompt.render(enable_thinking=ROLLOUT_ENABLE_THINKING)
            where = f"{episode.episode_id} step {step.index}"
            samples.append(encode_sample(processing, text, images, step.sample, where=where))
            sampled.append(step.sample)
    return samples, sampled


@pytest.mark.e2e
@pytest.mark.timeout(600)
def test_the_trainer_scores_rolled_out_tokens_as_the_server_sampled_them(
    tmp_path: Path, slow_checkpoint: Path, nats_server: NatsServer
) -> None:
    nats = NatsSettings(url=nats_server.url, user=nats_server.user, password=nats_server.password)
    # Two rows per batch, and a lone request waits for a partner: the two episodes' steps are
    # generated together, their different prompt lengths left-padded.
    policy_settings = PolicySettings(
        model=str(slow_checkpoint), api_key=API_KEY, served_model_name=SERVED_NAME,
        max_batch_rows=2, batch_wait_ms=1000, max_model_len=4096,
    )  # fmt: skip
    policy = create_policy(policy_settings, backend_for(policy_settings))
    world = create_world(WorldSettings(devices=2, instance_id="tokens", port=0), nats)
    root = tmp_path / "rollouts"
    root.mkdir()
    with serve_asgi_in_thread(policy) as policy_url:
        broker = create_broker(
            BrokerSettings(
                instance_id="tokens", workers=2, port=0, default_store_url=f"local:{root}",
                policy_url=f"{policy_url}/v1", policy_api_key=API_KEY,  # type: ignore[arg-type]
            ),
            nats,
        )  # fmt: skip
        with serve_asgi_in_thread(world), serve_asgi_in_thread(broker):
            store = TrajectoryStore(LocalStore(root))
            episodes = asyncio.run(_roll_out(nats, store, "token-fidelity"))
    assert len(episodes) == len(TEMPLATES)
    batches, single = _batches(policy)
    assert batches > single  # some steps were generated in a left-padded batch of two

    model, processing = load_for_training(
        slow_checkpoint, dtype=torch.float32, device=torch.device("cpu")
    )
    model.eval()
    samples, sampled = asyncio.run(_step_samples(store, episodes, processing))
    assert len(samples) == sum(len(episode.steps) for episode in episodes) >= 4
    recomputed = sampled_log_probs(model, samples, capacity=8192)
    worst = 0.0
    for tokens, values in zip(sampled, recomputed, strict=True):
        assert tokens.logprobs is not None
        worst = max(worst, (values - torch.tensor(tokens.logprobs)).abs().max().item())
    assert worst < ATOL_SERVER
