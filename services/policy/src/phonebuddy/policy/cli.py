"""`phonebuddy policy ...`: build the tiny model, serve a checkpoint, print the KServe manifest."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(
    help="The policy model: tiny checkpoints and the inference server.", no_args_is_help=True
)

TINY_SEED = 0


def tiny_checkpoint(seed: int = TINY_SEED) -> Path:
    """The cached tiny checkpoint for `seed`, built on first use (a few seconds, no download)."""
    from phonebuddy.policy.checkpoints import default_cache_dir
    from phonebuddy.policy_model import make_tiny

    folder = default_cache_dir() / f"tiny-policy-seed{seed}"
    if not (folder / "model.safetensors").is_file():
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
        make_tiny(staging, seed=seed)
        try:
            staging.rename(folder)
        except OSError:  # another process finished first; its copy is the same
            shutil.rmtree(staging, ignore_errors=True)
    return folder


@app.command("make-tiny")
def make_tiny_command(
    directory: Annotated[Path, typer.Argument(help="folder to write the checkpoint into")],
    seed: Annotated[int, typer.Option(help="weights are a function of the seed")] = 0,
    vocabulary_from: Annotated[
        list[Path] | None,
        typer.Option(
            help="keep only the token ids these texts use: a UTF-8 text file, or a .jsonl file "
            "whose rows' string values are the texts (repeatable)"
        ),
    ] = None,
) -> None:
    """Write a tiny random Qwen3.5-VL checkpoint (64M parameters, real tokenizer) that
    `from_pretrained` and `policy serve` load like a real one. Nothing is downloaded.

    With --vocabulary-from, the vocabulary is pruned to the ids the texts use (plus the special
    tokens, the 256 byte tokens and the BPE merges that build them), with its own renumbered
    tokenizer: about 1-2M parameters for a few thousand ids, tens of times faster on CPU."""
    from phonebuddy.policy_model import make_tiny, prune_vocabulary

    if not vocabulary_from:
        path = make_tiny(directory, seed=seed)
        typer.echo(f"tiny Qwen3.5-VL (seed {seed}) written to {path}")
        return
    with tempfile.TemporaryDirectory(prefix="phonebuddy-tiny-") as staging:
        full = make_tiny(Path(staging) / "full", seed=seed)
        path = prune_vocabulary(full, _texts(vocabulary_from), directory)
    summary = json.loads((path / "vocabulary.json").read_text(encoding="utf-8"))
    typer.echo(
        f"tiny Qwen3.5-VL (seed {seed}) written to {path}: kept {summary['kept']} of "
        f"{summary['source_vocab_size']} token ids ({summary['used']} used by the texts), "
        f"{summary['parameters']:,} parameters"
    )


def _texts(paths: list[Path]) -> Iterator[str]:
    """The texts in each file: the whole file, or every string value of each .jsonl row."""

    def strings(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from strings(item)
        elif isinstance(value, list):
            for item in value:
                yield from strings(item)

    for path in paths:
        if path.suffix != ".jsonl":
            yield path.read_text(encoding="utf-8")
            continue
        with path.open(encoding="utf-8") as rows:
            for line in rows:
                if line.strip():
                    yield from strings(json.loads(line))


def _settings(**given: Any) -> Any:
    from pydantic import ValidationError

    from phonebuddy.policy.settings import PolicySettings

    try:
        return PolicySettings(**{key: value for key, value in given.items() if value is not None})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or 'settings'}: {error['msg']}"
            for error in exc.errors()
        )
        typer.echo(f"error: invalid policy settings: {problems}", err=True)
        raise typer.Exit(2) from None


@app.command()
def serve(
    model: Annotated[
        str | None,
        typer.Option(help="checkpoint folder or store URL [PHONEBUDDY_POLICY_MODEL]"),
    ] = None,
    tiny: Annotated[
        bool, typer.Option(help="serve the tiny random model (built on first use)")
    ] = False,
    backend: Annotated[
        str | None,
        typer.Option(
            help="transformers | vllm | teacher (PhoneWorld's oracle) | replay (the blind "
            "baseline: --model names its table)"
        ),
    ] = None,
    host: Annotated[str | None, typer.Option(help="bind address [127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="port [8093]")] = None,
    served_model_name: Annotated[str | None, typer.Option(help="the API's model name")] = None,
    model_version: Annotated[str | None, typer.Option(help="version to report")] = None,
) -> None:
    """Serve a checkpoint behind the OpenAI chat-completions API (/v1/chat/completions,
    /v1/models) with /livez /readyz /metrics. Options left out come from PHONEBUDDY_POLICY_*."""
    if tiny and model:
        typer.echo("error: give --model or --tiny, not both", err=True)
        raise typer.Exit(2)
    if tiny:
        model = str(tiny_checkpoint())
    settings = _settings(
        model=model, backend=backend, host=host, port=port,
        served_model_name=served_model_name, model_version=model_version,
    )  # fmt: skip
    if settings.backend == "vllm":
        _serve_vllm(settings)
        return
    import uvicorn

    from phonebuddy.policy.app import backend_for, create_app
    from phonebuddy.telemetry import configure_logging

    configure_logging()
    typer.echo(f"policy server ({settings.backend}): {settings.model or 'PhoneWorld oracle'}")
    typer.echo(f"  http://{settings.host}:{settings.port}/v1  model {settings.served_model_name!r}")
    uvicorn.run(
        create_app(settings, backend_for(settings)),
        host=settings.host,
        port=settings.port,
        log_level="warning",
    )


def _serve_vllm(settings: Any) -> None:
    """vLLM loads a folder: a checkpoint in a store (PHONEBUDDY_STORE_* says how to reach it)
    is copied to the cache first, as the transformers backend does."""
    import asyncio

    from phonebuddy.policy.checkpoints import default_cache_dir, fetch_checkpoint, is_store_url
    from phonebuddy.policy.errors import CheckpointError
    from phonebuddy.policy.vllm import VllmUnavailableError, exec_vllm

    model_path = settings.model
    if is_store_url(model_path):
        typer.echo(f"copying {model_path} for vLLM")
        try:
            folder, _ = asyncio.run(fetch_checkpoint(model_path, default_cache_dir() / "models"))
        except CheckpointError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        model_path = str(folder)
    try:
        exec_vllm(settings, model_path=model_path, state_dir=default_cache_dir() / "vllm")
    except VllmUnavailableError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


@app.command("kserve-manifest")
def kserve_manifest(
    storage_uri: Annotated[
        str, typer.Option(help="checkpoint KServe copies to /mnt/models")
    ] = "s3://phonebuddy-checkpoints/qwen3.5-4b-sft",
    name: Annotated[str, typer.Option(help="InferenceService name")] = "phonebuddy-policy",
    namespace: Annotated[str | None, typer.Option(help="namespace")] = None,
    image: Annotated[
        str, typer.Option(help="image with phonebuddy-policy and vllm")
    ] = "ghcr.io/phonebuddy/policy-vllm:0.1.0",
    gpus: Annotated[int, typer.Option(min=1, help="GPUs (tensor parallel size)")] = 1,
    max_model_len: Annotated[int, typer.Option(min=256)] = 32768,
) -> None:
    """Print a KServe InferenceService (YAML) serving a checkpoint with vLLM on GPU nodes."""
    from phonebuddy.policy.kserve import inference_service, render

    typer.echo(
        render(
            inference_service(
                name=name, namespace=namespace, image=image, storage_uri=storage_uri,
                gpus=gpus, max_model_len=max_model_len,
            )
        ),
        nl=False,
    )  # fmt: skip
