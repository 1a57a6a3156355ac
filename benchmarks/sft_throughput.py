"""SFT data and step throughput on this machine's CPU, with the tiny Qwen3.5-VL.

1. A real teacher dataset: PhoneWorld oracle episodes of N templates (seed 0), written into a
   local trajectory store and read back through the SFT job's own data path (hash-checked
   screenshots, the policy server's prompt encoding). Reports the examples' token lengths and,
   at 4,096 / 8,192 / 16,384 tokens per row: best-fit-decreasing, the job's packer
   (pack_examples) and the lower bound on rows (min_rows_lower_bound), with the utilization
   ceiling that bound implies. The same for --synthetic lengths drawn (with replacement, seed 0)
   from the dataset's lengths, with the seconds each packer takes.
2. Training speed: forward + backward on the same examples, packed into rows vs padded
   micro-batches (examples sorted by length, padded to the longest of each batch), in separate
   processes so each reports its own peak RSS. Real (non-pad) tokens per second. --skip-speed
   leaves it out.

    .venv/bin/python benchmarks/sft_throughput.py [--templates 40] [--examples 12]
        [--synthetic 100000] [--skip-speed]

Prints one JSON document. Image tokens per screenshot follow the tiny processor's cap (256); a
real checkpoint's processor allows more, which makes examples longer (and packing no easier).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import platform
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from phonebuddy.phoneworld.demonstrations import record_demonstration
from phonebuddy.phoneworld.tasks.registry import all_templates
from phonebuddy.phoneworld.world import default_world
from phonebuddy.policy_model import make_tiny
from phonebuddy.policy_model.inputs import load_processing
from phonebuddy.protocol import Frame
from phonebuddy.sft.config import DataConfig, RunSource
from phonebuddy.sft.data import filter_rows, load_rows
from phonebuddy.sft.encode import encode_row
from phonebuddy.storage import LocalStore
from phonebuddy.training.batch import IGNORE_INDEX, pack_row, token_types
from phonebuddy.training.loss import row_loss
from phonebuddy.training.model import load_for_training
from phonebuddy.training.packing import best_fit_decreasing, min_rows_lower_bound, pack_examples
from phonebuddy.trajectories import TrajectoryStore
from phonebuddy.trajectories.manifest import RunManifest, RunStatus


async def write_teacher_run(root: Path, templates: list[str]) -> int:
    world = default_world()
    store = TrajectoryStore(LocalStore(root))
    episodes = 0
    for template in templates:
        try:
            demo = record_demonstration(
                world, template, 0, run_id="teacher", episode_id=template.replace(".", "-")
            )
        except Exception as exc:  # a template whose oracle cannot run at seed 0 is skipped
            print(f"skipped {template}: {exc}", file=sys.stderr)
            continue
        for data in demo.frames.values():
            await store.put_frame(Frame.from_bytes(data, "image/jpeg"))
        await store.put_episode(demo.episode)
        episodes += 1
    await store.write_manifest(RunManifest(run_id="teacher", status=RunStatus.DONE))
    return episodes


def speed(mode: str, checkpoint: str, store_url: str, examples: int, queue: Any) -> None:
    torch.manual_seed(0)
    model, processing = load_for_training(
        Path(checkpoint), dtype=torch.float32, device=torch.device("cpu")
    )
    rows = filter_rows(load_rows(DataConfig(runs=(RunSource(run="teacher", store=store_url),))),
                       DataConfig())  # fmt: skip
    encoded = [encode_row(processing, row) for row in rows[:examples]]
    started = time.perf_counter()
    real_tokens = 0
    if mode == "packed":
        plan = pack_examples([e.length for e in encoded], 8192)
        for row in plan.rows:
            packed = pack_row(model, [encoded[i] for i in row])
            row_loss(model, packed).loss_sum.backward()
            real_tokens += packed.tokens
        rows_run = len(plan.rows)
    else:
        ordered = sorted(encoded, key=lambda e: e.length)
        batch = 2
        rows_run = 0
        for start in range(0, len(ordered), batch):
            group = ordered[start : start + batch]
            width = max(e.length for e in group)
            ids = torch.full((len(group), width), 0, dtype=torch.long)
            labels = torch.full((len(group), width), IGNORE_INDEX, dtype=torch.long)
            mask = torch.zeros((len(group), width), dtype=torch.long)
            for i, e in enumerate(group):
                ids[i, : e.length], labels[i, : e.length], mask[i, : e.length] = (
                    e.input_ids, e.labels, 1
                )  # fmt: skip
            pixels = [e.pixel_values for e in group if e.pixel_values is not None]
            grids = [e.image_grid_thw for e in group if e.image_grid_thw is not None]
            hidden = model.model(
                input_ids=ids, attention_mask=mask,
                mm_token_type_ids=token_types(ids, model.config),
                pixel_values=torch.cat(pixels) if pixels else None,
                image_grid_thw=torch.cat(grids) if grids else None, use_cache=False,
            ).last_hidden_state  # fmt: skip
            keep = labels[:, 1:] != IGNORE_INDEX
            logits = model.get_output_embeddings()(hidden[:, :-1][keep])
            loss = torch.nn.functional.cross_entropy(logits, labels[:, 1:][keep], reduction="sum")
            loss.backward()
            real_tokens += sum(e.length for e in group)
            rows_run += 1
    seconds = time.perf_counter() - started
    queue.put({
        "mode": mode, "examples": len(encoded), "forward_passes": rows_run,
        "real_tokens": real_tokens, "seconds": round(seconds, 2),
        "tokens_per_second": round(real_tokens / seconds, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    })  # fmt: skip


def run_speed(mode: str, checkpoint: Path, store_url: str, examples: int) -> dict[str, Any]:
    """speed() in a process of its own, so that its peak RSS is its own."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(
        target=speed, args=(mode, str(checkpoint), store_url, examples, queue)
    )
    process.start()
    result = queue.get()
    process.join()
    return result


