"""`phonebuddy jobs render`: training Jobs for `kubectl apply -f -`, from the chart's own template.

Checked without a cluster: valid objects for a current Kubernetes, torchrun with its settings in
PET_* variables, the job's config in a ConfigMap that the job itself loads, the release's NATS
client user and object store, GPUs and several nodes, a failure policy, and the same objects as
a Job declared in the release's values (GitOps)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from typer.testing import CliRunner

from phonebuddy.cli.main import full_app

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "charts" / "phonebuddy"
PAPER = REPO / "configs" / "paper"


def jobs_render(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(full_app(), ["jobs", "render", *args])
    return result.exit_code, result.stdout, result.stderr


def objects_of(text: str) -> dict[str, dict[str, Any]]:
    return {doc["kind"]: doc for doc in yaml.safe_load_all(text) if doc}


def env_of(container: dict[str, Any]) -> dict[str, Any]:
    return {item["name"]: item.get("value", item.get("valueFrom")) for item in container["env"]}


@pytest.mark.parametrize("job", ["sft", "rl", "eval"])
def test_each_paper_config_becomes_a_valid_torchrun_job(job: str, tmp_path: Path) -> None:
    code, out, err = jobs_render(job, "--config", str(PAPER / f"{job}.yaml"), "--gpus", "8")
    assert code == 0, err
    objects = objects_of(out)
    assert set(objects) == {"ConfigMap", "Job"}
    for obj in objects.values():
        kubernetes_validate.validate(obj, "1.35.0", strict=True)
    assert objects["ConfigMap"]["data"]["config.yaml"] == (PAPER / f"{job}.yaml").read_text()
    spec = objects["Job"]["spec"]
    pod = spec["template"]["spec"]
    (container,) = pod["containers"]
    assert container["command"] == ["torchrun"]
    assert container["args"][:4] == ["-m", f"phonebuddy.{job}", "--config",
                                     "/etc/phonebuddy/config.yaml"]  # fmt: skip
    assert container["image"] == f"phonebuddy/{job}-gpu:0.1.0"
    env = env_of(container)
    assert env["PET_NPROC_PER_NODE"] == "8"
    assert env["PET_NNODES"] == "1"
    assert env["PHONEBUDDY_NATS_USER"] == "client"
    assert env["PHONEBUDDY_STORE_URL"] == "s3://phonebuddy"
    assert container["resources"]["limits"]["nvidia.com/gpu"] == "8"
    assert pod["restartPolicy"] == "Never"
    assert pod["securityContext"]["runAsNonRoot"] is True
    labels = spec["template"]["metadata"]["labels"]
    assert labels["phonebuddy.dev/client"] == "true"  # admitted by the NetworkPolicies
    rules = spec["podFailurePolicy"]["rules"]
    assert {"action": "FailJob", "onExitCodes": {"containerName": "train", "operator": "In",
            "values": [2]}} in rules  # fmt: skip
    assert spec["backoffLimit"] >= 1
    if job == "rl":
        assert "--policy-url" in container["args"]
        assert "PHONEBUDDY_POLICY_ADMIN_TOKEN" in env
    # The job itself loads the mounted config, with the extra arguments the Job adds.
    mounted = tmp_path / "config.yaml"
    mounted.write_text(objects["ConfigMap"]["data"]["config.yaml"])
    extra = container["args"][4:]
    check = subprocess.run(
        [sys.executable, "-m", f"phonebuddy.{job}", "--config", str(mounted), *extra,
         "--print-config"],
        capture_output=True, text=True, check=False,
        env={k: v for k, v in os.environ.items() if not k.startswith("PHONEBUDDY_")},
    )  # fmt: skip
    assert check.returncode == 0, check.stderr


def test_several_nodes_make_an_indexed_job_with_a_rendezvous_service() -> None:
    code, out, err = jobs_render(
        "sft", "--config", str(PAPER / "sft.yaml"), "--gpus", "8", "--nodes", "4",
        "--name", "sft-big", "--release", "pb", "--namespace", "ml",
    )  # fmt: skip
    assert code == 0, err
    objects = objects_of(out)
    service, job = objects["Service"], objects["Job"]
    assert service["spec"]["clusterIP"] == "None"
    assert job["metadata"]["name"] == "pb-phonebuddy-sft-big"
    assert job["spec"]["completionMode"] == "Indexed"
    assert job["spec"]["completions"] == job["spec"]["parallelism"] == 4
    pod = job["spec"]["template"]["spec"]
    assert pod["subdomain"] == service["metadata"]["name"]
    env = env_of(pod["containers"][0])
    assert env["PET_NNODES"] == "4"
    assert env["PET_MASTER_ADDR"] == "pb-phonebuddy-sft-big-0.pb-phonebuddy-sft-big"
    assert "job-completion-index" in env["PET_NODE_RANK"]["fieldRef"]["fieldPath"]
    for obj in objects.values():
        kubernetes_validate.validate(obj, "1.35.0", strict=True)


def test_a_job_uses_the_release_values_it_is_given(tmp_path: Path) -> None:
    release_values = tmp_path / "release.yaml"
    release_values.write_text(yaml.safe_dump({
        "global": {"image": {"registry": "registry.example.com/pb", "tag": "1.2.3"},
                   "objectStore": {"bucket": "ml", "prefix": "team-a"}},
        "objectStore": {"external": {"enabled": True, "endpoint": "s3.example.com:443",
                                     "existingSecret": "team-a-s3"}},
        # Where the store is, for the egress policies (the release needs it too).
        "networkPolicy": {"egress": {"objectStore": [{"cidr": "203.0.113.0/24"}]}},
    }))  # fmt: skip
    code, out, err = jobs_render("eval", "--config", str(PAPER / "eval.yaml"), "-f",
                                 str(release_values))  # fmt: skip
    assert code == 0, err
    (container,) = objects_of(out)["Job"]["spec"]["template"]["spec"]["containers"]
    assert container["image"] == "registry.example.com/pb/phonebuddy/eval:1.2.3"
    env = env_of(container)
    assert env["PHONEBUDDY_STORE_URL"] == "s3://ml/team-a"
    assert env["PHONEBUDDY_STORE_ENDPOINT"] == "s3.example.com:443"
    assert env["PHONEBUDDY_STORE_ACCESS_KEY"]["secretKeyRef"]["name"] == "team-a-s3"


def test_what_cannot_run_in_a_pod_is_refused_in_one_sentence(tmp_path: Path) -> None:
    local = tmp_path / "local.yaml"
    local.write_text(yaml.safe_dump({"name": "x", "checkpoint": {"output": "local:/ckpt"}}))
    cases = [
        (["sft", "--config", str(local)], "must be an s3:// store URL"),
        (["dpo", "--config", str(local)], "is not a training job"),
        (["sft", "--config", str(tmp_path / "missing.yaml")], "cannot read"),
        (
            ["sft", "--config", str(PAPER / "sft.yaml"), "--nodes", "2", "--chart", str(tmp_path)],
            "is not a chart",
        ),
    ]
    for args, expected in cases:
        code, _, err = jobs_render(*args)
        assert code == 2, args
        (line,) = err.strip().splitlines()
        assert line.startswith("error: ")
        assert expected in line


def test_a_job_declared_in_the_release_values_is_the_same_object(tmp_path: Path) -> None:
    """GitOps: the chart renders `trainingJobs` with the template `jobs render` uses."""
    code, out, err = jobs_render("rl", "--config", str(PAPER / "rl.yaml"), "--gpus", "2",
                                 "--name", "rl-a", "--release", "rel")  # fmt: skip
    assert code == 0, err
    config = (PAPER / "rl.yaml").read_text()  # `config: |` keeps the file as it is
    values = tmp_path / "values.yaml"
    values.write_text(yaml.safe_dump({
        "policy": {"model": "s3://phonebuddy/checkpoints/sft"},
        "trainingJobs": [{"name": "rl-a", "job": "rl", "gpus": 2, "config": config}],
    }))  # fmt: skip
    helm = Path(sys.executable).parent / "helm"
    result = subprocess.run(
        [str(helm), "template", "rel", str(CHART), "-f", str(values)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    released = [doc for doc in yaml.safe_load_all(result.stdout) if doc]
    for kind, obj in objects_of(out).items():
        assert obj in released, kind
    accounts = [o["metadata"]["name"] for o in released if o["kind"] == "ServiceAccount"]
    assert "rel-phonebuddy-training" in accounts  # the Job's account is part of every release


def test_the_release_scrapes_and_admits_a_rendered_jobs_metrics(tmp_path: Path) -> None:
    """A job rendered by `jobs render` serves /metrics on a named port for two scrape intervals
    after its end; the release's PodMonitor selects it and its NetworkPolicy lets the scrapers
    (and only the job's own ranks otherwise) in."""
    config = tmp_path / "sft.yaml"
    config.write_text(yaml.safe_dump({"name": "s", "checkpoint": {"output": "s3://pb/c"}}))
    code, out, err = jobs_render("sft", "--config", str(config), "--release", "rel")
    assert code == 0, err
    pod = objects_of(out)["Job"]["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    assert container["ports"] == [{"name": "metrics", "containerPort": 9400, "protocol": "TCP"}]
    sets = dict(a.split("=", 1) for a in container["args"][5::2])
    assert sets == {"metrics.port": "9400", "metrics.host": "0.0.0.0", "metrics.linger_s": "30"}

    values = tmp_path / "values.yaml"
    values.write_text(yaml.safe_dump({
        "policy": {"model": "s3://phonebuddy/checkpoints/sft"},
        "monitoring": {"serviceMonitors": {"enabled": True, "interval": "1m"}},
        "networkPolicy": {"metricsNamespaceSelector": {"name": "monitoring"}},
    }))  # fmt: skip
    code, out, err = jobs_render("sft", "--config", str(config), "--release", "rel",
                                 "-f", str(values))  # fmt: skip
    assert code == 0, err
    (container,) = objects_of(out)["Job"]["spec"]["template"]["spec"]["containers"]
    assert "metrics.linger_s=120" in container["args"]
    helm = Path(sys.executable).parent / "helm"
    released = yaml.safe_load_all(subprocess.run(
        [str(helm), "template", "rel", str(CHART), "-f", str(values)],
        capture_output=True, text=True, check=True,
    ).stdout)  # fmt: skip
    by_name = {(o["kind"], o["metadata"]["name"]): o for o in released if o}
    monitor = by_name["PodMonitor", "rel-phonebuddy-training"]["spec"]
    policy = by_name["NetworkPolicy", "rel-phonebuddy-training"]["spec"]
    labels = pod["metadata"]["labels"]
    for selector in (monitor["selector"], policy["podSelector"]):
        assert selects(selector, labels)
        assert not selects(selector, {**labels, "app.kubernetes.io/instance": "other"})
    assert monitor["podMetricsEndpoints"][0]["port"] == "metrics"
    ranks, scrapers = policy["ingress"]
    assert "ports" not in ranks
    assert selects(ranks["from"][0]["podSelector"], labels)
    assert scrapers == {"from": [{"namespaceSelector": {"matchLabels": {"name": "monitoring"}}}],
                        "ports": [{"port": "metrics", "protocol": "TCP"}]}  # fmt: skip


def selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """A Kubernetes label selector (matchLabels, matchExpressions In/Exists) against labels."""
    if any(labels.get(k) != v for k, v in selector.get("matchLabels", {}).items()):
        return False
    for expression in selector.get("matchExpressions", []):
        key, operator = expression["key"], expression["operator"]
        if operator == "Exists" and key not in labels:
            return False
        if operator == "In" and labels.get(key) not in expression["values"]:
            return False
    return True
