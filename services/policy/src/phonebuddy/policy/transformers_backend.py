"""The transformers backend: a Qwen-VL checkpoint on CPU or GPU, concurrent requests batched.

Prompts are built with the checkpoint's chat template (PhoneBuddy's Qwen3.5 template when the
tokenizer has none), images through the checkpoint's Qwen2-VL image processor (no torchvision),
`<|image_pad|>` expanded per image. A batch left-pads its rows and runs one `generate`, whose
sampling happens per row in `RowSampler`. Left padding is exact here because `generate` gets the
2-D attention mask: full attention masks the pads, and transformers zeroes them before the
Gated-DeltaNet layers, whose state therefore stays at its start (measured: a step's log-probs
from a batch with 71 pads equal the trainer's unpadded recomputation to 1e-6). Without that mask
pads would corrupt the linear-attention state (see `phonebuddy.training.samples`).

Reload loads the new weights on a separate thread while the old ones keep serving, then swaps one
reference: each batch uses the model it started with.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from PIL import Image
from transformers import (
    AutoModelForImageTextToText,
    GenerationConfig,
    LogitsProcessorList,
    PreTrainedModel,
    PreTrainedTokenizerBase,
    Qwen2VLImageProcessorPil,
)
from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import smart_resize
from transformers.utils import logging as hf_logging

from phonebuddy.policy.api import ChatCompletionRequest
from phonebuddy.policy.backend import EncodedPrompt, Generation, Sample, SamplingParams
from phonebuddy.policy.batcher import Batcher
from phonebuddy.policy.errors import BadRequestError, NotReadyError
from phonebuddy.policy.images import ImageFit
from phonebuddy.policy.sampling import RowSampler, RowState, cut_at_stop, make_row
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy_model.inputs import (
    Processing,
    PromptEncodingError,
    encode_prompt,
    load_processing,
    render_prompt,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LoadedModel:
    model: PreTrainedModel
    tokenizer: PreTrainedTokenizerBase
    image_processor: Qwen2VLImageProcessorPil
    version: str
    eos_ids: tuple[int, ...]
    pad_id: int
    max_model_len: int
    device: torch.device
    image_fit: ImageFit | None
    max_prompt_chars: int

    def token_text(self, token_id: int) -> str:
        return self.tokenizer.decode([token_id], skip_special_tokens=False)

    def decode(self, token_ids: list[int]) -> str:
        return self.tokenizer.decode(token_ids, skip_special_tokens=False)


@dataclass(slots=True)
class Encoded:
    input_ids: list[int]
    pixel_values: torch.Tensor | None
    image_grid_thw: torch.Tensor | None


@dataclass(slots=True)
class GenerateJob:
    prompt: Encoded
    params: SamplingParams
    n: int


def _device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def _dtype(name: str, device: torch.device) -> torch.dtype:
    if name == "auto":
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    return getattr(torch, name)


def processor_fit(processor: Qwen2VLImageProcessorPil) -> ImageFit | None:
    """The size and filter `processor` resizes an image to (its `smart_resize`): images resized
    so before they reach it are left as they are, so it sees the pixels it would have made."""
    if not processor.do_resize:
        return None
    factor = processor.patch_size * processor.merge_size
    low, high = processor.size.shortest_edge, processor.size.longest_edge

    def size(width: int, height: int) -> tuple[int, int]:
        rows, columns = smart_resize(height, width, factor=factor, min_pixels=low, max_pixels=high)
        return columns, rows

    return ImageFit(size=size, resample=int(processor.resample))


def max_prompt_chars(tokenizer: PreTrainedTokenizerBase, max_model_len: int) -> int:
    """The most characters of text `max_model_len` tokens can hold: no token covers more bytes
    of (normalized) text than the longest vocabulary entry has characters (byte-level vocabularies
    spell one byte per character), and NFC, the most a normalizer composes, turns at most three
    code points into two bytes (U+01D5). A longer text cannot fit, whatever it says."""
    longest = max(map(len, tokenizer.get_vocab()))
    return max_model_len * longest * 3 // 2


def load_model(folder: Path, *, version: str, settings: PolicySettings) -> LoadedModel:
    """Load a checkpoint folder (blocking: call it on a thread)."""
    hf_logging.disable_progress_bar()
    device = _device(settings.device)
    model = AutoModelForImageTextToText.from_pretrained(
        folder, dtype=_dtype(settings.dtype, device)
    ).to(device)
    model.eval()
    processing = load_processing(folder)  # the same loading as the training jobs'
    tokenizer, processor = processing.tokenizer, processing.image_processor
    eos = model.generation_config.eos_token_id
    eos_ids = [eos] if isinstance(eos, int) else list(eos or [])
    if tokenizer.eos_token_id is not None and tokenizer.eos_token_id not in eos_ids:
        eos_ids.append(tokenizer.eos_token_id)
    if not eos_ids:
        raise BadRequestError(f"{folder} names no end-of-sequence token", param="model")
    pad = model.generation_config.pad_token_id
    if pad is None:
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else eos_ids[0]
    text_config = model.config.get_text_config()
    limit = min(
        settings.max_model_len,
        int(getattr(text_config, "max_position_embeddings", settings.max_model_len)),
    )
    return LoadedModel(
        model=model,
        tokenizer=tokenizer,
        image_processor=processor,
        version=version,
        eos_ids=tuple(eos_ids),
        pad_id=int(pad),
        max_model_len=limit,
        device=device,
        image_fit=processor_fit(processor),
        max_prompt_chars=max_prompt_chars(tokenizer, limit),
    )


def _left_pad(rows: Sequence[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(row) for row in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for index, row in enumerate(rows):
        ids[index, width - len(row) :] = torch.tensor(row, dtype=torch.long)
        mask[index, width - len(row) :] = 1
    return ids, mask


def generate_rows(
    loaded: LoadedModel, prompts: Sequence[Encoded], rows: Sequence[RowState]
) -> None:
    """One batched `generate` over `rows` (row i continues `prompts[i]`); results land in rows."""
    model = loaded.model
    ids, mask = _left_pad([prompt.input_ids for prompt in prompts], loaded.pad_id)
    inputs: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
    pixels = [prompt.pixel_values for prompt in prompts if prompt.pixel_values is not None]
    if pixels:
        inputs["pixel_values"] = torch.cat(pixels)
        inputs["image_grid_thw"] = torch.cat(
            [p.image_grid_thw for p in prompts if p.image_grid_thw is not None]
        )
    types = torch.zeros_like(ids)
    image_token_id = getattr(model.config, "image_token_id", None)
    if image_token_id is not None:
        types[ids == image_token_id] = 1
    inputs["mm_token_type_ids"] = types
    inputs = {
        key: value.to(loaded.device) if isinstance(value, torch.Tensor) else value
        for key, value in inputs.items()
    }
    if "pixel_values" in inputs:
        inputs["pixel_values"] = inputs["pixel_values"].to(model.dtype)
    sampler = RowSampler(
        rows,
        eos_id=loaded.eos_ids[0],
        eos_ids=loaded.eos_ids,
        pad_id=loaded.pad_id,
        token_text=loaded.token_text,
        decode=loaded.decode,
    )
    config = GenerationConfig(
        do_sample=False,
        max_new_tokens=max(row.params.max_tokens for row in rows) + 1,
        eos_token_id=list(loaded.eos_ids),
        pad_token_id=loaded.pad_id,
    )
    with torch.inference_mode():
        model.generate(
            **inputs, generation_config=config, logits_processor=LogitsProcessorList([sampler])
        )


def _sample(loaded: LoadedModel, row: RowState) -> Sample:
    text = loaded.decode(row.text_tokens)
    finish = row.finish or "length"
    if row.params.stop:
        text, stopped = cut_at_stop(text, row.params.stop)
        if stopped:
            finish = "stop"
    return Sample(
        text=text,
        token_ids=list(row.tokens),
        finish=finish,
        logprobs=list(row.logprobs) if row.params.logprobs else None,
    )


class TransformersBackend:
    name = "transformers"
    uses_checkpoints = True

    def __init__(
        self,
        settings: PolicySettings,
        *,
        on_batch: Callable[[int, float], None] | None = None,
    ) -> None:
        self.settings = settings
        self._loaded: LoadedModel | None = None
        self._batcher: Batcher[GenerateJob] = Batcher(
            self._run_batch,
            max_rows=settings.max_batch_rows,
            wait_s=settings.batch_wait_ms / 1000,
            max_queue=settings.max_queue,
            on_batch=on_batch,
        )

    def observe_batches(self, callback: Callable[[int, float], None]) -> None:
        """Call `callback(rows, seconds)` after each batch (metrics)."""
        self._batcher.on_batch = callback

    # ---- state ----

    @property
    def loaded(self) -> bool:
        return self._loaded is not None

    def _current(self) -> LoadedModel:
        if self._loaded is None:
            raise NotReadyError("the model is still loading")
        return self._loaded

    @property
    def version(self) -> str:
        return self._loaded.version if self._loaded is not None else ""

    @property
    def max_model_len(self) -> int:
        return self._current().max_model_len

    @property
    def max_prompt_chars(self) -> int:
        """Longer text is refused before it is tokenized (it cannot fit `max_model_len`)."""
        return self._current().max_prompt_chars

    @property
    def image_fit(self) -> ImageFit | None:
        """How the processor sizes images: the loader resizes them so as soon as they decode."""
        return self._current().image_fit

    @property
    def queue_depth(self) -> int:
        return self._batcher.depth

    async def start(self) -> None:
        self._batcher.start()

    async def close(self) -> None:
        await self._batcher.close()

    async def reload(self, checkpoint: Path, version: str) -> None:
        started = time.perf_counter()
        loaded = await asyncio.to_thread(
            load_model, checkpoint, version=version, settings=self.settings
        )
        self._loaded = loaded  # one reference swap: batches keep the model they started with
        log.info("serving %s (loaded in %.1f s)", version, time.perf_counter() - started)

    # ---- requests ----

    async def encode(
        self, request: ChatCompletionRequest, images: list[Image.Image]
    ) -> EncodedPrompt:
        loaded = self._current()
        encoded = await asyncio.to_thread(self._encode, loaded, request, images)
        return EncodedPrompt(prompt_tokens=len(encoded.input_ids), payload=encoded)

    @staticmethod
    def _encode(
        loaded: LoadedModel, request: ChatCompletionRequest, images: list[Image.Image]
    ) -> Encoded:
        # The same functions encode SFT examples (phonebuddy.policy_model.inputs), so what
        # training sees is what this server feeds the model.
        processing = Processing(loaded.tokenizer, loaded.image_processor)
        try:
            text = render_prompt(
                loaded.tokenizer,
                request.template_messages(),
                request.template_tools(),
                **(request.chat_template_kwargs or {}),
            )
            encoded = encode_prompt(processing, text, images)
        except PromptEncodingError as exc:
            raise BadRequestError(str(exc), param=exc.param) from exc
        return Encoded(
            input_ids=encoded.input_ids,
            pixel_values=encoded.pixel_values,
            image_grid_thw=encoded.image_grid_thw,
        )

    async def generate(self, prompt: EncodedPrompt, params: SamplingParams, n: int) -> Generation:
        job = GenerateJob(prompt=prompt.payload, params=params, n=n)
        generation: Generation = await self._batcher.submit(job, rows=n)
        generation.prompt_tokens = prompt.prompt_tokens
        generation.prompt_token_ids = list(job.prompt.input_ids)
        return generation

    def _run_batch(self, jobs: Sequence[GenerateJob]) -> list[Generation]:
        loaded = self._current()
        rows: list[tuple[int, RowState]] = [
            (index, make_row(job.params, sample))
            for index, job in enumerate(jobs)
            for sample in range(job.n)
        ]
        started = time.perf_counter()
        step = self.settings.max_batch_rows
        for chunk_start in range(0, len(rows), step):
            chunk = rows[chunk_start : chunk_start + step]
            generate_rows(loaded, [jobs[index].prompt for index, _ in chunk], [r for _, r in chunk])
        elapsed = time.perf_counter() - started
        results = [
            Generation(samples=[], prompt_tokens=0, model_version=loaded.version,
                       timings={"generate_s": elapsed})
            for _ in jobs
        ]  # fmt: skip
        for index, row in rows:
            results[index].samples.append(_sample(loaded, row))
        return results
