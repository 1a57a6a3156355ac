"""A stored step -> model inputs, through the encoding the policy server uses at inference.

The prompt is rendered from the step's stored messages by the checkpoint's chat template and
encoded by `phonebuddy.policy_model.inputs.encode_prompt`, the function the policy server calls
for every request, so ids and pixels equal what a rollout of this step fed the model. The rendered
prompt must also equal the text the rollout recorded: a difference means the template drifted,
and training on it would teach a prompt inference never shows. Labels cover the completion up to
and including `<|im_end|>` (what the model generates before the server stops it).
"""

from __future__ import annotations

import io

import torch
from PIL import Image, UnidentifiedImageError

from phonebuddy.agent.chat_format import IM_END
from phonebuddy.agent.prompt import ROLLOUT_ENABLE_THINKING
from phonebuddy.policy_model.inputs import (
    Processing,
    PromptEncodingError,
    encode_completion,
    encode_prompt,
    render_prompt,
)
from phonebuddy.sft.data import DataError, StepRow
from phonebuddy.training.batch import IGNORE_INDEX, EncodedExample


def _image(data: bytes, where: str) -> Image.Image:
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.convert("RGB")
    except (UnidentifiedImageError, OSError) as exc:
        raise DataError(f"{where}: a screenshot cannot be decoded ({exc})") from exc


def encode_row(processing: Processing, row: StepRow) -> EncodedExample:
    where = f"episode {row.episode_id} step {row.step_index}"
    try:
        text = render_prompt(
            processing.tokenizer,
            row.prompt_messages,
            row.tools,
            enable_thinking=ROLLOUT_ENABLE_THINKING,
        )
    except PromptEncodingError as exc:
        raise DataError(f"{where}: {exc}") from exc
    if text != row.prompt_text:
        raise DataError(
            f"{where}: the checkpoint's chat template renders another prompt than the rollout "
            "recorded; train with the tokenizer the rollouts used"
        )
    images = [_image(data, where) for data in row.images]
    try:
        prompt = encode_prompt(processing, text, images)
    except PromptEncodingError as exc:
        raise DataError(f"{where}: {exc}") from exc
    completion = encode_completion(processing, row.completion_text)
    end_id = processing.tokenizer.convert_tokens_to_ids(IM_END)
    if end_id not in completion:
        raise DataError(f"{where}: the completion does not end its turn with {IM_END}")
    last = len(completion) - 1 - completion[::-1].index(end_id)
    labels = completion[: last + 1] + [IGNORE_INDEX] * (len(completion) - last - 1)
    ids = torch.tensor(prompt.input_ids + completion, dtype=torch.long)
    label_tensor = torch.tensor([IGNORE_INDEX] * len(prompt.input_ids) + labels, dtype=torch.long)
    return EncodedExample(
        input_ids=ids,
        labels=label_tensor,
        pixel_values=prompt.pixel_values,
        image_grid_thw=prompt.image_grid_thw,
        meta={"episode_id": row.episode_id, "task_id": row.task_id, "step": str(row.step_index)},
    )
