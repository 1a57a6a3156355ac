"""Vendor upstream CustomResourceDefinitions, cut down so a Kubernetes 1.20 API server takes them.

The chart renders KEDA, prometheus-operator and KServe custom resources. To check them against
the real schemas, a test applies these CRDs to a Kubernetes 1.20 API server and then
server-side dry-runs the rendered objects. Upstream CRDs are written for current clusters and are
large, so this script turns each pinned upstream file into `<group>_<plural>.yaml` here by:

- keeping only the one served storage version the chart uses, and no `conversion` stanza (no
  conversion webhook runs in the test cluster);
- removing every `description` (most of the bytes) from the schema and the printer columns;
- removing schema keywords apiextensions.k8s.io/v1 in 1.20 does not know, such as
  `x-kubernetes-validations` (CEL rules, 1.25+), and every `default` 1.20 refuses: `default: ""`
  (1.20 validates it as null and rejects the whole CRD) and any that fails its own schema;
  keywords 1.20 knows but forbids in a CRD are an error, not dropped, and so is a list-map key
  left neither required nor defaulted;
- for KServe only, replacing the schema of the parts the chart never sets (the other
  `spec` components and most `spec.predictor` fields) with a shallow one of the same type that
  keeps unknown fields, so the file stays small and those fields are still accepted.

Each source is pinned by repository, path, commit and git blob hash, and inputs are matched to
SOURCES by that hash (in any order); any other file is refused. Same inputs, same bytes out.

    git -C <clone> show <commit>:<path> > src.yaml   # once per source listed in SOURCES
    python tests/charts/crds/vendor.py src1.yaml src2.yaml ...
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent

Schema = dict[str, Any]


@dataclass(frozen=True)
class Source:
    """One pinned upstream CRD and what to keep of it."""

    repo: str
    path: str
    commit: str
    blob: str  # git blob sha1 of the file at `commit`
    version: str  # the served storage version the chart uses; every other one is dropped
    # Object paths (dot-separated, from the version's schema root) mapped to the property names
    # whose schemas are kept there; every other property there gets a shallow schema.
    trim: dict[str, frozenset[str]] = field(default_factory=dict)


# The InferenceService predictor fields whose full schema is kept: those the chart sets
# (templates/policy.yaml) and a few other common ones (model, annotations, labels).
PREDICTOR_FIELDS = frozenset(
    {
        "model",
        "containers",
        "minReplicas",
        "maxReplicas",
        "serviceAccountName",
        "nodeSelector",
        "tolerations",
        "volumes",
        "annotations",
        "labels",
        "securityContext",
    }
)

PROMETHEUS_OPERATOR = "prometheus-operator/prometheus-operator"
PROMETHEUS_OPERATOR_COMMIT = "6adcebc5076c34f4f55f8f5f7b1e528929373ac7"
PROMETHEUS_OPERATOR_CRDS = "example/prometheus-operator-crd"

SOURCES: dict[str, Source] = {
    "scaledobjects.keda.sh": Source(
        repo="kedacore/keda",
        path="config/crd/bases/keda.sh_scaledobjects.yaml",
        commit="8b4f083ca8c8c2baf8477e322bd4d16ac4dfa09a",
        blob="0c31aa3f0ddbc9f833753be303329eda9ca0bc6f",
        version="v1alpha1",
    ),
    "servicemonitors.monitoring.coreos.com": Source(
        repo=PROMETHEUS_OPERATOR,
        path=f"{PROMETHEUS_OPERATOR_CRDS}/monitoring.coreos.com_servicemonitors.yaml",
        commit=PROMETHEUS_OPERATOR_COMMIT,
        blob="f5736255990a0e152851fadb55f84d6fd0f91d87",
        version="v1",
    ),
    "podmonitors.monitoring.coreos.com": Source(
        repo=PROMETHEUS_OPERATOR,
        path=f"{PROMETHEUS_OPERATOR_CRDS}/monitoring.coreos.com_podmonitors.yaml",
        commit=PROMETHEUS_OPERATOR_COMMIT,
        blob="5c1bde3d4a5f3131fd6c148ab933193b867173f2",
        version="v1",
    ),
    "prometheusrules.monitoring.coreos.com": Source(
        repo=PROMETHEUS_OPERATOR,
        path=f"{PROMETHEUS_OPERATOR_CRDS}/monitoring.coreos.com_prometheusrules.yaml",
        commit=PROMETHEUS_OPERATOR_COMMIT,
        blob="b423c3225b18489ca7bbc5091f38f7003c4bf3fc",
        version="v1",
    ),
    "inferenceservices.serving.kserve.io": Source(
        repo="kserve/kserve",
        path="config/crd/full/serving.kserve.io_inferenceservices.yaml",
        commit="aaac4e294dae2c7b1aa1886447793f3aa1c30912",
        blob="1e37d05b7a741eb40b9eb01c378dc9dc80eab3d9",
        version="v1beta1",
        trim={
            # canary, explainer and transformer: the chart deploys a predictor only.
            "spec": frozenset({"predictor"}),
            "spec.predictor": PREDICTOR_FIELDS,
        },
    ),
}

# JSONSchemaProps fields of apiextensions.k8s.io/v1 in Kubernetes 1.20
# (k8s.io/apiextensions-apiserver@kubernetes-1.20.x, pkg/apis/apiextensions/v1/types_jsonschema.go).
KNOWN_1_20 = frozenset(
    {
        "id",
        "$schema",
        "$ref",
        "description",
        "type",
        "format",
        "title",
        "default",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "multipleOf",
        "enum",
        "maxProperties",
        "minProperties",
        "required",
        "items",
        "allOf",
        "oneOf",
        "anyOf",
        "not",
        "properties",
        "additionalProperties",
        "patternProperties",
        "dependencies",
        "additionalItems",
        "definitions",
        "externalDocs",
        "example",
        "nullable",
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-embedded-resource",
        "x-kubernetes-int-or-string",
        "x-kubernetes-list-map-keys",
        "x-kubernetes-list-type",
        "x-kubernetes-map-type",
    }
)
# Known to 1.20 but refused in a CRD schema (pkg/apis/apiextensions/validation/validation.go).
FORBIDDEN_1_20 = frozenset(
    {"id", "$ref", "additionalItems", "patternProperties", "definitions", "dependencies"}
)
# Removed although 1.20 knows them: documentation only.
DOCUMENTATION = frozenset({"description", "title", "externalDocs", "example"})

HEADER = """\
# {name}: {kind} {group}/{version}
# Source: https://github.com/{repo}/blob/{commit}/{path}
# Apache License 2.0 (see LICENSE); transformed by vendor.py: descriptions, CEL validations and
# other versions removed{extra}.
"""


class VendorError(Exception):
    """An upstream file this script cannot turn into a 1.20-compatible CRD."""


def git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _type_ok(value: Any, kind: str | None) -> bool:
    checks: dict[str, Any] = {
        "string": lambda v: isinstance(v, str),
        "boolean": lambda v: isinstance(v, bool),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
    }
    return kind is None or kind not in checks or checks[kind](value)


def default_problem(node: Schema) -> str | None:
    """Why `node["default"]` fails the schema it sits in (the scalar checks 1.20 applies), if so."""
    value = node["default"]
    if value == "":
        # 1.20 validates an empty-string default as null: `type: string, default: ""`
        # fails as 'Invalid value: "null": in body must be of type string' (seen on 1.20.2).
        return "1.20 reads an empty-string default as null"
    if value is None:
        return None if node.get("nullable") else "null default on a non-nullable field"
    if not _type_ok(value, node.get("type")):
        return f"not of type {node.get('type')}"
    if "enum" in node and value not in node["enum"]:
        return "not in enum"
    if isinstance(value, str):
        if len(value) < node.get("minLength", 0):
            return "shorter than minLength"
        if "maxLength" in node and len(value) > node["maxLength"]:
            return "longer than maxLength"
        if "pattern" in node:
            try:
                pattern = re.compile(node["pattern"])
            except re.error:  # Go (RE2) syntax Python does not take, e.g. "^(?i)...": cannot judge
                return None
            if not pattern.search(value):
                return "does not match pattern"
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in node and value < node["minimum"]:
            return "below minimum"
        if "maximum" in node and value > node["maximum"]:
            return "above maximum"
    return None


def shallow(node: Schema) -> Schema:
    """A schema of the same type as `node` that validates nothing below it but keeps its fields."""
    if node.get("x-kubernetes-int-or-string"):
        return {
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "x-kubernetes-int-or-string": True,
        }
    kind = node.get("type")
    if kind == "object":
        return {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
    if kind == "array":
        return {"type": "array", "items": shallow(node.get("items", {}))}
    if kind is None:
        return {"x-kubernetes-preserve-unknown-fields": True}
    return {"type": kind}


@dataclass
class Cleaner:
    """Walks one openAPIV3Schema, cleaning it in place and noting what it removed."""

    trim: dict[str, frozenset[str]]
    removed: dict[str, int] = field(default_factory=dict)
    trimmed: list[str] = field(default_factory=list)

    def _count(self, key: str) -> None:
        self.removed[key] = self.removed.get(key, 0) + 1

    def clean(self, node: Schema, where: str) -> None:
        for key in list(node):
            if key in FORBIDDEN_1_20:
                raise VendorError(f"{where}: {key!r} is forbidden in a 1.20 CRD schema")
            if key not in KNOWN_1_20 or key in DOCUMENTATION:
                del node[key]
                self._count(key)
        if node.get("uniqueItems"):
            raise VendorError(f"{where}: uniqueItems: true is forbidden in a CRD schema")
        if node.get("x-kubernetes-preserve-unknown-fields") is False:
            del node["x-kubernetes-preserve-unknown-fields"]  # 1.20: "must be true or undefined"
            self._count("x-kubernetes-preserve-unknown-fields: false")
        if "default" in node and (problem := default_problem(node)):
            self._count(f"default: {node.pop('default')!r} ({problem})")

        properties: dict[str, Schema] = node.get("properties", {})
        keep = self.trim.get(where.removeprefix("."), None) if where else None
        for name, sub in properties.items():
            if keep is not None and name not in keep:
                properties[name] = shallow(sub)
                self.trimmed.append(f"{where}.{name}".removeprefix("."))
            else:
                self.clean(sub, f"{where}.{name}")
        if isinstance(node.get("items"), dict):
            self.clean(node["items"], f"{where}[]")
        if isinstance(node.get("additionalProperties"), dict):
            self.clean(node["additionalProperties"], f"{where}{{}}")
        if isinstance(node.get("not"), dict):
            self.clean(node["not"], f"{where}!not")
        for junctor in ("allOf", "anyOf", "oneOf"):
            for index, sub in enumerate(node.get(junctor, [])):
                self.clean(sub, f"{where}!{junctor}[{index}]")
        self._check_list_map_keys(node, where)

    @staticmethod
    def _check_list_map_keys(node: Schema, where: str) -> None:
        # 1.20: every x-kubernetes-list-map-keys entry must be required or have a default.
        if node.get("x-kubernetes-list-type") != "map":
            return
        items = node.get("items", {})
        required = set(items.get("required", []))
        for key in node.get("x-kubernetes-list-map-keys", []):
            if key not in required and "default" not in items.get("properties", {}).get(key, {}):
                raise VendorError(
                    f"{where}: list-map key {key!r} is neither required nor defaulted"
                )


def transform(crd: dict[str, Any], source: Source) -> tuple[dict[str, Any], list[str]]:
    """The 1.20-compatible CRD and a few lines saying what was removed beyond descriptions."""
    if crd.get("apiVersion") != "apiextensions.k8s.io/v1" or crd.get("kind") != (
        "CustomResourceDefinition"
    ):
        raise VendorError(f"{source.path}: not an apiextensions.k8s.io/v1 CustomResourceDefinition")
    spec = crd["spec"]
    versions = [v for v in spec["versions"] if v["name"] == source.version]
    if len(versions) != 1 or not (versions[0].get("served") and versions[0].get("storage")):
        raise VendorError(f"{source.path}: no served storage version {source.version}")
    version = versions[0]
    spec["versions"] = versions
    spec.pop("conversion", None)
    for column in version.get("additionalPrinterColumns", []):
        column.pop("description", None)
    metadata = crd["metadata"]
    crd["metadata"] = {"name": metadata["name"]} | (
        {"annotations": metadata["annotations"]} if metadata.get("annotations") else {}
    )
    crd.pop("status", None)

    cleaner = Cleaner(trim=source.trim)
    cleaner.clean(version["schema"]["openAPIV3Schema"], "")
    notes = [
        f"removed {key} x{count}"
        for key, count in sorted(cleaner.removed.items())
        if key != "description"
    ]
    if cleaner.trimmed:
        notes.append("shallow schema (unknown fields kept) for: " + ", ".join(cleaner.trimmed))
    return crd, notes


def render(crd: dict[str, Any], source: Source, notes: list[str]) -> str:
    names = crd["spec"]["names"]
    extra = "; shallow schema for fields the chart never sets" if source.trim else ""
    header = HEADER.format(
        name=crd["metadata"]["name"],
        kind=names["kind"],
        group=crd["spec"]["group"],
        version=source.version,
        repo=source.repo,
        commit=source.commit,
        path=source.path,
        extra=extra,
    )
    header += "".join(f"#   {note}\n" for note in notes if not note.startswith("shallow"))
    for where, keep in sorted(source.trim.items()):
        header += f"#   shallow: every {where}.* but {', '.join(sorted(keep))}\n"
    body = yaml.safe_dump(crd, sort_keys=False, default_flow_style=False, width=100)
    return header + "---\n" + body


def output_name(crd: dict[str, Any]) -> str:
    return f"{crd['spec']['group']}_{crd['spec']['names']['plural']}.yaml"


def vendor(src: Path, out_dir: Path) -> Path:
    data = src.read_bytes()
    blob = git_blob_sha1(data)
    pinned = {source.blob: (name, source) for name, source in SOURCES.items()}
    if blob not in pinned:
        raise VendorError(f"{src}: git blob {blob} is none of the pinned files in SOURCES")
    name, source = pinned[blob]
    crd = yaml.safe_load(data)
    if crd["metadata"]["name"] != name:
        raise VendorError(f"{src}: holds {crd['metadata']['name']!r}, not {name!r}")
    crd, notes = transform(crd, source)
    out = out_dir / output_name(crd)
    out.write_text(render(crd, source, notes), encoding="utf-8")
    compact = len(json.dumps(crd, separators=(",", ":")))
    sys.stderr.write(
        f"{out.name}: {out.stat().st_size / 1024:.1f} KiB YAML, {compact / 1024:.1f} KiB JSON\n"
    )
    for note in notes:
        sys.stderr.write(f"  {note}\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", type=Path, help="upstream CRD files (see SOURCES)")
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: here)")
    args = parser.parse_args(argv)
    try:
        for src in args.sources:
            vendor(src, args.out)
    except VendorError as error:
        sys.stderr.write(f"vendor.py: {error}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
