"""The viewer's HTML: plain server-rendered pages, no script, no external resource.

Everything that comes from a run (model output above all, but also instructions, ids, judge
records) passes through `esc` before it reaches the page; the only markup built from data is
numbers and ids checked against `layout.check_id`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote, urlencode

from phonebuddy.agent import action_text
from phonebuddy.protocol import Episode, Observation, Step, to_arguments
from phonebuddy.trajectories.manifest import GroupStatus, RunManifest
from phonebuddy.trajectories.marks import overlay
from phonebuddy.trajectories.summary import Rate, RunSummary

FILTERS: tuple[str, ...] = ("source", "outcome", "template", "app", "category")
OUTCOMES: tuple[str, ...] = ("success", "failure", "judge_error")
SHOT_WIDTH_PX = 320

CSS = """
:root{--ok:#17803d;--bad:#b42318;--warn:#b54708;--muted:#667085;--line:#e4e7ec}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#101828;
background:#f9fafb}
header{background:#101828;color:#fff;padding:10px 20px}
header a{color:#fff;text-decoration:none;font-weight:600}
nav.crumbs{font-size:13px;color:#d0d5dd}nav.crumbs a{color:#d0d5dd;font-weight:400}
main{padding:16px 20px;max-width:1400px}
h1{font-size:20px;margin:4px 0 12px}h2{font-size:16px;margin:20px 0 8px}
table{border-collapse:collapse;background:#fff;border:1px solid var(--line)}
th,td{padding:5px 9px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:#f2f4f7;font-weight:600;font-size:12px;text-transform:uppercase;color:#475467}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:1px 7px;border-radius:9px;font-size:12px;font-weight:600}
.success,.complete,.done{background:#dcfae6;color:var(--ok)}
.failure,.failed{background:#fee4e2;color:var(--bad)}
.judge_error,.pending,.running{background:#fef0c7;color:var(--warn)}
.muted{color:var(--muted)}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin-bottom:8px}
.card{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 12px;
min-width:120px}
.card .v{font-size:18px;font-weight:600}.card .k{font-size:12px;color:var(--muted)}
.breakdown{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
form.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:end;margin:8px 0 12px;
background:#fff;border:1px solid var(--line);padding:8px 12px;border-radius:6px}
form.filters label{display:flex;flex-direction:column;font-size:12px;color:#475467}
.step{display:flex;gap:16px;background:#fff;border:1px solid var(--line);border-radius:6px;
padding:12px;margin-bottom:12px}
.shot{position:relative;display:inline-block;line-height:0;flex:none}
.shot img{display:block;width:SHOTpx;height:auto;outline:1px solid #d0d5dd}
.shot svg.overlay{position:absolute;left:0;top:0;width:100%;height:100%;
pointer-events:none;overflow:visible}
.mark .tap{fill:rgba(240,68,56,.4);stroke:#d92d20;stroke-width:3}
.mark .ring{fill:none;stroke:#6938ef;stroke-width:5}
.mark .ring-inner{fill:none;stroke:#6938ef;stroke-width:2}
.mark .swipe-line{stroke:#0086c9;stroke-width:5}
.mark .swipe-start{fill:#0086c9}.mark .swipe-head{fill:#0086c9}
.mark{filter:drop-shadow(0 0 1.5px #fff)}
.detail{min-width:0;flex:1}
.detail dl{display:grid;grid-template-columns:max-content 1fr;gap:3px 12px;margin:0 0 8px}
.detail dt{color:var(--muted)}.detail dd{margin:0}
pre{background:#f2f4f7;border:1px solid var(--line);padding:8px;white-space:pre-wrap;
word-break:break-word;margin:4px 0;font-size:12.5px;max-height:320px;overflow:auto}
code{font-size:12.5px}
table.episodes td:nth-child(3){min-width:240px;max-width:420px}
""".replace("SHOTpx", f"{SHOT_WIDTH_PX}px")


def esc(value: object) -> str:
    """`value` as text that HTML shows verbatim (also safe inside quoted attributes)."""
    return html.escape("" if value is None else str(value), quote=True)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, default=str)


def run_url(run_id: str, **query: str) -> str:
    base = f"/runs/{quote(run_id, safe='')}"
    query = {key: value for key, value in query.items() if value}
    return f"{base}?{urlencode(query)}" if query else base


def episode_url(run_id: str, episode_id: str) -> str:
    return f"/runs/{quote(run_id, safe='')}/episodes/{quote(episode_id, safe='')}"


def frame_url(sha256: str) -> str:
    return f"/frames/{quote(sha256, safe='')}"


def outcome(episode: Episode) -> str:
    """success, judge_error or failure (which includes an episode that got no verdict)."""
    if episode.verdict is not None and episode.verdict.success:
        return "success"
    if episode.verdict is not None and episode.verdict.judge_error:
        return "judge_error"
    return "failure"


def badge(text: str, kind: str | None = None) -> str:
    return f'<span class="badge {esc(kind or text)}">{esc(text)}</span>'


def page(title: str, body: str, crumbs: Sequence[tuple[str, str | None]] = ()) -> str:
    trail = " / ".join(
        f'<a href="{esc(url)}">{esc(label)}</a>' if url else esc(label) for label, url in crumbs
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} · PhoneBuddy trajectories</title><style>{CSS}</style></head>"
        f'<body><header><a href="/">PhoneBuddy trajectories</a>'
        f'<nav class="crumbs">{trail}</nav></header><main>{body}</main></body></html>'
    )


def error_page(status: int, message: str) -> str:
    return page(f"{status}", f"<h1>{status}</h1><p>{esc(message)}</p>", [("runs", "/")])


def _rate(rate: Rate) -> str:
    low, high = rate.ci95
    return (
        f"{rate.success_rate:.1%} <span class='muted'>({rate.successes}/{rate.episodes}, "
        f"95% CI {low:.1%}–{high:.1%})</span>"
    )


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, cls: str = "") -> str:
    """A table; cells are already HTML (escape them when building rows)."""
    head = "".join(f"<th>{esc(header)}</th>" for header in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="{esc(cls)}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


# ---- runs ----


def runs_page(runs: Sequence[tuple[RunManifest, RunSummary]]) -> str:
    rows = [
        (
            f'<a href="{esc(run_url(manifest.run_id))}">{esc(manifest.run_id)}</a>',
            badge(manifest.status.value),
            esc(manifest.created_at.strftime("%Y-%m-%d %H:%M:%S")),
            esc(manifest.policy.get("model", "")) + " " + esc(manifest.policy.get("version", "")),
            f"{summary.groups_complete}",
            f"{summary.groups_failed}",
            f"{summary.groups_pending}",
            f"{summary.episodes}",
            _rate(summary.overall),
        )
        for manifest, summary in runs
    ]
    headers = ["run", "status", "created (UTC)", "policy", "groups complete", "groups failed",
               "groups pending", "episodes counted", "success"]  # fmt: skip
    listing = _table(headers, rows, cls="runs") if rows else "<p>No run in this store yet.</p>"
    body = f"<h1>Runs</h1>{listing}"
    return page("runs", body)


def _card(key: str, value: str) -> str:
    return f'<div class="card"><div class="v">{value}</div><div class="k">{esc(key)}</div></div>'


def summary_html(summary: RunSummary) -> str:
    low, high = summary.overall.ci95
    cards = [
        _card("success rate", f"{summary.overall.success_rate:.1%}"),
        _card("95% CI (Wilson)", f"{low:.1%}–{high:.1%}"),
        _card("episodes counted", f"{summary.episodes}"),
        _card("groups complete / failed / pending",
              f"{summary.groups_complete} / {summary.groups_failed} / {summary.groups_pending}"),
        _card("steps (mean)", f"{summary.steps} ({summary.mean_steps:g})"),
        _card("invalid actions", f"{summary.invalid_actions} ({summary.invalid_rate:.1%})"),
        _card("judge errors", f"{summary.judge_errors}"),
        _card("retries", f"{summary.retries}"),
        _card("wall time", f"{summary.wall_s:.1f} s"),
        _card("policy versions", esc(", ".join(summary.policy_versions) or "–")),
    ]  # fmt: skip
    tables = []
    for title, rates in (
        ("source", summary.by_source),
        ("category", summary.by_category),
        ("app", summary.by_app),
    ):
        if rates:
            rows = [(esc(key), _rate(rate)) for key, rate in rates.items()]
            tables.append(_table([title, "success"], rows, cls=f"by-{title}"))
    return (
        f'<section class="summary"><div class="cards">{"".join(cards)}</div>'
        f'<div class="breakdown">{"".join(tables)}</div>'
        "<p class='muted'>Counted: episodes of complete groups only; a failed group never "
        "counts.</p></section>"
    )


def _select(name: str, options: Iterable[str], chosen: str) -> str:
    items = ['<option value="">any</option>'] + [
        f'<option value="{esc(option)}"{" selected" if option == chosen else ""}>'
        f"{esc(option)}</option>"
        for option in options
    ]
    return f'<label>{esc(name)}<select name="{esc(name)}">{"".join(items)}</select></label>'


def group_statuses(manifest: RunManifest) -> dict[str, str]:
    return {group.group_id: group.status.value for group in manifest.groups}


def group_status(statuses: Mapping[str, str], episode: Episode) -> str:
    """The status of the episode's group (`group_statuses(manifest)`), or why it has none."""
    if episode.group_id is None:
        return "no group"
    return statuses.get(episode.group_id, "unknown group")


def run_page(
    manifest: RunManifest,
    summary: RunSummary,
    episodes: Sequence[Episode],
    *,
    total: int,
    chosen: Mapping[str, str],
    options: Mapping[str, Sequence[str]],
    page_number: int,
    pages: int,
) -> str:
    run_id = manifest.run_id
    form = (
        f'<form class="filters" method="get" action="{esc(run_url(run_id))}">'
        + "".join(_select(name, options[name], chosen.get(name, "")) for name in FILTERS)
        + f'<button type="submit">filter</button> <a href="{esc(run_url(run_id))}">clear</a>'
        "</form>"
    )
    rows = []
    statuses = group_statuses(manifest)
    for episode in episodes:
        result = outcome(episode)
        group = group_status(statuses, episode)
        counted = group in (GroupStatus.COMPLETE.value, "no group")
        rows.append((
            f'<a href="{esc(episode_url(run_id, episode.episode_id))}">'
            f"{esc(episode.episode_id)}</a>",
            esc(episode.task.template_id),
            esc(episode.task.instruction_text),
            esc(episode.task.source.value),
            esc(episode.task.category.value),
            esc(", ".join(episode.task.apps)),
            badge(group, group if counted else "failed") + ("" if counted else " <span "
            "class='muted'>not counted</span>"),
            f"{len(episode.steps)}",
            f"{episode.invalid_steps}",
            badge(result),
            f"{episode.reward:g}",
            esc(episode.status.value),
            esc(episode.policy.version),
        ))  # fmt: skip
    headers = ["episode", "template", "instruction", "source", "category", "apps", "group",
               "steps", "invalid", "outcome", "reward", "ended", "policy"]  # fmt: skip
    shown = (
        f"<p class='muted' id='count'>{total} episode{'s' if total != 1 else ''} match"
        f"{'' if total != 1 else 'es'}"
        + (f"; page {page_number} of {pages}" if pages > 1 else "")
        + "</p>"
    )
    pager = ""
    if pages > 1:
        links = []
        for number in range(1, pages + 1):
            url = run_url(run_id, **chosen, page=str(number) if number > 1 else "")
            links.append(
                f"<strong>{number}</strong>"
                if number == page_number
                else f'<a href="{esc(url)}">{number}</a>'
            )
        pager = f"<p class='pager'>{' '.join(links)}</p>"
    table = _table(headers, rows, cls="episodes") if rows else "<p>No episode matches.</p>"
    body = (
        f"<h1>Run {esc(run_id)} {badge(manifest.status.value)}</h1>"
        f"{summary_html(summary)}<h2>Episodes</h2>{form}{shown}{table}{pager}"
    )
    return page(run_id, body, [("runs", "/"), (run_id, None)])


# ---- one episode ----


def _shot(observation: Observation, step: Step | None, label: str) -> str:
    screen = observation.screen
    action = step.action if step is not None else None
    return (
        f'<div class="shot"><img src="{esc(frame_url(observation.frame.sha256))}" '
        f'width="{screen.width}" height="{screen.height}" alt="{esc(label)}" loading="eager">'
        f"{overlay(action, screen)}</div>"
    )


def _dl(items: Iterable[tuple[str, str]]) -> str:
    return "<dl>" + "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in items) + "</dl>"


def _step(step: Step, number: int) -> str:
    if step.action is not None:
        arguments = json.dumps(to_arguments(step.action), ensure_ascii=False)
        parsed = (
            f"<code>{esc(action_text(step.action))}</code>"
            f"<pre class='parsed'>{esc(arguments)}</pre>"
        )
    else:
        reason = esc(step.invalid_reason)
        parsed = f"{badge('invalid', 'failure')} <span class='invalid'>{reason}</span>"
    facts = [
        ("parsed action", parsed),
        ("policy", f"{step.timings.policy_s:.3f} s"),
        ("env", f"{step.timings.env_s:.3f} s"),
        ("policy version", esc(step.policy_version or "–")),
        ("foreground app", esc(step.observation.foreground_app or "home screen")),
        ("screen", f"{step.observation.screen.width}×{step.observation.screen.height}"),
        ("screenshot", f"<code>{esc(step.observation.frame.sha256[:16])}</code>"),
    ]
    if step.observation.device_time:
        facts.append(("device time", esc(step.observation.device_time)))
    return (
        f'<section class="step" id="step-{step.index}" data-index="{step.index}">'
        f"{_shot(step.observation, step, f'step {number} screenshot')}"
        f'<div class="detail"><h2>Step {number}</h2>{_dl(facts)}'
        f"<div>raw answer</div><pre class='raw'>{esc(step.raw_output)}</pre></div></section>"
    )


def _first(mapping: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in mapping and mapping[key] is not None:
            return mapping[key]
    return None


def _judge_items(record: Mapping[str, Any]) -> list[tuple[str, str, Any, str]]:
    """(id, criterion, passed, evidence) per rubric item, as far as the record says."""
    rubric = record.get("rubric")
    items = rubric.get("items") if isinstance(rubric, Mapping) else rubric
    criteria: dict[str, str] = {}
    for position, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, Mapping):
            key = str(_first(item, "id") or position)
            criteria[key] = str(_first(item, "criterion", "text", "description") or "")
    results = _first(record, "results", "item_results", "grades")
    if isinstance(results, Mapping):
        results = _first(results, "results", "items")
    rows: list[tuple[str, str, Any, str]] = []
    seen: set[str] = set()
    for position, result in enumerate(results if isinstance(results, list) else []):
        if isinstance(result, Mapping):
            key = str(_first(result, "id") or position)
            seen.add(key)
            passed = _first(result, "passed", "pass", "result")
            evidence = str(_first(result, "evidence", "reason", "explanation") or "")
            rows.append((key, criteria.get(key, ""), passed, evidence))
    rows.extend((key, text, None, "") for key, text in criteria.items() if key not in seen)
    return rows


def judge_html(record: Mapping[str, Any]) -> str:
    rows = []
    for key, criterion, passed, evidence in _judge_items(record):
        if passed is True:
            mark = badge("pass", "success")
        elif passed is False:
            mark = badge("fail", "failure")
        else:
            mark = badge("no result", "judge_error")
        rows.append((esc(key), esc(criterion), mark, esc(evidence)))
    table = _table(["item", "criterion", "result", "evidence"], rows, cls="rubric") if rows else ""
    error = record.get("error")
    return (
        '<section class="judge"><h2>Judge record</h2>'
        + (f"<p class='judge-error'>{badge('error', 'failure')} {esc(error)}</p>" if error else "")
        + table
        + f"<details><summary>record JSON</summary><pre>{esc(_json(record))}</pre></details>"
        "</section>"
    )


def episode_page(
    manifest: RunManifest, episode: Episode, judge_record: Mapping[str, Any] | None
) -> str:
    task = episode.task
    result = outcome(episode)
    duration = (episode.finished_at - episode.started_at).total_seconds()
    group = group_status(group_statuses(manifest), episode)
    facts = [
        ("instruction", esc(task.instruction_text)),
        ("template", f"<code>{esc(task.template_id)}</code> (seed {task.seed})"),
        ("task id", f"<code>{esc(task.task_id)}</code>"),
        ("source / category", esc(f"{task.source.value} / {task.category.value}")),
        ("apps", esc(", ".join(task.apps))),
        ("group", esc(f"{episode.group_id or '–'} ({group})")),
        ("device", esc(episode.device_id)),
        ("policy", esc(f"{episode.policy.model} @ {episode.policy.version}")
         + (f" <span class='muted'>{esc(episode.policy.endpoint)}</span>"
            if episode.policy.endpoint else "")),
        ("ended", esc(episode.status.value)),
        ("steps", f"{len(episode.steps)} ({episode.invalid_steps} invalid, budget "
                  f"{task.step_budget})"),
        ("time", f"{duration:.2f} s (judge {episode.judge_s:.2f} s), attempts {episode.attempts}"),
    ]  # fmt: skip
    if episode.answer is not None:
        facts.append(("answer", f"<pre class='answer'>{esc(episode.answer)}</pre>"))
    if episode.error:
        facts.append(("error", f"<pre class='error'>{esc(episode.error)}</pre>"))
    verdict = episode.verdict
    if verdict is None:
        verdict_html = "<p>No verdict.</p>"
    else:
        verdict_html = _dl([
            ("outcome", badge(result)),
            ("reward", f"{verdict.reward:g}"),
            ("grader", esc(verdict.grader)),
            ("reason", esc(verdict.reason)),
        ]) + (f"<pre class='details'>{esc(_json(verdict.details))}</pre>"
              if verdict.details else "")  # fmt: skip
    steps = "".join(_step(step, number) for number, step in enumerate(episode.steps, 1))
    final = ""
    if episode.final_observation is not None:
        app = episode.final_observation.foreground_app or "home screen"
        final = (
            '<section class="step final" id="final">'
            f"{_shot(episode.final_observation, None, 'final screenshot')}"
            f'<div class="detail"><h2>Final screen</h2>{_dl([("foreground app", esc(app))])}'
            "</div></section>"
        )
    body = (
        f"<h1>Episode {esc(episode.episode_id)} {badge(result)}</h1>"
        f'<div class="detail">{_dl(facts)}</div>'
        f'<section class="verdict detail"><h2>Verdict</h2>{verdict_html}</section>'
        + (judge_html(judge_record) if judge_record is not None else "")
        + f"<h2>Steps</h2>{steps or '<p>No step.</p>'}{final}"
    )
    return page(
        episode.episode_id,
        body,
        [("runs", "/"), (manifest.run_id, run_url(manifest.run_id)), (episode.episode_id, None)],
    )
