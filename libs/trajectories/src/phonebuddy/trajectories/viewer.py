"""The trajectory viewer: a small FastAPI app over a `TrajectoryStore`.

Pages (server-rendered HTML, no script, nothing loaded from elsewhere, so it works offline):

- `/`: the runs, with their manifest status, groups complete/failed and success rate;
- `/runs/{run_id}`: the run summary, then its episodes, filtered by the query parameters
  `source`, `outcome` (success, failure, judge_error), `template`, `app`, `category`;
- `/runs/{run_id}/episodes/{episode_id}`: each step's screenshot with the action drawn on it,
  the model's raw answer, the parsed action (or why it was invalid), timings and policy version;
  the final screenshot, the verdict and the judge's record if there is one;
- `/frames/{sha256}`: screenshot bytes (content-addressed, cached forever by browsers);
- `/api/runs`, `/api/runs/{run_id}`, `/api/runs/{run_id}/episodes/{episode_id}`: the same as JSON.

Model output is untrusted: every value is escaped and the pages are served with a Content
Security Policy that allows no script at all.

Stored episodes never change (writes are idempotent by id), so the viewer keeps a light copy of
each one it has read (without UI trees) and only fetches episodes it has not seen.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse

from phonebuddy.protocol import Episode, Observation
from phonebuddy.storage import IntegrityError
from phonebuddy.trajectories import layout, pages
from phonebuddy.trajectories.manifest import RunManifest
from phonebuddy.trajectories.store import TrajectoryError, TrajectoryStore
from phonebuddy.trajectories.summary import RunSummary, summarize

PER_PAGE = 200
_SHA256 = re.compile(r"[0-9a-f]{64}")
_CACHE_LIMIT = 200_000
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
_SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class NotFoundError(Exception):
    """Something the viewer was asked for that the store does not have."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(what)


def media_type(data: bytes) -> str:
    """The image type of screenshot bytes, from their signature."""
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return "application/octet-stream"


def _slim_observation(observation: Observation) -> Observation:
    return observation.model_copy(update={"ui_tree": None, "tools": ()})


def _slim(episode: Episode) -> Episode:
    """The episode without what listings never show (UI trees, tools, raw answers)."""
    steps = tuple(
        step.model_copy(
            update={"observation": _slim_observation(step.observation), "raw_output": ""}
        )
        for step in episode.steps
    )
    final = episode.final_observation
    return episode.model_copy(
        update={"steps": steps, "final_observation": final and _slim_observation(final)}
    )


class Catalog:
    """Runs and their episodes as the viewer lists them, read through a cache of light copies."""

    def __init__(self, store: TrajectoryStore, *, concurrency: int = 16) -> None:
        self.store = store
        self.concurrency = concurrency
        self._episodes: dict[tuple[str, str], Episode] = {}

    async def manifest(self, run_id: str) -> RunManifest:
        _check_id(run_id, "run")
        try:
            return await self.store.read_manifest(run_id)
        except TrajectoryError as exc:
            raise NotFoundError(f"there is no run {run_id!r} in this store") from exc

    async def episodes(self, run_id: str) -> list[Episode]:
        """Light copies of every stored episode of the run, in id order."""
        ids = await self.store.episode_ids(run_id)
        missing = [i for i in ids if (run_id, i) not in self._episodes]
        if len(self._episodes) + len(missing) > _CACHE_LIMIT:
            self._episodes.clear()
            missing = ids
        semaphore = asyncio.Semaphore(self.concurrency)

        async def load(episode_id: str) -> None:
            async with semaphore:
                episode = await self.store.get_episode(run_id, episode_id)
            self._episodes[(run_id, episode_id)] = _slim(episode)

        await asyncio.gather(*(load(i) for i in missing))
        return [self._episodes[(run_id, i)] for i in ids]

    async def run(self, run_id: str) -> tuple[RunManifest, list[Episode], RunSummary]:
        manifest = await self.manifest(run_id)
        episodes = await self.episodes(run_id)
        return manifest, episodes, summarize(manifest, episodes)

    async def runs(self) -> list[tuple[RunManifest, RunSummary]]:
        found = []
        for run_id in await self.store.run_ids():
            manifest, _, summary = await self.run(run_id)
            found.append((manifest, summary))
        found.sort(key=lambda item: item[0].created_at, reverse=True)
        return found

    async def episode(self, run_id: str, episode_id: str) -> Episode:
        _check_id(episode_id, "episode")
        try:
            return await self.store.get_episode(run_id, episode_id)
        except TrajectoryError as exc:
            raise NotFoundError(f"run {run_id!r} has no episode {episode_id!r}") from exc


