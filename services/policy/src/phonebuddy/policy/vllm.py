"""The vLLM backend: vLLM's own OpenAI-compatible server, configured like ours.

`phonebuddy policy serve --backend vllm` replaces itself with `python -m
vllm.entrypoints.openai.api_server`, passing PhoneBuddy's chat template (written to a file), the
hermes tool-call parser (Qwen's `<tool_call>` format, the same one our server parses), image
limits and the served model name. The API key goes through VLLM_API_KEY, never the command line.
vLLM runs on GPU machines only; it is not installed in CPU environments.

RL rollouts need what the transformers backend also returns: `return_token_ids` (vLLM 0.10.2 and
later) for the prompt's and each choice's token ids, and `logprobs` under the raw model, pinned
with `--logprobs-mode raw_logprobs` (vLLM's default today) so that both backends report the same
quantity whatever vLLM's default becomes.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import sys
from pathlib import Path

from phonebuddy.agent import CHAT_TEMPLATE
from phonebuddy.policy.settings import PolicySettings

VLLM_MODULE = "vllm.entrypoints.openai.api_server"


class VllmUnavailableError(RuntimeError):
    def __init__(self) -> None:
        super().__init__(
            "vLLM is not installed in this environment; it runs on GPU machines "
            "(pip install vllm there, or use --backend transformers)"
        )


def write_chat_template(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "phonebuddy_chat_template.jinja"
    path.write_text(CHAT_TEMPLATE, encoding="utf-8")
    return path


def vllm_command(
    settings: PolicySettings, *, model_path: str, chat_template: Path, python: str | None = None
) -> list[str]:
    """The vLLM server command line for these settings."""
    command = [
        python or sys.executable, "-m", VLLM_MODULE,
        "--model", model_path,
        "--served-model-name", settings.served_model_name,
        "--host", settings.host,
        "--port", str(settings.port),
        "--chat-template", str(chat_template),
        "--enable-auto-tool-choice",
        "--tool-call-parser", "hermes",
        "--max-model-len", str(settings.max_model_len),
        "--max-num-seqs", str(max(settings.max_batch_rows, settings.max_n)),
        "--tensor-parallel-size", str(settings.vllm_tensor_parallel_size),
        "--gpu-memory-utilization", str(settings.vllm_gpu_memory_utilization),
        "--limit-mm-per-prompt", json.dumps({"image": settings.max_images_per_request}),
        "--generation-config", "vllm",
        "--logprobs-mode", "raw_logprobs",
        "--dtype", "auto" if settings.dtype == "auto" else settings.dtype,
    ]  # fmt: skip
    return command + shlex.split(settings.vllm_extra_args)


def vllm_environment(settings: PolicySettings) -> dict[str, str]:
    env = dict(os.environ)
    if settings.api_key is not None:
        env["VLLM_API_KEY"] = settings.api_key.get_secret_value()
    return env


def exec_vllm(settings: PolicySettings, *, model_path: str, state_dir: Path) -> None:
    """Replace this process with vLLM's server (does not return)."""
    if importlib.util.find_spec("vllm") is None:
        raise VllmUnavailableError
    template = write_chat_template(state_dir)
    command = vllm_command(settings, model_path=model_path, chat_template=template)
    os.execve(command[0], command, vllm_environment(settings))  # noqa: S606 (fixed argv, no shell)
