"""A run -> parquet shards for SFT: one row per step that has an action, with its screenshots.

Each row is the example `phonebuddy.agent.sft_examples` builds, so the prompt is exactly the one
the rollout sent: `messages` (the chat messages as JSON, the target last, each image a
`{"type": "image"}` placeholder), `tools`, the rendered `prompt_text` and `completion_text`, and
`images`: the screenshot bytes in the order the prompt shows them (fetched from the store and
checked against their hash), beside `image_sha256` and `image_media_type`.

Which episodes: those of complete groups only (a failed or pending group never counts; when a
complete group lists its episode ids, only those — an extra redundant episode does not), plus
episodes recorded outside any group, as `summarize` counts them; by default only successful ones.

Shards are `part-00000.parquet`, `part-00001.parquet`... of at most `rows_per_shard` rows, plus
`export.json` (an `ExportReport`, listing each shard with its size and sha256), written to a
local folder and/or to the object store under `exports/<run_id>/`. `verified_export` is how a
reader takes a local export: only when the folder holds exactly the listed shards, intact. Needs
the `export` extra (pyarrow).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import os
import re
import tempfile
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from phonebuddy.agent import PromptConfig, sft_examples
from phonebuddy.protocol import Episode, FrameRef
from phonebuddy.trajectories import layout
from phonebuddy.trajectories.manifest import GroupRecord, GroupStatus, RunManifest, utcnow
from phonebuddy.trajectories.store import TrajectoryStore

EXPORTS = "exports/"
REPORT_NAME = "export.json"
DEFAULT_ROWS_PER_SHARD = 512
_FILE_MODE = 0o644
_SHARD = re.compile(r"^part-(\d{5,})\.parquet$")

COLUMNS: tuple[str, ...] = (
    "run_id", "episode_id", "task_id", "template_id", "seed", "split", "category", "source", "apps",
    "instruction", "step_index", "reward", "success", "policy_version", "messages", "tools",
    "prompt_text", "completion_text", "images", "image_sha256", "image_media_type",
)  # fmt: skip


class ExportError(Exception):
    """An export that cannot be done; the message says why."""


def shard_name(index: int) -> str:
    return f"part-{index:05d}.parquet"


def export_prefix(run_id: str) -> str:
    """Where `export_run(..., to_store=True)` puts a run's shards in the object store."""
    return f"{EXPORTS}{layout.check_id(run_id, 'run id')}/"


class Shard(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    rows: int
    size_bytes: int
    sha256: str


class ExportReport(BaseModel):
    """What an export wrote and what it left out (`export.json` beside the shards)."""

    model_config = ConfigDict(frozen=True)

    run_id: str
    created_at: datetime = Field(default_factory=utcnow)
    out_dir: str | None = Field(description="the local folder of the shards, if any")
    store_prefix: str | None = Field(description="their object-store prefix, if any")
    only_successful: bool
    prompt_config: PromptConfig
    rows_per_shard: int
    rows: int
    shards: list[Shard]
    episodes: int = Field(description="episodes with at least one row")
    episodes_skipped: dict[str, int] = Field(
        description="episodes left out, by reason: group_failed, group_pending, "
        "not_in_group (a redundant extra of a complete group), unknown_group, unsuccessful"
    )
    invalid_steps_skipped: int = Field(description="steps without an action (no target)")
    images: int = Field(description="distinct screenshots in the shards")
    image_bytes: int = Field(description="bytes of the distinct screenshots")
    columns: tuple[str, ...] = COLUMNS


def _file_sha256(path: Path) -> str:
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def verified_export(folder: Path | str) -> ExportReport:
    """The report of the export in the local `folder`, once the folder is shown to hold exactly
    the shards its `export.json` lists (no `*.parquet` file more or less), each of the recorded
    size and sha256. Raises `ExportError` naming the first file that is not as recorded."""
    folder = Path(folder)
    report_path = folder / REPORT_NAME
    try:
        text = report_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ExportError(
            f"{report_path} is missing; {folder} is not a whole `phonebuddy trajectories export` "
            "folder (export again, or copy the folder with its export.json)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExportError(f"{report_path} cannot be read ({exc})") from exc
    try:
        report = ExportReport.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ExportError(
            f"{report_path} is not a valid export report ({where + ': ' if where else ''}"
            f"{first['msg']})"
        ) from None
    for shard in report.shards:
        if not _SHARD.fullmatch(shard.name):
            raise ExportError(f"{report_path} lists {shard.name!r}, which is not a shard name")
    listed = {shard.name for shard in report.shards}
    try:
        names = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".parquet"))
    except OSError as exc:
        raise ExportError(f"cannot list the export folder {folder} ({exc})") from exc
    for name in names:
        if name not in listed:
            raise ExportError(
                f"{folder / name} is not a shard that {report_path} lists; "
                "remove it, or export again to include its rows"
            )
    for shard in report.shards:
        path = folder / shard.name
        try:
            size = path.stat().st_size
            digest = _file_sha256(path) if size == shard.size_bytes else None
        except FileNotFoundError:
            raise ExportError(f"{path}, listed in {report_path}, is missing") from None
        except OSError as exc:
            raise ExportError(f"{path} cannot be read ({exc})") from exc
        if digest != shard.sha256:
            found = f"{size} bytes" if digest is None else f"sha256 {digest[:12]}"
            raise ExportError(
                f"{path} does not match the sha256 that {report_path} records "
                f"({found}; recorded {shard.size_bytes} bytes, sha256 {shard.sha256[:12]}): "
                "the file is damaged or was replaced"
            )
    return report