def _check_id(value: str, what: str) -> None:
    try:
        layout.check_id(value, f"{what} id")
    except ValueError as exc:
        raise NotFoundError(f"{what} id {value!r} is not a valid id") from exc


def matches(episode: Episode, chosen: Mapping[str, str]) -> bool:
    """Whether `episode` passes every filter that has a value."""
    task = episode.task
    values = {
        "source": (task.source.value,),
        "outcome": (pages.outcome(episode),),
        "template": (task.template_id,),
        "app": task.apps,
        "category": (task.category.value,),
    }
    return all(not wanted or wanted in values[name] for name, wanted in chosen.items())


def filter_options(episodes: Sequence[Episode]) -> dict[str, list[str]]:
    """The values each filter can take in this run."""
    return {
        "source": sorted({e.task.source.value for e in episodes}),
        "outcome": list(pages.OUTCOMES),
        "template": sorted({e.task.template_id for e in episodes}),
        "app": sorted({app for e in episodes for app in e.task.apps}),
        "category": sorted({e.task.category.value for e in episodes}),
    }


def episode_row(statuses: Mapping[str, str], episode: Episode) -> dict[str, Any]:
    """One episode as the run listing's JSON shows it (`statuses`: of the run's groups)."""
    task = episode.task
    return {
        "episode_id": episode.episode_id,
        "group_id": episode.group_id,
        "group_status": pages.group_status(statuses, episode),
        "task_id": task.task_id,
        "template_id": task.template_id,
        "instruction": task.instruction_text,
        "source": task.source.value,
        "category": task.category.value,
        "apps": list(task.apps),
        "steps": len(episode.steps),
        "invalid_steps": episode.invalid_steps,
        "outcome": pages.outcome(episode),
        "reward": episode.reward,
        "status": episode.status.value,
        "policy_version": episode.policy.version,
    }


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status, headers=_SECURITY_HEADERS)


Filter = Annotated[str, Query(max_length=200)]


