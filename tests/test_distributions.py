"""Dependencies are declared where they are used, and point one way.

Read from the source (no install): every module a distribution imports is the distribution
itself, the standard library, or one of its declared dependencies — an import inside
`try: ... except ImportError` may name an optional one (declared in an extra, or none);
libs never depend on services, services never on each other, and only the local stack may
depend on `phonebuddy-testing`. A lib's tests import no service. `make check-dists` proves the
same on real installs: each distribution alone in a fresh virtual environment.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GROUPS = ("libs", "services", "training-jobs")
# Distributions that may depend on the servers-on-free-ports test kit: the local stack runs them.
MAY_USE_TESTING = {"phonebuddy-stack"}


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    return normalize(re.split(r"[<>=!~\[; @]", requirement.strip(), maxsplit=1)[0])


@dataclass(frozen=True)
class Dist:
    name: str
    group: str
    path: Path
    dependencies: frozenset[str]
    extras: frozenset[str]  # every name any extra requires
    packages: tuple[str, ...]  # phonebuddy.<package> it ships


@cache
def distributions() -> dict[str, Dist]:
    found = {}
    for group in GROUPS:
        for project in sorted((ROOT / group).glob("*/pyproject.toml")):
            meta = tomllib.loads(project.read_text())["project"]
            extras = meta.get("optional-dependencies", {}).values()
            src = project.parent / "src" / "phonebuddy"
            found[normalize(meta["name"])] = Dist(
                name=normalize(meta["name"]),
                group=group,
                path=project.parent,
                dependencies=frozenset(map(requirement_name, meta.get("dependencies", []))),
                extras=frozenset(requirement_name(r) for reqs in extras for r in reqs),
                packages=tuple(sorted(p.name for p in src.iterdir() if p.is_dir()))
                if src.is_dir()
                else (),
            )
    return found


@cache
def package_owners() -> dict[str, str]:
    return {pkg: d.name for d in distributions().values() for pkg in d.packages}


@dataclass(frozen=True)
class Import:
    module: str
    file: str
    line: int
    guarded: bool  # inside `try:` with an `except ImportError` (or ModuleNotFoundError)


def imports_in(path: Path) -> list[Import]:
    where = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    reader = _ImportReader(where)
    reader.visit(ast.parse(path.read_text(), filename=str(path)))
    return reader.found


class _ImportReader(ast.NodeVisitor):
    def __init__(self, where: str) -> None:
        self.where = where
        self.found: list[Import] = []
        self._guards = 0

    def visit_Try(self, node: ast.Try) -> None:
        guarded = any(_catches_import_error(h) for h in node.handlers)
        self._guards += guarded
        for stmt in node.body:
            self.visit(stmt)
        self._guards -= guarded
        for stmt in [*node.handlers, *node.orelse, *node.finalbody]:
            self.visit(stmt)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and node.module:
            self._add(node.module, node)

    def _add(self, module: str, node: ast.stmt) -> None:
        self.found.append(Import(module, self.where, node.lineno, self._guards > 0))


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(n, ast.Name) and n.id in {"ImportError", "ModuleNotFoundError"}
               for n in names)  # fmt: skip


@cache
def _top_level_providers() -> dict[str, list[str]]:
    return dict(packages_distributions())


def distribution_of(module: str) -> str | None:
    """The distribution that provides `module`; None for the standard library."""
    parts = module.split(".")
    if parts[0] == "phonebuddy":
        if len(parts) == 1:
            return None
        return package_owners().get(parts[1], f"<no distribution ships phonebuddy.{parts[1]}>")
    if parts[0] in sys.stdlib_module_names or parts[0] == "__future__":
        return None
    providers = _top_level_providers().get(parts[0])
    return normalize(providers[0]) if providers else f"<nothing installed provides {parts[0]}>"


@cache
def used_by(dist: Dist) -> list[tuple[str, Import]]:
    return [
        (provider, found)
        for file in sorted((dist.path / "src").rglob("*.py"))
        for found in imports_in(file)
        if (provider := distribution_of(found.module)) not in (None, dist.name)
    ]


DISTS = sorted(distributions())


def test_every_distribution_is_found() -> None:
    assert {"phonebuddy-cli", "phonebuddy-env-endpoint", "phonebuddy-stack"} <= set(DISTS)
    assert {"phonebuddy-phoneworld", "phonebuddy-device-gateway"} <= set(DISTS)


@pytest.mark.parametrize("name", DISTS)
def test_every_import_is_a_declared_dependency(name: str) -> None:
    """Declared as a dependency, or by an extra (modules such as the viewer need theirs)."""
    dist = distributions()[name]
    undeclared = [
        f"{found.file}:{found.line} imports {found.module} ({provider})"
        for provider, found in used_by(dist)
        if provider not in dist.dependencies | dist.extras and not found.guarded
    ]
    assert not undeclared, f"{name} does not declare:\n" + "\n".join(undeclared)


@pytest.mark.parametrize("name", DISTS)
def test_optional_imports_name_extras_or_nothing_required(name: str) -> None:
    """A guarded import may name a distribution an extra requires, or one the code does
    without (it falls back when the import fails); either way never a required one by accident:
    a declared dependency needs no guard."""
    dist = distributions()[name]
    needless = [
        f"{found.file}:{found.line} guards {found.module}, a declared dependency"
        for provider, found in used_by(dist)
        if found.guarded and provider in dist.dependencies and provider.startswith("phonebuddy-")
    ]
    assert not needless, "\n".join(needless)


@pytest.mark.parametrize("name", DISTS)
def test_dependencies_point_one_way(name: str) -> None:
    dist = distributions()[name]
    every = distributions()
    wanted = {d for d in dist.dependencies | dist.extras if d in every}
    wanted |= {provider for provider, _ in used_by(dist) if provider in every}
    wrong = []
    for other in sorted(wanted):
        target = every[other].group
        if dist.group == "libs" and target != "libs":
            wrong.append(f"lib {name} -> {target[:-1]} {other}")
        if dist.group == "services" and target == "services":
            wrong.append(f"service {name} -> service {other} (services talk over NATS/HTTP)")
        if other == "phonebuddy-testing" and name not in MAY_USE_TESTING:
            wrong.append(f"{name} -> phonebuddy-testing (test servers in a production install)")
    assert not wrong, "\n".join(wrong)


def test_the_command_line_installs_without_the_test_servers() -> None:
    cli = distributions()["phonebuddy-cli"]
    assert "phonebuddy-testing" not in cli.dependencies | cli.extras
    assert "phonebuddy-stack" not in cli.dependencies | cli.extras


def test_the_demo_needs_no_command_line_distribution() -> None:
    demo = distributions()["phonebuddy-demo"]
    assert "phonebuddy-cli" not in demo.dependencies | demo.extras
    assert {"phonebuddy-stack", "phonebuddy-sft", "phonebuddy-rl"} <= demo.dependencies
    assert not [f for p, f in used_by(demo) if p == "phonebuddy-cli"]
    assert (demo.path / "src/phonebuddy/demo/__main__.py").is_file()


def lib_test_files() -> list[Path]:
    return sorted((ROOT / "tests" / "libs").rglob("*.py"))


def test_no_lib_test_imports_a_service() -> None:
    every = distributions()
    offending = [
        f"{found.file}:{found.line} imports {found.module}"
        for file in lib_test_files()
        for found in imports_in(file)
        if (provider := distribution_of(found.module)) in every and every[provider].group != "libs"
    ]
    assert not offending, "\n".join(offending)


def test_the_checks_see_imports_inside_functions_and_guards(tmp_path: Path) -> None:
    """The reader itself: lazy imports count, guards are recognized."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import json\n"
        "def f():\n"
        "    from phonebuddy.protocol import Source\n"
        "try:\n"
        "    import yaml\n"
        "except (ModuleNotFoundError, OSError):\n"
        "    yaml = None\n"
    )
    found = {(i.module, i.guarded) for i in imports_in(sample)}
    assert found == {("json", False), ("phonebuddy.protocol", False), ("yaml", True)}
    assert distribution_of("json") is None
    assert distribution_of("phonebuddy.protocol.env") == "phonebuddy-protocol"
    assert distribution_of("pydantic") == "pydantic"
