"""What an app and a template of PhoneWorld cost in code: lines per app package, templates per
app, and lines of task modules per template, for the checkout or any git revision (`--ref`), so
a change of the app kit can be reported as before and after. Prints one JSON document.

    python benchmarks/phoneworld_code_size.py                 # the working tree
    python benchmarks/phoneworld_code_size.py --ref HEAD~5    # an earlier revision
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOT = "services/phoneworld/src/phonebuddy/phoneworld"
TEMPLATE_ID = re.compile(r'^    id = "[a-z0-9_.\-]+"', re.M)


def _files(ref: str | None) -> dict[str, str]:
    """Every .py file under PhoneWorld's package: path -> text."""
    if ref is None:
        base = REPO / ROOT
        return {str(p.relative_to(REPO)): p.read_text() for p in base.rglob("*.py")}
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", ref, ROOT], cwd=REPO,
                           capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    shown = {}
    for name in (n for n in names if n.endswith(".py")):
        shown[name] = subprocess.run(["git", "show", f"{ref}:{name}"], cwd=REPO,
                                     capture_output=True, text=True, check=True).stdout  # fmt: skip
    return shown


def measure(ref: str | None) -> dict[str, object]:
    files = _files(ref)
    app_lines: dict[str, int] = defaultdict(int)
    task_lines: dict[str, int] = defaultdict(int)
    templates: dict[str, int] = defaultdict(int)
    for name, text in files.items():
        parts = name.removeprefix(ROOT + "/").split("/")
        lines = text.count("\n")
        if parts[0] == "apps" and len(parts) > 2:
            app = parts[1]
        elif parts[:2] == ["tasks", "cross_app"]:
            app = "cross_app"
        else:
            continue
        app_lines[app] += lines
        count = len(TEMPLATE_ID.findall(text))
        if count:
            templates[app] += count
            task_lines[app] += lines
    apps = sorted(a for a in app_lines if a != "cross_app")
    total_templates = sum(templates.values())
    biggest = max(
        ((name, text.count("\n")) for name, text in files.items()), key=lambda item: item[1]
    )
    return {
        "ref": ref or "working tree",
        "apps": len(apps),
        "templates": total_templates,
        "lines_per_app": round(sum(app_lines[a] for a in apps) / len(apps)),
        "lines_per_template": round(sum(task_lines.values()) / max(1, total_templates)),
        "largest_module": {"path": biggest[0], "lines": biggest[1]},
        "per_app": {app: _app_row(app_lines[app], templates[app], task_lines[app])
                    for app in [*apps, "cross_app"]},
    }  # fmt: skip


def _app_row(lines: int, templates: int, task_lines: int) -> dict[str, int]:
    per_template = round(task_lines / templates) if templates else 0
    return {"lines": lines, "templates": templates, "task_lines_per_template": per_template}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", help="a git revision (default: the working tree)")
    args = parser.parse_args()
    sys.stdout.write(json.dumps(measure(args.ref), indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
