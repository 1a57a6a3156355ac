"""The report: the numbers as JSON (`EvalReport`) and one self-contained HTML page (inline CSS,
charts drawn as SVG, nothing fetched from the network) with success by category and by split per
policy with their intervals, the paired comparisons, a per-app table, step-count histograms and a
link into the trajectory viewer for every failure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from pydantic import BaseModel, ConfigDict

from phonebuddy.eval.scoring import Comparison, PolicyScore
from phonebuddy.trajectories import Rate

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1")
CATEGORY_ORDER = ("overall", "single_app", "cross_app", "mini_program")


class EvalReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    created_at: str
    step_budget: int
    temperature: float
    seeds: list[int]
    splits: list[str]
    sources: list[str]
    policies: list[PolicyScore]
    comparisons: list[Comparison]
    timings_s: dict[str, float]
    config: dict[str, Any]


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _rate_text(r: Rate | None) -> str:
    if r is None:
        return "–"
    low, high = r.ci95
    return f"{r.successes}/{r.episodes} ({_pct(r.success_rate)}) [{_pct(low)}, {_pct(high)}]"


RatePick = Callable[[PolicyScore, str], Rate | None]


def bar_chart(
    title: str, groups: Sequence[str], policies: Sequence[PolicyScore], pick: RatePick
) -> str:
    """Grouped bars: one group per label, one bar per policy, Wilson whiskers."""
    width, height, left, bottom, top = 760, 280, 48, 40, 28
    plot_w, plot_h = width - left - 16, height - bottom - top
    slot = plot_w / max(1, len(groups))
    bar = min(36.0, slot * 0.8 / max(1, len(policies)))
    parts = [
        f'<svg class="chart" role="img" aria-label="{escape(title)}" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{left}" y="16" class="title">{escape(title)}</text>',
    ]
    for tick in range(0, 101, 25):
        y = top + plot_h * (1 - tick / 100)
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}%</text>'
        )
    for g, group in enumerate(groups):
        x0 = left + g * slot + (slot - bar * len(policies)) / 2
        for p, policy in enumerate(policies):
            r: Rate | None = pick(policy, group)
            if r is None or r.episodes == 0:
                continue
            x = x0 + p * bar
            y = top + plot_h * (1 - r.success_rate)
            low, high = (top + plot_h * (1 - v) for v in r.ci95)
            mid = x + bar / 2 - 1
            parts.append(
                f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{bar - 2:.1f}" '
                f'height="{top + plot_h - y:.1f}" fill="{PALETTE[p % len(PALETTE)]}">'
                f"<title>{escape(policy.name)} · {escape(group)}: {_rate_text(r)}</title></rect>"
                f'<line class="ci" x1="{mid:.1f}" x2="{mid:.1f}" y1="{low:.1f}" y2="{high:.1f}"/>'
            )
        parts.append(
            f'<text x="{left + g * slot + slot / 2:.1f}" y="{height - bottom + 16}" '
            f'text-anchor="middle">{escape(group)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def histogram(policy: PolicyScore, budget: int) -> str:
    """Episodes by number of steps, successes stacked under failures."""
    width, height, left, bottom, top = 360, 160, 30, 24, 20
    plot_w, plot_h = width - left - 8, height - bottom - top
    success, failure = policy.step_histogram["success"], policy.step_histogram["failure"]
    tallest = max([success.get(s, 0) + failure.get(s, 0) for s in range(budget + 1)] + [1])
    column = plot_w / (budget + 1)
    parts = [
        f'<svg class="histogram" role="img" aria-label="steps of {escape(policy.name)}" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{left}" y="14" class="title">{escape(policy.name)}: steps per episode</text>',
    ]
    for steps in range(budget + 1):
        base = top + plot_h
        for side, colour in ((success, "#59a14f"), (failure, "#bab0ac")):
            count = side.get(steps, 0)
            if not count:
                continue
            h = plot_h * count / tallest
            base -= h
            parts.append(
                f'<rect x="{left + steps * column:.1f}" y="{base:.1f}" '
                f'width="{max(1.0, column - 1):.1f}" height="{h:.1f}" fill="{colour}">'
                f"<title>{steps} steps: {count}</title></rect>"
            )
    parts.append(
        f'<text x="{left}" y="{height - 6}">0</text>'
        f'<text x="{left + plot_w}" y="{height - 6}" text-anchor="end">{budget} steps</text>'
        "</svg>"
    )
    return "".join(parts)


def _category_pick(policy: PolicyScore, group: str) -> Rate | None:
    return policy.overall if group == "overall" else policy.by_category.get(group)


def _split_pick(policy: PolicyScore, group: str) -> Rate | None:
    return policy.by_split.get(group)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], css: str) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="{css}"><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>'


NOVELTY_ORDER = ("repeat", "new_situation", "new_seen_values", "new_values", "new_template")
NOVELTY_NOTE = (
    "Held-out tasks against the training runs' tasks: <b>repeat</b> = the same instruction and "
    "parameters as a training task; <b>new situation</b> = a trained template in a situation "
    "training never showed (<b>new seen values</b>: a new combination of seen values; "
    "<b>new values</b>: a value never seen); <b>new template</b> = a template training never saw."
)


def _novelty_section(policies: Sequence[PolicyScore]) -> str:
    present = {key for p in policies for key in p.by_novelty}
    if not present:
        return ""
    rows = [
        [escape(key.replace("_", " ")), *(_rate_text(p.by_novelty.get(key)) for p in policies)]
        for key in NOVELTY_ORDER
        if key in present
    ]
    table = _table(["held-out tasks", *(p.name for p in policies)], rows, "novelty")
    return f'<h2>By novelty</h2>\n<p class="note">{NOVELTY_NOTE}</p>\n{table}'


def render_html(report: EvalReport) -> str:
    policies = report.policies
    present = {c for p in policies for c in p.by_category}
    categories = [c for c in CATEGORY_ORDER if c == "overall" or c in present]
    apps = sorted({app for p in policies for app in p.by_app})
    summary_rows = [
        [
            f'<span class="swatch" style="background:{PALETTE[i % len(PALETTE)]}"></span>'
            f"{escape(p.name)}",
            escape(p.target), escape(", ".join(p.versions)), _rate_text(p.overall),
            "–" if p.steps_per_success is None else f"{p.steps_per_success:.1f}",
            _pct(p.invalid_action_rate), str(p.unscored),
        ]
        for i, p in enumerate(policies)
    ]  # fmt: skip
    comparison_rows = [
        [
            f"{escape(c.b)} vs {escape(c.a)}", str(c.pairs), f"{c.only_a} / {c.only_b}",
            f"{100 * c.difference:+.1f} pts", f"[{100 * c.difference_ci95[0]:+.1f}, "
            f"{100 * c.difference_ci95[1]:+.1f}]", f"{c.mcnemar_p:.4g}", escape(c.verdict),
        ]
        for c in report.comparisons
    ]  # fmt: skip
    app_rows = [[escape(app), *(_rate_text(p.by_app.get(app)) for p in policies)] for app in apps]
    novelty_section = _novelty_section(policies)
    failure_blocks = []
    for p in policies:
        items = "".join(
            f'<li><a class="failure" href="{escape(f.url)}">{escape(f.template_id)} '
            f'seed {f.seed}</a> <span class="meta">{escape(f.source)} · {escape(f.split)} · '
            f"{escape(f.status)} · {f.steps} steps</span> {escape(f.reason)}</li>"
            for f in p.failures
        )
        failure_blocks.append(
            f"<details><summary>{escape(p.name)}: {len(p.failures)} failures listed"
            f"</summary><ul>{items}</ul></details>"
        )
    by_category = bar_chart("Success by category (95 % Wilson intervals)", categories,
                            policies, _category_pick)  # fmt: skip
    by_split = bar_chart("Success by split", report.splits, policies, _split_pick)
    histograms = "".join(histogram(p, report.step_budget) for p in policies)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>PhoneBuddy evaluation: {escape(report.name)}</title>
<style>
body {{ font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1100px;
       color: #222; padding: 0 16px; }}
h1 {{ font-size: 22px; }} h2 {{ font-size: 17px; margin-top: 28px; }}
table {{ border-collapse: collapse; margin: 8px 0; }}
th, td {{ border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: left; }}
th {{ background: #f4f4f4; }}
svg text {{ font-size: 11px; fill: #333; }} svg .title {{ font-size: 13px; font-weight: 600; }}
svg .grid {{ stroke: #e5e5e5; }} svg .ci {{ stroke: #111; stroke-width: 1.5; }}
.swatch {{ display: inline-block; width: 10px; height: 10px; margin-right: 6px; }}
.meta {{ color: #777; }} .note {{ color: #555; }}
</style></head><body>
<h1>PhoneBuddy evaluation: {escape(report.name)}</h1>
<p class="note">{escape(report.created_at)} · splits {escape(", ".join(report.splits))} ·
sources {escape(", ".join(report.sources))} · {len(report.seeds)} test seed(s) per template ·
step budget {report.step_budget} · temperature {report.temperature:g}.
Rates leave out episodes that could not be scored (environment, policy or judge errors).</p>
<h2>Policies</h2>
{
        _table(
            [
                "policy",
                "evaluated",
                "versions",
                "success [95 % CI]",
                "steps per success",
                "invalid actions",
                "unscored",
            ],
            summary_rows,
            "policies",
        )
    }
{by_category}
{by_split}
<h2>Paired comparisons</h2>
<p class="note">On the tasks both policies were scored on: discordant pairs (only the first /
only the second succeeded), exact McNemar test, paired-bootstrap interval of the difference.</p>
{
        _table(
            ["comparison", "pairs", "discordant", "difference", "95 % CI", "McNemar p", "verdict"],
            comparison_rows,
            "comparisons",
        )
    }
{novelty_section}
<h2>By app</h2>
{_table(["app", *(p.name for p in policies)], app_rows, "apps")}
<h2>Steps</h2>
<div class="histograms">{histograms}</div>
<h2>Failures</h2>
{"".join(failure_blocks)}
</body></html>
"""