def _schema() -> Any:
    import pyarrow as pa

    return pa.schema([
        ("run_id", pa.string()),
        ("episode_id", pa.string()),
        ("task_id", pa.string()),
        ("template_id", pa.string()),
        ("seed", pa.int64()),
        ("split", pa.string()),
        ("category", pa.string()),
        ("source", pa.string()),
        ("apps", pa.list_(pa.string())),
        ("instruction", pa.string()),
        ("step_index", pa.int32()),
        ("reward", pa.float64()),
        ("success", pa.bool_()),
        ("policy_version", pa.string()),
        ("messages", pa.string()),
        ("tools", pa.string()),
        ("prompt_text", pa.string()),
        ("completion_text", pa.string()),
        ("images", pa.list_(pa.binary())),
        ("image_sha256", pa.list_(pa.string())),
        ("image_media_type", pa.list_(pa.string())),
    ])  # fmt: skip


def _require_pyarrow() -> None:
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError as exc:
        raise ExportError(
            "parquet export needs pyarrow: pip install 'phonebuddy-trajectories[export]'"
        ) from exc


def _placeholders(messages: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages with each image part reduced to `{"type": "image"}` (the bytes are in `images`,
    in the same order)."""
    out = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            parts = [{"type": "image"} if part.get("type") == "image" else part for part in content]
            message = {**message, "content": parts}
        out.append(message)
    return out


def selection(
    groups: Mapping[str, GroupRecord], episode: Episode, *, only_successful: bool
) -> str | None:
    """None if `episode` is exported, else why not (a key of `episodes_skipped`). `groups`
    are the run manifest's, by id."""
    if episode.group_id is not None:
        group = groups.get(episode.group_id)
        if group is None:
            return "unknown_group"
        if group.status == GroupStatus.FAILED:
            return "group_failed"
        if group.status == GroupStatus.PENDING:
            return "group_pending"
        if group.episodes and episode.episode_id not in group.episodes:
            return "not_in_group"
    if only_successful and not (episode.verdict is not None and episode.verdict.success):
        return "unsuccessful"
    return None


def run_prompt_config(manifest: RunManifest) -> PromptConfig:
    """The prompt layout the run's rollouts used: its `prompt_config` setting, else the
    default."""
    given = manifest.settings.get("prompt_config")
    if given is None:
        return PromptConfig()
    try:
        return PromptConfig.model_validate(given)
    except ValidationError as exc:
        raise ExportError(
            f"run {manifest.run_id} has an invalid prompt_config setting {given!r}: {exc}"
        ) from exc


class _Rows:
    """A run's exported episodes as rows, fetching each screenshot from the store once per
    episode; what it left out is counted as it goes."""

    def __init__(self, store: TrajectoryStore, manifest: RunManifest, config: PromptConfig) -> None:
        self.store = store
        self.run_id = manifest.run_id
        self.groups = {group.group_id: group for group in manifest.groups}
        self.config = config
        self.image_sizes: dict[str, int] = {}
        self.invalid_steps = 0

    @classmethod
    async def of_run(
        cls, store: TrajectoryStore, run_id: str, prompt_config: PromptConfig | None
    ) -> _Rows:
        manifest = await store.read_manifest(run_id)
        return cls(store, manifest, prompt_config or run_prompt_config(manifest))

    async def by_episode(
        self, *, only_successful: bool, skipped: dict[str, int]
    ) -> AsyncIterator[list[dict[str, Any]]]:
        """The rows of each exported episode in store order (none for an episode without an
        action step); the others are counted by reason in `skipped`."""
        async for episode in self.store.episodes(self.run_id):
            reason = selection(self.groups, episode, only_successful=only_successful)
            if reason is None:
                yield await self.rows(episode)
            else:
                skipped[reason] = skipped.get(reason, 0) + 1

    async def _images(self, refs: Iterable[FrameRef]) -> dict[str, bytes]:
        wanted = {ref.sha256: ref for ref in refs}
        shas = list(wanted)
        data = await asyncio.gather(*(self.store.get_frame(sha) for sha in shas))
        return dict(zip(shas, data, strict=True))

    async def rows(self, episode: Episode) -> list[dict[str, Any]]:
        examples = sft_examples(episode, config=self.config)
        steps = [step for step in episode.steps if step.action is not None]
        self.invalid_steps += len(episode.steps) - len(steps)
        images = await self._images(ref for ex in examples for ref in ex.prompt.frames)
        for sha, data in images.items():
            self.image_sizes[sha] = len(data)
        success = episode.verdict is not None and episode.verdict.success
        rows = []
        for step, example in zip(steps, examples, strict=True):
            frames = example.prompt.frames
            rows.append({
                "run_id": episode.run_id,
                "episode_id": episode.episode_id,
                "task_id": episode.task.task_id,
                "template_id": episode.task.template_id,
                "seed": episode.task.seed,
                "split": episode.task.split.value if episode.task.split else None,
                "category": episode.task.category.value,
                "source": episode.task.source.value,
                "apps": list(episode.task.apps),
                "instruction": episode.task.instruction_text,
                "step_index": step.index,
                "reward": episode.reward,
                "success": success,
                "policy_version": step.policy_version or episode.policy.version,
                "messages": json.dumps(
                    _placeholders(example.chat_messages()), ensure_ascii=False
                ),
                "tools": json.dumps(list(example.prompt.tools), ensure_ascii=False),
                "prompt_text": example.prompt_text(),
                "completion_text": example.completion_text(),
                "images": [images[ref.sha256] for ref in frames],
                "image_sha256": [ref.sha256 for ref in frames],
                "image_media_type": [ref.media_type for ref in frames],
            })  # fmt: skip
        return rows


def _parquet_bytes(rows: list[dict[str, Any]]) -> tuple[bytes, str]:
    """The shard's bytes and their sha256."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pylist(rows, schema=_schema())
    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression="zstd")
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()


def _write_file_atomic(path: Path, data: bytes) -> None:
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temp, _FILE_MODE)  # mkstemp makes it private; training jobs read it
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _stale(names: Iterable[str], shards: int) -> Iterator[str]:
    """Shard names from an earlier, longer export of the same run (to remove)."""
    for name in names:
        match = _SHARD.fullmatch(name)
        if match and int(match.group(1)) >= shards:
            yield name


class _Sink:
    """Where shards go: a local folder, the object store, or both."""

    def __init__(self, store: TrajectoryStore, out_dir: Path | None, prefix: str | None) -> None:
        self.store = store
        self.out_dir = out_dir
        self.prefix = prefix

    async def prepare(self) -> None:
        if self.out_dir is not None:
            try:
                await asyncio.to_thread(self.out_dir.mkdir, parents=True, exist_ok=True)
            except OSError as exc:
                raise ExportError(f"cannot create the export folder {self.out_dir}: {exc}") from exc

    async def put(self, name: str, data: bytes, content_type: str) -> None:
        if self.out_dir is not None:
            await asyncio.to_thread(_write_file_atomic, self.out_dir / name, data)
        if self.prefix is not None:
            await self.store.store.put_bytes(self.prefix + name, data, content_type=content_type)

    async def remove_stale(self, shards: int) -> None:
        if self.out_dir is not None:
            names = await asyncio.to_thread(os.listdir, self.out_dir)
            for name in _stale(names, shards):
                await asyncio.to_thread((self.out_dir / name).unlink, missing_ok=True)
        if self.prefix is not None:
            keys = await self.store.store.list(self.prefix)
            for name in _stale((key.removeprefix(self.prefix) for key in keys), shards):
                await self.store.store.delete(self.prefix + name)


async def run_rows(
    store: TrajectoryStore,
    run_id: str,
    *,
    only_successful: bool = True,
    prompt_config: PromptConfig | None = None,
    skipped: dict[str, int] | None = None,
) -> AsyncIterator[dict[str, Any]]:
    """The SFT rows of `run_id` (what `export_run` writes), episode by episode: the same
    selection, prompts and hash-checked screenshots, for readers that train on a run directly.
    Episodes left out are counted by reason in `skipped` when given."""
    rows_maker = await _Rows.of_run(store, run_id, prompt_config)
    by_episode = rows_maker.by_episode(
        only_successful=only_successful, skipped={} if skipped is None else skipped
    )
    async for rows in by_episode:
        for row in rows:
            yield row


async def export_run(
    store: TrajectoryStore,
    run_id: str,
    out_dir: Path | str | None,
    *,
    to_store: bool = False,
    rows_per_shard: int = DEFAULT_ROWS_PER_SHARD,
    only_successful: bool = True,
    prompt_config: PromptConfig | None = None,
) -> ExportReport:
    """Write the SFT rows of `run_id` as parquet shards into `out_dir` and/or, with
    `to_store`, into the object store under `exports/<run_id>/`. Shards of an earlier export
    of the run in the same place are replaced (extra ones removed).

    `prompt_config` is the prompt layout the rollouts used; by default the run's
    `settings["prompt_config"]` if the manifest has one, else `PromptConfig()`."""
    if rows_per_shard < 1:
        raise ValueError(f"rows_per_shard must be at least 1, not {rows_per_shard}")
    if out_dir is None and not to_store:
        raise ValueError("say where to export: an out_dir, to_store=True, or both")
    _require_pyarrow()
    rows_maker = await _Rows.of_run(store, run_id, prompt_config)
    sink = _Sink(
        store,
        await asyncio.to_thread(Path(out_dir).absolute) if out_dir is not None else None,
        export_prefix(run_id) if to_store else None,
    )
    await sink.prepare()
    skipped: dict[str, int] = {}
    pending: list[dict[str, Any]] = []
    shards: list[Shard] = []
    exported_episodes = 0

    async def flush(rows: list[dict[str, Any]]) -> None:
        data, digest = await asyncio.to_thread(_parquet_bytes, rows)
        name = shard_name(len(shards))
        await sink.put(name, data, "application/vnd.apache.parquet")
        shards.append(Shard(name=name, rows=len(rows), size_bytes=len(data), sha256=digest))

    async for rows in rows_maker.by_episode(only_successful=only_successful, skipped=skipped):
        exported_episodes += bool(rows)
        pending.extend(rows)
        while len(pending) >= rows_per_shard:
            await flush(pending[:rows_per_shard])
            del pending[:rows_per_shard]
    if pending:
        await flush(pending)
    await sink.remove_stale(len(shards))
    report = ExportReport(
        run_id=run_id,
        out_dir=str(sink.out_dir) if sink.out_dir is not None else None,
        store_prefix=sink.prefix,
        only_successful=only_successful,
        prompt_config=rows_maker.config,
        rows_per_shard=rows_per_shard,
        rows=sum(shard.rows for shard in shards),
        shards=shards,
        episodes=exported_episodes,
        episodes_skipped=dict(sorted(skipped.items())),
        invalid_steps_skipped=rows_maker.invalid_steps,
        images=len(rows_maker.image_sizes),
        image_bytes=sum(rows_maker.image_sizes.values()),
    )
    await sink.put(REPORT_NAME, report.model_dump_json(indent=2).encode(), "application/json")
    return report
