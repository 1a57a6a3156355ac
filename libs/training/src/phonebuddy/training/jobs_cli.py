"""`phonebuddy jobs render sft|rl|eval --config FILE`: a training Job for `kubectl apply -f -`.

The objects come from the chart's own template (`templates/training-jobs.yaml`, rendered by
Helm with the job as the only entry of `trainingJobs`), so a Job printed here and one declared in
the release's values for GitOps are the same objects. Give the values files of the installed
release (`--values`) and its name (`--release`) so that the Job finds its services, Secrets and
images.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml

from phonebuddy.training.command import fail

CHART_VARIABLE = "PHONEBUDDY_CHART"
TEMPLATE = "templates/training-jobs.yaml"
JOBS = ("sft", "rl", "eval")
# The policy server's checkpoint is required by the chart but plays no part in a Job.
UNUSED_POLICY_MODEL = "s3://unused/not-part-of-a-training-job"

app = typer.Typer(help="Kubernetes Jobs for the training jobs.", no_args_is_help=True)


def find_chart(given: Path | None) -> Path:
    """--chart, else $PHONEBUDDY_CHART, else charts/phonebuddy above the working folder or
    above this module (a checkout)."""
    if given is None and os.environ.get(CHART_VARIABLE):
        given = Path(os.environ[CHART_VARIABLE])
    if given is not None:
        if not (given / "Chart.yaml").is_file():
            raise fail(f"{given} is not a chart (no Chart.yaml)")
        return given
    for start in (Path.cwd(), Path(__file__).resolve()):
        for folder in (start, *start.parents):
            candidate = folder / "charts" / "phonebuddy"
            if (candidate / "Chart.yaml").is_file():
                return candidate
    raise fail(f"the phonebuddy chart was not found; pass --chart or set {CHART_VARIABLE}")


def find_helm() -> str:
    beside_python = Path(sys.executable).parent / "helm"
    if beside_python.is_file() and os.access(beside_python, os.X_OK):
        return str(beside_python)
    found = shutil.which("helm")
    if found is None:
        raise fail("helm is not installed (make setup puts it in .venv/bin)")
    return found


def job_name(config: dict[str, Any], job: str) -> str:
    """A DNS label from the config's `name` (tiny-sft, qwen3.5-4b-rl ...)."""
    raw = str(config.get("name") or job).lower()
    name = re.sub(r"[^a-z0-9-]+", "-", raw).strip("-")[:42].strip("-")
    return name or job


def read_config(path: Path) -> tuple[str, dict[str, Any]]:
    """The config's text (what the Job mounts, byte for byte) and its settings."""
    try:
        text = path.read_text(encoding="utf-8")
        config = yaml.safe_load(text)
    except OSError as exc:
        raise fail(f"cannot read {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise fail(f"{path} is not YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(config, dict):
        raise fail(f"{path} must hold a mapping of settings (the job's config)")
    return text, config


def render_job(
    job: str,
    config: str,
    *,
    chart: Path,
    release: str,
    namespace: str | None,
    values_files: list[Path],
    entry: dict[str, Any],
    kube_version: str | None = None,
) -> str:
    """The chart's training-job objects for one job, as YAML."""
    with tempfile.TemporaryDirectory(prefix="phonebuddy-jobs-") as folder:
        defaults = Path(folder) / "defaults.yaml"
        defaults.write_text(yaml.safe_dump({"policy": {"model": UNUSED_POLICY_MODEL}}))
        jobs = Path(folder) / "jobs.yaml"
        jobs.write_text(yaml.safe_dump({"trainingJobs": [{**entry, "job": job, "config": config}]}))
        command = [find_helm(), "template", release, str(chart), "--show-only", TEMPLATE]
        if namespace:
            command += ["--namespace", namespace]
        if kube_version:
            command += ["--kube-version", kube_version]
        for values in (defaults, *values_files, jobs):
            command += ["--values", str(values)]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        message = result.stderr.strip().splitlines()[0] if result.stderr.strip() else "failed"
        raise fail(re.sub(r"^Error: (execution error at \([^)]*\): )?", "", message))
    return result.stdout


@app.command()
def render(
    job: Annotated[str, typer.Argument(help="sft, rl or eval")],
    config_file: Annotated[
        Path, typer.Option("--config", help="the job's config (configs/paper/JOB.yaml ...)")
    ],
    name: Annotated[
        str | None, typer.Option(help="the Job's name (a DNS label); default: the config's name")
    ] = None,
    release: Annotated[str, typer.Option(help="the installed release's name")] = "phonebuddy",
    namespace: Annotated[str | None, typer.Option(help="the release's namespace")] = None,
    values: Annotated[
        list[Path] | None,
        typer.Option("--values", "-f", help="the release's values file (repeatable)"),
    ] = None,
    gpus: Annotated[int, typer.Option(min=0, help="GPUs per node (0: a CPU image)")] = 0,
    nodes: Annotated[int, typer.Option(min=1, help="nodes (an Indexed Job when > 1)")] = 1,
    image: Annotated[
        str | None, typer.Option(help="image repository; default phonebuddy/JOB[-gpu]")
    ] = None,
    arg: Annotated[
        list[str] | None,
        typer.Option("--arg", help="an extra argument for the job's command (repeatable)"),
    ] = None,
    cpu: Annotated[
        str | None, typer.Option(help="CPU per pod (request = limit), e.g. 4 or 500m")
    ] = None,
    memory: Annotated[
        str | None, typer.Option(help="memory per pod (request = limit), e.g. 16Gi")
    ] = None,
    kube_version: Annotated[
        str | None,
        typer.Option(help="the cluster's Kubernetes version, e.g. 1.27.3 (default: a current one)"),
    ] = None,
    chart: Annotated[Path | None, typer.Option(help=f"the chart [${CHART_VARIABLE}]")] = None,
) -> None:
    """Print a training Job (ConfigMap + Job) for `kubectl apply -f -`."""
    if job not in JOBS:
        raise fail(f"{job!r} is not a training job; use one of {', '.join(JOBS)}")
    text, config = read_config(config_file)
    entry: dict[str, Any] = {"name": name or job_name(config, job), "gpus": gpus, "nodes": nodes}
    if image:
        entry["image"] = {"repository": image}
    if arg:
        entry["args"] = list(arg)
    if cpu or memory:
        sizes = {key: value for key, value in (("cpu", cpu), ("memory", memory)) if value}
        entry["resources"] = {"requests": sizes, "limits": sizes}
    for path in values or ():
        if not path.is_file():
            raise fail(f"values file {path} does not exist")
    rendered = render_job(
        job,
        text,
        chart=find_chart(chart),
        release=release,
        namespace=namespace,
        values_files=list(values or ()),
        entry=entry,
        kube_version=kube_version,
    )
    typer.echo(rendered, nl=False)
