"""`phonebuddy judge ...`: serve the judge over NATS, or calibrate it against PhoneWorld's
verifiers on a stored run."""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from phonebuddy.judge.calibration import CalibrationReport
    from phonebuddy.judge.settings import JudgeSettings

app = typer.Typer(
    help="The rubric judge: grades real-device episodes with an LLM rubric.",
    no_args_is_help=True,
)


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def _settings(**given: Any) -> JudgeSettings:
    from phonebuddy.judge.errors import JudgeConfigError
    from phonebuddy.judge.settings import load_settings

    try:
        return load_settings(**given)
    except JudgeConfigError as exc:
        raise _fail(str(exc)) from None


def _store(url: str | None) -> Any:
    from pydantic import ValidationError

    from phonebuddy.storage import StoreError, StoreSettings, open_store

    try:
        return open_store(StoreSettings(url=url) if url else StoreSettings())
    except (ValidationError, StoreError) as exc:
        raise _fail(f"invalid store settings: {exc}") from None


def _own_store_url() -> str:
    """The URL of the store PHONEBUDDY_STORE_* describe (requests naming it mean that one)."""
    from phonebuddy.storage import StoreSettings

    return StoreSettings().url


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="HTTP bind address [127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="HTTP port [8094]")] = None,
    nats_url: Annotated[
        str | None,
        typer.Option(help="NATS server [PHONEBUDDY_NATS_URL]; credentials from PHONEBUDDY_NATS_*"),
    ] = None,
    store_root: Annotated[
        list[str] | None,
        typer.Option(
            help="another store (or folder of stores: local:DIR, s3://bucket/prefix; ~ is your "
            "home) whose runs requests may ask to judge, besides PHONEBUDDY_STORE_ROOTS; "
            "repeatable"
        ),
    ] = None,
) -> None:
    """Grade episodes sent on the judge subject over NATS, plus /livez /readyz /metrics.
    Models and limits come from PHONEBUDDY_JUDGE_*, the store from PHONEBUDDY_STORE_*; a
    request may name its run's store when it is that one or under the store roots."""
    import uvicorn
    from pydantic import ValidationError

    from phonebuddy.bus import NatsSettings, redact_url
    from phonebuddy.judge.app import create_app
    from phonebuddy.protocol.subjects import JUDGE_SUBJECT
    from phonebuddy.telemetry import configure_logging

    configure_logging()
    settings = _settings(host=host, port=port)
    if store_root:
        settings = _settings(host=host, port=port, store_roots=(*settings.store_roots, *store_root))
    url = nats_url or os.environ.get("PHONEBUDDY_NATS_URL")
    try:
        nats = NatsSettings(url=url) if url else NatsSettings()
    except ValidationError as exc:
        raise _fail(f"invalid NATS settings: {exc}") from None
    store, store_url = _store(None), _own_store_url()
    typer.echo(f"rubric judge: rubric model {settings.rubric_model} at {settings.rubric_base_url}")
    typer.echo(f"  grader model {settings.grader_model} at {settings.grader_base_url}")
    typer.echo(f"  nats   {redact_url(nats.url)}  subject {JUDGE_SUBJECT}")
    typer.echo(f"  store  {store!r}")
    if settings.store_roots:
        typer.echo(f"  runs' stores also under {', '.join(settings.store_roots)}")
    typer.echo(f"  http   http://{settings.host}:{settings.port}  (/livez /readyz /metrics)")
    uvicorn.run(
        create_app(settings, nats, store, store_url=store_url),
        host=settings.host,
        port=settings.port,
        log_level="warning",
    )


@app.command()
def calibrate(
    run: Annotated[str, typer.Option("--run", help="the stored run whose episodes to judge")],
    store: Annotated[
        str | None,
        typer.Option(help="store URL (local:/path, s3://bucket\\[/prefix]) [PHONEBUDDY_STORE_URL]"),
    ] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, help="judge only the first N episodes (by id)")
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False,
    save_records: Annotated[
        bool, typer.Option(help="store each judge record beside its episode")
    ] = False,
) -> None:
    """Judge a run's PhoneWorld episodes in-process (they carry the verifier's verdict, the
    ground truth) and report agreement, precision and recall of "success", and judge errors."""
    from phonebuddy.judge.calibration import report_table
    from phonebuddy.storage import StoreError
    from phonebuddy.trajectories import TrajectoryError

    settings = _settings()
    object_store = _store(store)
    try:
        report = asyncio.run(_calibrate(settings, object_store, run, limit, save_records))
    except ValueError as exc:  # a run id that cannot be a run
        raise _fail(str(exc)) from None
    except (StoreError, TrajectoryError) as exc:
        raise _fail(f"cannot read run {run}: {exc}", code=1) from None
    if report.n == 0:
        raise _fail(
            f"run {run} in {object_store!r} has no episodes with a verifier verdict to compare "
            f"against ({report.skipped} without one)",
            code=1,
        )
    typer.echo(report.model_dump_json(indent=2) if json_output else report_table(report))


async def _calibrate(
    settings: JudgeSettings, object_store: Any, run: str, limit: int | None, save: bool
) -> CalibrationReport:
    from phonebuddy.judge.calibration import calibrate as calibrate_run
    from phonebuddy.judge.judge import Judge
    from phonebuddy.trajectories import TrajectoryStore

    async with object_store:
        trajectories = TrajectoryStore(object_store)
        async with Judge.from_settings(settings, trajectories) as judge:
            return await calibrate_run(
                judge, trajectories, run, limit=limit,
                concurrency=settings.max_concurrency * 2, save_records=save,
            )  # fmt: skip
