"""`phonebuddy world ...`: list apps and tasks, run and check oracles, render them, measure,
and serve devices over NATS."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Annotated, Any

import typer

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.oracle import OracleError
from phonebuddy.phoneworld.tasks.registry import UnknownTaskError, all_templates, get_template
from phonebuddy.phoneworld.tasks.runner import check_template, instantiate, oracle_steps, start
from phonebuddy.phoneworld.tasks.splits import held_out_reason
from phonebuddy.phoneworld.tasks.suites import get_suite, suite_names
from phonebuddy.phoneworld.world import default_world

app = typer.Typer(help="PhoneWorld: simulated phones with verified tasks.", no_args_is_help=True)
JsonFlag = Annotated[bool, typer.Option("--json", help="print JSON for scripts")]


def _emit(rows: list[dict[str, Any]], as_json: bool, columns: list[str]) -> None:
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in columns} if rows else {}
    typer.echo("  ".join(c.ljust(widths[c]) for c in columns))
    for row in rows:
        typer.echo("  ".join(str(row[c]).ljust(widths[c]) for c in columns))


@app.command("apps")
def list_apps(as_json: JsonFlag = False) -> None:
    """List the apps: package, name, domain, screens, direct tools."""
    rows = [
        {"package": a.package, "name": a.label.zh, "name_en": a.label.en, "domain": a.domain,
         "screens": sorted(a.screens), "tools": sorted(a.tools)}
        for a in default_world(0).apps
    ]  # fmt: skip
    if not as_json:
        for row in rows:
            row["screens"] = len(row["screens"])
            row["tools"] = ",".join(row["tools"]) or "-"
    _emit(rows, as_json, ["package", "name", "name_en", "domain", "screens", "tools"])


@app.command("tasks")
def list_tasks(
    as_json: JsonFlag = False,
    category: Annotated[str | None, typer.Option(help="only this category")] = None,
) -> None:
    """List the task templates: id, category, apps, difficulty, held out (by app or template:
    on the test split at every seed), sample params."""
    world = default_world(0)
    rows = []
    for template in all_templates():
        if category and template.category.value != category:
            continue
        params = template.sample(world, random.Random(0))
        rows.append({
            "id": template.id, "category": template.category.value,
            "apps": list(template.apps), "difficulty": template.difficulty,
            "answers": template.answers, "held_out": held_out_reason(template) or "-",
            "params": params,
            "instruction": template.instruction(params).en,
            "phrasings": len(template.phrasings(params)),
        })  # fmt: skip
    if not as_json:
        for row in rows:
            row["apps"] = ",".join(a.removeprefix("com.pw.") for a in row["apps"])
    columns = ["id", "category", "apps", "difficulty", "answers", "held_out", "phrasings",
               "instruction"]  # fmt: skip
    _emit(rows, as_json, columns)


@app.command("suites")
def list_suites(as_json: JsonFlag = False) -> None:
    """List the task suites: name, split, the seeds it is taken at, templates, what it holds."""
    rows = []
    for name in suite_names():
        suite = get_suite(name)
        seeds = suite.seeds
        rows.append({
            "name": name, "split": suite.split.value if suite.split else "-",
            "seeds": f"[{seeds[0]}, {seeds[1]})" if seeds else "any",
            "templates": len(suite.templates), "description": suite.description,
        })  # fmt: skip
    _emit(rows, as_json, ["name", "split", "seeds", "templates", "description"])


@app.command("overlap")
def list_overlap(
    as_json: JsonFlag = False,
    train_seeds: Annotated[int, typer.Option(help="the first N train seeds")] = 100,
    test_seeds: Annotated[int, typer.Option(help="the first N test seeds")] = 20,
    template: Annotated[list[str] | None, typer.Option(help="only these (repeatable)")] = None,
) -> None:
    """Per template, the share of test seeds that repeat a train seed's situation (the same
    instruction and parameters): results on those measure memory, not reading."""
    from phonebuddy.phoneworld.tasks.overlap import overlap

    world = default_world(0)
    try:
        chosen = [get_template(t) for t in template] if template else all_templates()
    except UnknownTaskError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    rows = []
    for item in chosen:
        found = overlap(item, world, train_seeds=train_seeds, test_seeds=test_seeds)
        rows.append({
            "id": found.template_id, "repeats": found.repeats, "test_seeds": found.test_seeds,
            "share": round(found.share, 3),
            "train_situations": found.distinct_train_situations,
        })  # fmt: skip
    _emit(rows, as_json, ["id", "repeats", "test_seeds", "share", "train_situations"])


@app.command()
def solve(
    template: Annotated[str | None, typer.Option(help="one template id")] = None,
    all_: Annotated[bool, typer.Option("--all", help="every template")] = False,
    seeds: Annotated[int, typer.Option(min=1, help="seeds 0..K-1 per template")] = 3,
    as_json: JsonFlag = False,
) -> None:
    """Run oracles and near misses: each oracle must succeed, each near miss must be rejected."""
    if not all_ and template is None:
        typer.echo("error: give --template ID or --all", err=True)
        raise typer.Exit(2)
    try:
        templates = all_templates() if all_ else (get_template(template or ""),)
    except UnknownTaskError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    world = default_world(0)
    rows = []
    for item in templates:
        for seed in range(seeds):
            report = check_template(world, item, seed)
            rows.append({
                "template": item.id, "seed": seed, "ok": report.ok, "steps": report.oracle_steps,
                "verdict": report.verdict.reason if report.verdict else report.error,
                "near_misses": report.near_misses,
            })  # fmt: skip
    failed = [r for r in rows if not r["ok"]]
    if as_json:
        typer.echo(json.dumps({"checked": len(rows), "failed": len(failed), "results": rows},
                              ensure_ascii=False, indent=2))  # fmt: skip
    else:
        for row in rows:
            mark = "ok  " if row["ok"] else "FAIL"
            detail = "" if row["ok"] else f"  {row['verdict']} {row['near_misses']}"
            typer.echo(f"{mark} {row['template']} seed={row['seed']} steps={row['steps']}{detail}")
        typer.echo(f"{len(rows) - len(failed)} passed, {len(failed)} failed")
    if failed:
        raise typer.Exit(1)


@app.command()
def render(
    template: Annotated[str, typer.Option(help="template id")],
    out: Annotated[Path, typer.Option(help="folder for the screenshots")],
    seed: Annotated[int, typer.Option()] = 0,
    image_format: Annotated[str, typer.Option("--format", help="png or jpeg")] = "png",
    as_json: JsonFlag = False,
) -> None:
    """Save the screenshots of an oracle run (step-000.png ...) and its actions (actions.json)."""
    if image_format not in ("png", "jpeg"):
        typer.echo("error: --format must be png or jpeg", err=True)
        raise typer.Exit(2)
    try:
        task = get_template(template)
    except UnknownTaskError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    world = default_world(0)
    device = Device(world)
    instance = instantiate(task, world, seed)
    start(device, instance)
    out.mkdir(parents=True, exist_ok=True)
    suffix = "png" if image_format == "png" else "jpg"
    steps: list[dict[str, Any]] = []

    def save(index: int) -> None:
        path = out / f"step-{index:03d}.{suffix}"
        path.write_bytes(device.frame(image_format).data)  # type: ignore[arg-type]

    save(0)
    try:
        played = oracle_steps(device, task, instance.params)
        for index, (action, result) in enumerate(played, start=1):
            steps.append({"step": index, "action": action.model_dump(mode="json"),
                          "effect": result.effect, "note": result.note})  # fmt: skip
            save(index)
    except OracleError as exc:
        typer.echo(f"error: the oracle stopped: {exc}", err=True)
        raise typer.Exit(1) from None
    (out / "actions.json").write_text(json.dumps(
        {"task": instance.spec.model_dump(mode="json"), "steps": steps}, ensure_ascii=False,
        indent=2))  # fmt: skip
    if as_json:
        typer.echo(json.dumps({"out": str(out), "screenshots": len(steps) + 1, "steps": steps},
                              ensure_ascii=False))  # fmt: skip
    else:
        typer.echo(f"wrote {len(steps) + 1} screenshots to {out}")


@app.command()
def bench(
    devices: Annotated[int, typer.Option(min=1, help="devices for the memory measurement")] = 200,
    repeat: Annotated[int, typer.Option(min=10, help="samples per measurement")] = 200,
) -> None:
    """Measure act / observe / reset / fork latency and memory per idle device (JSON)."""
    from phonebuddy.phoneworld.bench import run

    typer.echo(json.dumps(run(devices=devices, repeat=repeat), indent=2))


@app.command()
def serve(
    devices: Annotated[int | None, typer.Option(min=1, help="devices in this process [4]")] = None,
    host: Annotated[str | None, typer.Option(help="HTTP bind address [127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="HTTP port [8090]")] = None,
    nats_url: Annotated[
        str | None, typer.Option(help="NATS server; credentials from PHONEBUDDY_NATS_*")
    ] = None,
    instance_id: Annotated[str | None, typer.Option(help="subject token of this instance")] = None,
    world_seed: Annotated[int | None, typer.Option(help="seed of the shared content [0]")] = None,
    adb_ports: Annotated[
        int | None, typer.Option("--adb-ports", help="device i speaks ADB on port BASE+i")
    ] = None,
    adb_register: Annotated[
        str | None, typer.Option(help="HOST:PORT of an adb server to list the devices in")
    ] = None,
) -> None:
    """Host N devices and serve the env verbs over NATS (and ADB), plus /livez /readyz /metrics.

    Options left out come from PHONEBUDDY_WORLD_* variables, then the defaults shown."""
    import uvicorn
    from pydantic import ValidationError

    from phonebuddy.bus import NatsSettings
    from phonebuddy.phoneworld.service.app import create_app
    from phonebuddy.phoneworld.service.settings import WorldSettings
    from phonebuddy.telemetry import configure_logging

    configure_logging()
    given = {"devices": devices, "host": host, "port": port, "instance_id": instance_id,
             "world_seed": world_seed, "adb_base_port": adb_ports,
             "adb_register": adb_register}  # fmt: skip
    try:
        settings = WorldSettings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    url = nats_url or os.environ.get("PHONEBUDDY_NATS_URL")
    nats = NatsSettings(url=url) if url else None
    typer.echo(f"PhoneWorld {settings.instance_id}: {settings.devices} devices")
    typer.echo(f"  http   http://{settings.host}:{settings.port}  (/livez /readyz /metrics)")
    typer.echo(f"  nats   {url or 'disabled (no --nats-url)'}")
    if settings.adb_base_port is not None:
        last = settings.adb_base_port + settings.devices - 1
        where = f", registered with {settings.adb_register}" if settings.adb_register else ""
        typer.echo(f"  adb    {settings.host}:{settings.adb_base_port}-{last}{where}")
    uvicorn.run(
        create_app(settings, nats), host=settings.host, port=settings.port, log_level="warning"
    )
