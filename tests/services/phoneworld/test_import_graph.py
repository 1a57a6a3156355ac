"""PhoneWorld's modules import one another without cycles.

The graph is read from the source: every import a module runs, at module level or inside a
function (a lazy import only hides a cycle from the interpreter, not from the design). Imports
under `if TYPE_CHECKING:` never run and are left out: they name types for annotations only.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "services" / "phoneworld" / "src" / "phonebuddy" / "phoneworld"
PACKAGE = "phonebuddy.phoneworld"
# Three apps that hand a call or a message to each other through function-local imports (the
# contacts card calls through Phone, Phone texts through Messages, Messages calls through
# Phone). Intents dispatched through the world's app table would dissolve it.
KNOWN_CYCLES = {
    frozenset(
        {
            f"{PACKAGE}.apps.contacts.app",
            f"{PACKAGE}.apps.messages.app",
            f"{PACKAGE}.apps.phone.app",
        }
    )
}


def module_name(path: Path) -> str:
    parts = [PACKAGE, *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(SRC.rglob("*.py"))}


def _resolve(name: str) -> str | None:
    """The PhoneWorld module `name` is or lies in (`pkg.mod.Class` -> `pkg.mod`)."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


class _Imports(ast.NodeVisitor):
    """Names every import statement that runs (all but those under `if TYPE_CHECKING:`)."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.names: list[str] = []

    def visit_If(self, node: ast.If) -> None:
        if "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.orelse:
                self.visit(stmt)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.names += [alias.name for alias in node.names]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            anchor = self.package.rsplit(".", node.level - 1)[0]
            base = f"{anchor}.{base}" if base else anchor
        # `from pkg import name`: the module `pkg.name` if there is one, else `pkg` itself.
        self.names += [f"{base}.{alias.name}" for alias in node.names]


@cache
def graph() -> dict[str, frozenset[str]]:
    edges = {}
    for module, path in modules().items():
        reader = _Imports(module, is_package=path.name == "__init__.py")
        reader.visit(ast.parse(path.read_text(), filename=str(path)))
        targets = {_resolve(name) for name in reader.names}
        edges[module] = frozenset(t for t in targets if t is not None and t != module)
    return edges


def strongly_connected(edges: dict[str, frozenset[str]]) -> list[frozenset[str]]:
    """Tarjan's algorithm, iterative: every component of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_graph_sees_every_module_and_its_lazy_imports() -> None:
    edges = graph()
    assert f"{PACKAGE}.device" in edges
    assert len(edges) > 100
    # Module level, relative to nothing: the device builds on the world and the clock.
    assert {f"{PACKAGE}.world", f"{PACKAGE}.clock"} <= edges[f"{PACKAGE}.device"]
    # Inside a function: the default world imports every app.
    assert f"{PACKAGE}.apps" in edges[f"{PACKAGE}.world"]


def test_phoneworld_has_no_import_cycle() -> None:
    cycles = strongly_connected(graph())
    unknown = [sorted(c) for c in cycles if c not in KNOWN_CYCLES]
    assert not unknown, f"import cycles: {unknown}"


def test_no_app_imports_the_device() -> None:
    """Apps sit below the device (the device runs them); what they share with it, such as the
    clock's epoch, lives in leaf modules."""
    offending = sorted(
        module
        for module, targets in graph().items()
        if module.startswith(f"{PACKAGE}.apps") and f"{PACKAGE}.device" in targets
    )
    assert not offending


def test_the_clock_is_a_leaf() -> None:
    assert graph()[f"{PACKAGE}.clock"] == frozenset()


def test_the_cycle_finder_finds_cycles() -> None:
    edges = {
        "a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}),
        "d": frozenset({"a", "e"}), "e": frozenset({"d"}), "f": frozenset(),
    }  # fmt: skip
    assert sorted(map(sorted, strongly_connected(edges))) == [["a", "b", "c"], ["d", "e"]]