def timed(
    packer: Callable[[list[int], int], Any], lengths: list[int], capacity: int
) -> tuple[Any, float]:
    started = time.perf_counter()
    result = packer(lengths, capacity)
    return result, round(time.perf_counter() - started, 3)


def packing_report(lengths: list[int]) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for capacity in (4096, 8192, 16384):
        plain, plain_seconds = timed(best_fit_decreasing, lengths, capacity)
        packed, packed_seconds = timed(pack_examples, lengths, capacity)
        bound, bound_seconds = timed(min_rows_lower_bound, lengths, capacity)
        report[str(capacity)] = {
            "dropped": len(plain.dropped),
            "bfd": {"rows": len(plain.rows), "utilization": round(plain.utilization, 4),
                    "seconds": plain_seconds},
            "pack_examples": {"rows": len(packed.rows), "utilization": round(packed.utilization, 4),
                              "seconds": packed_seconds},
            "bound": {"rows": bound, "seconds": bound_seconds, "utilization_ceiling":
                      round(packed.packed_tokens / (bound * capacity), 4) if bound else 0.0},
        }  # fmt: skip
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--templates", type=int, default=40)
    parser.add_argument("--examples", type=int, default=12)
    parser.add_argument(
        "--synthetic",
        type=int,
        default=100_000,
        help="how many lengths to draw from the dataset's for the packing timings",
    )
    parser.add_argument(
        "--skip-speed",
        action="store_true",
        help="leave out the forward + backward tokens/s measurement",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        checkpoint = make_tiny(root / "tiny")
        templates = sorted(t.id for t in all_templates())
        step = max(1, len(templates) // args.templates)
        chosen = templates[::step][: args.templates]
        started = time.perf_counter()
        episodes = asyncio.run(write_teacher_run(root / "store", chosen))
        store_url = f"local:{root / 'store'}"
        processing = load_processing(checkpoint)
        rows = filter_rows(load_rows(DataConfig(runs=(RunSource(run="teacher", store=store_url),))),
                           DataConfig())  # fmt: skip
        lengths = [encode_row(processing, row).length for row in rows]
        data_seconds = time.perf_counter() - started
        synthetic = random.Random(0).choices(lengths, k=args.synthetic)
        packing = {
            "dataset": packing_report(lengths),
            "synthetic": {"examples": len(synthetic), "drawn_from": "dataset lengths, seed 0",
                          **packing_report(synthetic)},
        }  # fmt: skip
        results: list[dict[str, Any]] | str = "skipped (--skip-speed)"
        if not args.skip_speed:
            results = [run_speed(mode, checkpoint, store_url, args.examples)
                       for mode in ("packed", "padded")]  # fmt: skip
    print(json.dumps({
        "benchmark": "sft_throughput",
        "machine": {"cpus": multiprocessing.cpu_count(), "python": platform.python_version(),
                    "torch": torch.__version__},
        "dataset": {"templates": len(chosen), "episodes": episodes, "examples": len(lengths),
                    "tokens_min": min(lengths), "tokens_median": statistics.median(lengths),
                    "tokens_max": max(lengths), "build_seconds": round(data_seconds, 1)},
        "packing": packing,
        "speed": results,
        "gpu": "not run: no GPU was lent to this task",
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
