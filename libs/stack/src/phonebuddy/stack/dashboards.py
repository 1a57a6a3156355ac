"""`phonebuddy dashboards check`: run every dashboard panel's PromQL over a time range on a
Prometheus (the local stack's, or a cluster's through `kubectl port-forward`) and say which
panels would show data and which would be empty — the check that the scrape targets, the
recording rules and the dashboards agree on metric names and labels."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Annotated

import httpx
import typer

from phonebuddy.stack.stack_file import StackNotRunningError, default_stack_file, load_stack
from phonebuddy.telemetry.observability.dashboards import DASHBOARDS, Dashboard

dashboards_app = typer.Typer(
    help="Check the Grafana dashboards against a Prometheus.", no_args_is_help=True
)


@dataclass(frozen=True)
class TargetData:
    dashboard: str
    panel: str
    expr: str
    series: int  # series with at least one sample in the range
    error: str = ""

    @property
    def has_data(self) -> bool:
        return self.series > 0 and not self.error


def panel_data(
    prometheus_url: str,
    *,
    start: float,
    end: float,
    step_s: float = 5.0,
    dashboards: Sequence[Dashboard] = DASHBOARDS,
    timeout_s: float = 10.0,
) -> list[TargetData]:
    """Each panel target's range query over [start, end], as Grafana would run it."""
    results: list[TargetData] = []
    with httpx.Client(base_url=prometheus_url, timeout=timeout_s) as client:
        for dashboard in dashboards:
            for panel in dashboard.panels:
                for expr in panel.exprs:
                    series, error = _range_query(client, expr, start, end, step_s)
                    results.append(TargetData(dashboard.uid, panel.title, expr, series, error))
    return results


def _range_query(
    client: httpx.Client, expr: str, start: float, end: float, step_s: float
) -> tuple[int, str]:
    # A float step is seconds; "1.0s" would be refused (durations are whole units).
    params = {"query": expr, "start": f"{start:.3f}", "end": f"{end:.3f}", "step": f"{step_s:g}"}
    try:
        response = client.get("/api/v1/query_range", params=params)
        body = response.json()
    except (httpx.HTTPError, ValueError) as exc:
        return 0, f"{type(exc).__name__}: {exc}"
    if body.get("status") != "success":
        return 0, str(body.get("error", response.text))[:300]
    return sum(1 for item in body["data"]["result"] if item.get("values")), ""


def _parse_duration(text: str) -> float:
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    try:
        return float(text[:-1]) * units[text[-1]]
    except (KeyError, ValueError, IndexError):
        raise typer.BadParameter(f"{text!r} is not a duration like 30m, 6h or 2d") from None


@dashboards_app.command("check")
def check(
    prometheus: Annotated[
        str | None,
        typer.Option(help="Prometheus URL \\[default: the running local stack's]"),
    ] = None,
    since: Annotated[str, typer.Option(help="how far back to look, e.g. 30m, 6h")] = "1h",
    as_json: Annotated[bool, typer.Option("--json", help="one JSON line per panel target")] = False,
) -> None:
    """Run every panel's query over the last `--since`; exit 1 if any panel target is empty."""
    if prometheus is None:
        try:
            info = load_stack(default_stack_file())
        except StackNotRunningError as exc:
            raise typer.BadParameter(f"{exc}; or pass --prometheus URL") from None
        prometheus = next(e.url for e in info.endpoints if e.name == "prometheus")
    end = time.time()
    results = panel_data(prometheus, start=end - _parse_duration(since), end=end)
    for result in results:
        if as_json:
            typer.echo(json.dumps(asdict(result) | {"has_data": result.has_data}))
        else:
            mark = "ok   " if result.has_data else "EMPTY"
            detail = f" ({result.error})" if result.error else f" {result.series} series"
            typer.echo(f"{mark} {result.dashboard} / {result.panel}: {result.expr}{detail}")
    empty = [r for r in results if not r.has_data]
    typer.echo(f"{len(results) - len(empty)} of {len(results)} panel targets have data", err=True)
    if empty:
        raise typer.Exit(1)
