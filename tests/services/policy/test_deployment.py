"""The vLLM backend's command line, the KServe manifest and the `policy` CLI."""

import json
import shlex
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from phonebuddy.agent import CHAT_TEMPLATE
from phonebuddy.policy.cli import app as cli
from phonebuddy.policy.kserve import inference_service, render
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.vllm import VLLM_MODULE, vllm_command, vllm_environment, write_chat_template

REPO = Path(__file__).resolve().parents[3]
MANIFEST = REPO / "infra" / "kserve" / "policy-inferenceservice.yaml"


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_vllm_command_uses_our_template_tool_parser_and_limits(tmp_path: Path) -> None:
    settings = PolicySettings(
        model="/models/qwen", served_model_name="pb", port=9000, max_model_len=16384,
        max_images_per_request=6, vllm_tensor_parallel_size=2,
        vllm_extra_args="--enforce-eager --seed 3", api_key="k-123",
    )  # fmt: skip
    template = write_chat_template(tmp_path)
    command = vllm_command(settings, model_path="/models/qwen", chat_template=template, python="py")
    assert command[:3] == ["py", "-m", VLLM_MODULE]
    assert option(command, "--model") == "/models/qwen"
    assert option(command, "--served-model-name") == "pb"
    assert option(command, "--port") == "9000"
    assert option(command, "--host") == "127.0.0.1"
    assert option(command, "--tool-call-parser") == "hermes"
    assert "--enable-auto-tool-choice" in command
    assert option(command, "--max-model-len") == "16384"
    assert option(command, "--tensor-parallel-size") == "2"
    assert json.loads(option(command, "--limit-mm-per-prompt")) == {"image": 6}
    assert Path(option(command, "--chat-template")).read_text() == CHAT_TEMPLATE
    assert option(command, "--logprobs-mode") == "raw_logprobs"  # as the transformers backend
    assert command[-3:] == ["--enforce-eager", "--seed", "3"]
    # The key travels in the environment, never on the command line (visible in `ps`).
    assert not any("k-123" in part for part in command)
    assert vllm_environment(settings)["VLLM_API_KEY"] == "k-123"


def test_serve_with_vllm_missing_says_so(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--backend", "vllm", "--model", str(tmp_path)])
    assert result.exit_code == 2
    assert "vLLM is not installed" in result.output


def test_serve_rejects_bad_settings_in_one_sentence() -> None:
    result = CliRunner().invoke(cli, ["serve", "--model", "m", "--backend", "onnx"])
    assert result.exit_code == 2
    assert "backend" in result.output


def test_kserve_manifest_file_is_the_generator_output() -> None:
    assert MANIFEST.read_text() == render(inference_service()), (
        "regenerate with `phonebuddy policy kserve-manifest > infra/kserve/"
        "policy-inferenceservice.yaml`"
    )


def test_kserve_manifest_serves_vllm_on_a_gpu_as_non_root() -> None:
    manifest = yaml.safe_load(MANIFEST.read_text())
    assert manifest["apiVersion"] == "serving.kserve.io/v1beta1"
    assert manifest["kind"] == "InferenceService"
    (container,) = manifest["spec"]["predictor"]["containers"]
    assert container["resources"]["limits"]["nvidia.com/gpu"] == "1"
    assert container["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    env = {item["name"]: item for item in container["env"]}
    assert env["STORAGE_URI"]["value"].startswith("s3://")
    assert "value" not in env["PHONEBUDDY_POLICY_API_KEY"]  # from a Secret, never inline
    args = container["args"]
    assert args[:2] == ["policy", "serve"]
    assert option(args, "--backend") == "vllm"
    assert option(args, "--model") == "/mnt/models"
    port = int(option(args, "--port"))
    assert container["ports"][0]["containerPort"] == port
    assert container["readinessProbe"]["httpGet"] == {"path": "/health", "port": port}


def test_kserve_manifest_env_builds_valid_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The container's environment and arguments make valid `PolicySettings` (no drift)."""
    (container,) = inference_service(gpus=4)["spec"]["predictor"]["containers"]
    for item in container["env"]:
        if item["name"].startswith("PHONEBUDDY_POLICY_"):
            monkeypatch.setenv(item["name"], item.get("value", "secret-from-k8s"))
    args = container["args"]
    settings = PolicySettings(
        model=option(args, "--model"), backend=option(args, "--backend"),
        host=option(args, "--host"), port=int(option(args, "--port")),
    )  # fmt: skip
    assert settings.vllm_tensor_parallel_size == 4
    assert settings.api_key is not None


def test_kserve_manifest_command_options() -> None:
    result = CliRunner().invoke(
        cli,
        ["kserve-manifest", "--storage-uri", "s3://ckpt/rl-9", "--gpus", "2",
         "--namespace", "ml", "--name", "pb-rl"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    manifest = yaml.safe_load(result.output)
    assert manifest["metadata"] == {**manifest["metadata"], "name": "pb-rl", "namespace": "ml"}
    (container,) = manifest["spec"]["predictor"]["containers"]
    assert {"name": "STORAGE_URI", "value": "s3://ckpt/rl-9"} in container["env"]
    assert container["resources"]["limits"]["nvidia.com/gpu"] == "2"
    assert shlex.join(container["args"])


def test_make_tiny_command_writes_a_loadable_checkpoint(tmp_path: Path) -> None:
    from phonebuddy.policy.checkpoints import check_checkpoint

    result = CliRunner().invoke(cli, ["make-tiny", str(tmp_path / "t"), "--seed", "3"])
    assert result.exit_code == 0, result.output
    check_checkpoint(tmp_path / "t")
    assert (tmp_path / "t" / "tokenizer.json").is_file()
    assert (tmp_path / "t" / "preprocessor_config.json").is_file()


def test_vllm_copies_a_checkpoint_from_a_store_before_it_starts(
    tmp_path: Path, tiny_checkpoint: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pod names its checkpoint by store URL; vLLM needs a folder, so the server copies it
    first (here vLLM is absent, so the copy is followed by the one-sentence refusal)."""
    monkeypatch.setenv("PHONEBUDDY_CACHE_DIR", str(tmp_path / "cache"))
    empty = tmp_path / "empty"
    empty.mkdir()
    refused = CliRunner().invoke(cli, ["serve", "--backend", "vllm", "--model", f"local:{empty}"])
    assert refused.exit_code == 2
    assert "holds no files" in refused.stderr
    result = CliRunner().invoke(
        cli, ["serve", "--backend", "vllm", "--model", f"local:{tiny_checkpoint}"]
    )
    assert result.exit_code == 2
    assert "vLLM is not installed" in result.stderr
    copied = list((tmp_path / "cache" / "models").glob("*/config.json"))
    assert len(copied) == 1