def create_viewer(store: TrajectoryStore) -> FastAPI:
    """The viewer app over `store` (which the caller opens and closes)."""
    app = FastAPI(
        title="PhoneBuddy trajectory viewer",
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    catalog = Catalog(store)
    app.state.catalog = catalog

    @app.exception_handler(NotFoundError)
    async def not_found(request: Request, exc: NotFoundError) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": exc.what}, status_code=404)
        return _html(pages.error_page(404, exc.what), 404)

    @app.exception_handler(TrajectoryError)
    async def unreadable(request: Request, exc: TrajectoryError) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": str(exc)}, status_code=500)
        return _html(pages.error_page(500, str(exc)), 500)

    def chosen_filters(**given: str) -> dict[str, str]:
        return {name: given[name].strip() for name in pages.FILTERS if given[name].strip()}

    @app.get("/livez", include_in_schema=False)
    async def livez() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/", response_class=HTMLResponse)
    async def index() -> HTMLResponse:
        return _html(pages.runs_page(await catalog.runs()))

    @app.get("/runs/{run_id}", response_class=HTMLResponse)
    async def run_page(
        run_id: str,
        source: Filter = "",
        outcome: Filter = "",
        template: Filter = "",
        app_: Annotated[str, Query(alias="app", max_length=200)] = "",
        category: Filter = "",
        page: Annotated[int, Query(ge=1)] = 1,
    ) -> HTMLResponse:
        chosen = chosen_filters(
            source=source, outcome=outcome, template=template, app=app_, category=category
        )
        manifest, episodes, summary = await catalog.run(run_id)
        selected = [e for e in episodes if matches(e, chosen)]
        pages_total = max(1, math.ceil(len(selected) / PER_PAGE))
        page = min(page, pages_total)
        return _html(
            pages.run_page(
                manifest,
                summary,
                selected[(page - 1) * PER_PAGE : page * PER_PAGE],
                total=len(selected),
                chosen=chosen,
                options=filter_options(episodes),
                page_number=page,
                pages=pages_total,
            )
        )

    @app.get("/runs/{run_id}/episodes/{episode_id}", response_class=HTMLResponse)
    async def episode_page(run_id: str, episode_id: str) -> HTMLResponse:
        manifest = await catalog.manifest(run_id)
        episode = await catalog.episode(run_id, episode_id)
        record = await store.get_judge_record(run_id, episode_id)
        return _html(pages.episode_page(manifest, episode, record))

    @app.get("/frames/{sha256}")
    async def frame(sha256: str, request: Request) -> Response:
        if not _SHA256.fullmatch(sha256):
            return Response(
                "a frame is addressed by its sha256: 64 lowercase hex digits\n",
                status_code=400,
                media_type="text/plain",
                headers=_SECURITY_HEADERS,
            )
        etag = f'"{sha256}"'
        cache = {"ETag": etag, "Cache-Control": "public, max-age=31536000, immutable"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers={**_SECURITY_HEADERS, **cache})
        try:
            data = await store.get_frame(sha256)
        except TrajectoryError as exc:
            raise NotFoundError(f"no screenshot {sha256} in this store") from exc
        except IntegrityError as exc:
            return Response(
                f"{exc}\n", status_code=500, media_type="text/plain", headers=_SECURITY_HEADERS
            )
        return Response(data, media_type=media_type(data), headers={**_SECURITY_HEADERS, **cache})

    # ---- JSON ----

    @app.get("/api/runs")
    async def api_runs() -> list[dict[str, Any]]:
        return [
            {
                "run_id": manifest.run_id,
                "status": manifest.status.value,
                "created_at": manifest.created_at.isoformat(),
                "finished_at": manifest.finished_at and manifest.finished_at.isoformat(),
                "policy": manifest.policy,
                "groups_complete": summary.groups_complete,
                "groups_failed": summary.groups_failed,
                "groups_pending": summary.groups_pending,
                "episodes": summary.episodes,
                "success_rate": summary.overall.success_rate,
                "ci95": list(summary.overall.ci95),
            }
            for manifest, summary in await catalog.runs()
        ]

    @app.get("/api/runs/{run_id}")
    async def api_run(
        run_id: str,
        source: Filter = "",
        outcome: Filter = "",
        template: Filter = "",
        app_: Annotated[str, Query(alias="app", max_length=200)] = "",
        category: Filter = "",
    ) -> dict[str, Any]:
        chosen = chosen_filters(
            source=source, outcome=outcome, template=template, app=app_, category=category
        )
        manifest, episodes, summary = await catalog.run(run_id)
        selected = [e for e in episodes if matches(e, chosen)]
        statuses = pages.group_statuses(manifest)
        return {
            "manifest": manifest.model_dump(mode="json"),
            "summary": summary.model_dump(mode="json"),
            "filters": chosen,
            "episodes": [episode_row(statuses, e) for e in selected],
        }

    @app.get("/api/runs/{run_id}/episodes/{episode_id}")
    async def api_episode(run_id: str, episode_id: str) -> dict[str, Any]:
        manifest = await catalog.manifest(run_id)
        episode = await catalog.episode(run_id, episode_id)
        return {
            "episode": episode.model_dump(mode="json"),
            "outcome": pages.outcome(episode),
            "group_status": pages.group_status(pages.group_statuses(manifest), episode),
            "judge_record": await store.get_judge_record(run_id, episode_id),
        }

    return app
