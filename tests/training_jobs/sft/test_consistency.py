"""Train-to-inference consistency of the encoding: the ids and pixels the SFT job trains on for a
stored step equal what the policy server builds from the request `PolicyClient` sends for that
step (the server's own image loader, resize-on-decode and transformers backend)."""

from __future__ import annotations

import asyncio

import torch

from phonebuddy.agent import PolicyClient, PolicyEndpoint, Sampling, sft_examples
from phonebuddy.policy.api import ChatCompletionRequest
from phonebuddy.policy.app import PolicyService
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.transformers_backend import TransformersBackend
from phonebuddy.policy_model.inputs import load_processing
from phonebuddy.sft.config import DataConfig, RunSource
from phonebuddy.sft.data import load_rows
from phonebuddy.sft.encode import encode_row
from phonebuddy.storage import LocalStore
from phonebuddy.trajectories import TrajectoryStore


async def test_sft_examples_encode_as_the_policy_server_encodes_requests(
    tiny_checkpoint, teacher_run
) -> None:
    config = DataConfig(runs=(RunSource(run=teacher_run.run_id, store=teacher_run.store_url),))
    rows = await asyncio.to_thread(load_rows, config)  # the job's blocking reader
    processing = load_processing(tiny_checkpoint)
    by_step = {(row.episode_id, row.step_index): row for row in rows}
    store = TrajectoryStore(LocalStore(teacher_run.store_url.removeprefix("local:")))
    settings = PolicySettings(model=str(tiny_checkpoint), port=0)
    backend = TransformersBackend(settings)
    await backend.reload(tiny_checkpoint, "tiny")
    service = PolicyService(settings, backend)
    compared = 0
    client = PolicyClient(PolicyEndpoint(base_url="http://unused/v1", model="tiny"))
    async with service.running():
        assert service.images is not None
        for episode in teacher_run.episodes:
            steps = [step for step in episode.steps if step.action is not None]
            for step, example in zip(steps, sft_examples(episode), strict=True):
                row = by_step.get((episode.episode_id, step.index))
                if row is None:  # an unsuccessful episode: not training data
                    continue
                frames = {ref.sha256: await store.get_frame(ref) for ref in example.prompt.frames}
                body = client.request_body(example.prompt, frames, Sampling())  # as rollouts ask
                request = ChatCompletionRequest.model_validate(body)
                images = [
                    await service.images.load(url, label="image", fit=backend.image_fit)
                    for message in request.messages
                    for url in message.image_urls()
                ]
                served = (await backend.encode(request, images)).payload
                trained = encode_row(processing, row)
                prompt_length = len(served.input_ids)
                assert trained.input_ids[:prompt_length].tolist() == served.input_ids
                assert (trained.labels[:prompt_length] == -100).all()
                assert (trained.labels[prompt_length:] != -100).any()
                assert torch.equal(trained.image_grid_thw, served.image_grid_thw)
                assert torch.equal(trained.pixel_values, served.pixel_values)
                compared += 1
    await client.close()
    assert compared >= 8
