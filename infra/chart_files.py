"""Writes the chart's generated files (or, with --check, says which are stale):

- charts/phonebuddy/values.schema.json, from values.yaml: every key's `# --` comment is its
  description and its default value gives its type; `# -- (TYPE) ...` names the type where the
  default cannot (TYPE: string, integer, number, boolean, object, array), and a following
  `# @enum A,B` line lists the allowed values. A key without a `# --` comment is an error: every
  value is documented. Objects whose keys are all documented are closed (no unknown keys: a
  misspelt value fails `helm install`); free-form maps (`{}` defaults) stay open.
- charts/phonebuddy/files/nats-permissions.json, the NATS users and their permissions, from
  `phonebuddy.bus.permissions.SERVICE_PERMISSIONS` (the table the local stack uses too).
- charts/phonebuddy/files/prometheus/rules.yaml (a copy of what the local stack's Prometheus
  loads) and files/dashboards/*.json (rendered), from `phonebuddy.telemetry.observability`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

CHART = Path(__file__).resolve().parent.parent / "charts" / "phonebuddy"
TYPES = {"string", "integer", "number", "boolean", "object", "array"}
_KEY = re.compile(r"^(?P<indent> *)(?P<key>[A-Za-z_][A-Za-z0-9_.-]*):(?:\s|$)")
_DOC = re.compile(r"^ *# -- ?(?:\((?P<type>[a-z]+)\) ?)?(?P<text>.*)$")
_ENUM = re.compile(r"^ *# @enum (?P<values>.+)$")
_MORE = re.compile(r"^ *# ?(?P<text>.*)$")


class ValuesDocError(ValueError):
    """values.yaml breaks the documentation rules; the message names the key."""


@dataclass
class KeyDoc:
    description: str
    type: str | None = None
    enum: list[str] = field(default_factory=list)


def key_docs(text: str) -> dict[tuple[str, ...], KeyDoc]:
    """Every key's path and its `# --` documentation, read from the YAML text."""
    docs: dict[tuple[str, ...], KeyDoc] = {}
    stack: list[tuple[int, str]] = []
    pending: KeyDoc | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if doc := _DOC.match(line):
            if doc["type"] and doc["type"] not in TYPES:
                raise ValuesDocError(f"line {number}: unknown type ({doc['type']})")
            pending = KeyDoc(description=doc["text"].strip(), type=doc["type"])
            continue
        if pending is not None and (enum := _ENUM.match(line)):
            pending.enum = [value.strip() for value in enum["values"].split(",")]
            continue
        if pending is not None and not pending.enum and (more := _MORE.match(line)):
            pending.description = f"{pending.description} {more['text'].strip()}".strip()
            continue
        key = _KEY.match(line)
        if key is None:
            continue
        indent = len(key["indent"])
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, key["key"]))
        if pending is not None:
            docs[tuple(name for _, name in stack)] = pending
        pending = None
    return docs


# bool before int: True is an int too.
_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
               (list, "array"), (dict, "object"))  # fmt: skip


def _type_of(value: Any) -> str | None:
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), None)


def schema_for(value: Any, path: tuple[str, ...], docs: dict[tuple[str, ...], KeyDoc]) -> dict:
    """A documented key is a value (a documented map is free-form: resources, selectors); an
    undocumented map is a section whose keys are all known, so a misspelt key is refused."""
    doc = docs.get(path)
    if doc is None:
        return {
            "type": "object",
            "properties": {
                key: schema_for(child, (*path, key), docs) for key, child in value.items()
            },
            "additionalProperties": False,
        }
    kind = doc.type or _type_of(value)
    if kind is None:
        raise ValuesDocError(f"{'.'.join(path)}: a null default needs `# -- (TYPE)`")
    node: dict[str, Any] = {"description": doc.description, "type": kind}
    if doc.enum:
        node["enum"] = doc.enum
    return node


def undocumented(values: dict[str, Any], docs: dict[tuple[str, ...], KeyDoc]) -> list[str]:
    """Keys that are neither documented nor a section of further keys."""
    missing = []

    def walk(node: dict[str, Any], path: tuple[str, ...]) -> None:
        for key, child in node.items():
            here = (*path, key)
            if here in docs:
                continue
            if isinstance(child, dict) and child:
                walk(child, here)
            else:
                missing.append(".".join(here))

    walk(values, ())
    return missing


def values_schema(chart: Path = CHART) -> dict[str, Any]:
    text = (chart / "values.yaml").read_text(encoding="utf-8")
    values = yaml.safe_load(text)
    docs = key_docs(text)
    missing = undocumented(values, docs)
    if missing:
        raise ValuesDocError(f"values without a `# --` comment: {', '.join(missing)}")
    schema = schema_for(values, (), docs)
    return {"$schema": "http://json-schema.org/draft-07/schema#", "title": "phonebuddy", **schema}


def nats_permissions() -> dict[str, Any]:
    from phonebuddy.bus.permissions import SERVICE_PERMISSIONS

    return {user: permissions.to_nats() for user, permissions in SERVICE_PERMISSIONS.items()}


def generated(chart: Path = CHART) -> dict[Path, str]:
    """Each generated file's path and its text."""
    from phonebuddy.telemetry.observability import rules_path
    from phonebuddy.telemetry.observability.dashboards import rendered_files

    files = {
        chart / "values.schema.json": json.dumps(values_schema(chart), indent=2) + "\n",
        chart / "files" / "nats-permissions.json": json.dumps(nats_permissions(), indent=2) + "\n",
        chart / "files" / "prometheus" / "rules.yaml": rules_path().read_text(encoding="utf-8"),
    }
    for name, text in rendered_files().items():
        files[chart / "files" / "dashboards" / name] = text
    return files


def stale_extras(chart: Path = CHART) -> list[Path]:
    """Dashboards in the chart that no longer exist at their source."""
    from phonebuddy.telemetry.observability.dashboards import rendered_files

    names = set(rendered_files())
    return [p for p in (chart / "files" / "dashboards").glob("*.json") if p.name not in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if a file is out of date")
    args = parser.parse_args()
    stale = []
    for path, text in generated().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if args.check:
            stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            sys.stdout.write(f"wrote {path}\n")
    for extra in stale_extras():
        if args.check:
            stale.append(str(extra))
        else:
            extra.unlink()
            sys.stdout.write(f"removed {extra}\n")
    if stale:
        sys.stderr.write(f"out of date (run `make chart`): {', '.join(stale)}\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
