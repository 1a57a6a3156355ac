"""Structured diffs of device state, and a verifier's view of them.

The verifier compares the state before an episode with the state after it. Lists of objects
with an "id" are compared as keyed collections, so adding an order shows as one added item at
`apps/com.pw.shop/orders[order-00001]`, not as a shifted list. UI state never counts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from phonebuddy.phoneworld.state import AppData, Doc

# OS paths that change through normal use and are never a task's effect.
DEFAULT_IGNORABLE = ("os/clock", "os/next_id", "os/permissions", "os/clipboard", "os/notifications")


@dataclass(frozen=True, slots=True)
class Change:
    path: str
    kind: Literal["added", "removed", "changed"]
    before: Any = None
    after: Any = None

    def describe(self) -> str:
        if self.kind == "added":
            return f"{self.path} was added"
        if self.kind == "removed":
            return f"{self.path} was removed"
        return f"{self.path} changed from {self.before!r} to {self.after!r}"


def _is_keyed(items: list[Any]) -> bool:
    return all(isinstance(item, dict) and "id" in item for item in items)


def _diff(before: Any, after: Any, path: str, out: list[Change]) -> None:
    if before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before.keys() | after.keys():
            child = f"{path}/{key}"
            if key not in after:
                out.append(Change(child, "removed", before=before[key]))
            elif key not in before:
                out.append(Change(child, "added", after=after[key]))
            else:
                _diff(before[key], after[key], child, out)
        return
    if isinstance(before, list) and isinstance(after, list) and _is_keyed(before + after):
        old = {item["id"]: item for item in before}
        new = {item["id"]: item for item in after}
        for key in old.keys() | new.keys():
            child = f"{path}[{key}]"
            if key not in new:
                out.append(Change(child, "removed", before=old[key]))
            elif key not in old:
                out.append(Change(child, "added", after=new[key]))
            else:
                _diff(old[key], new[key], child, out)
        # Reordering alone (e.g. moving a note to the top) is not an effect.
        return
    out.append(Change(path, "changed", before=before, after=after))


def diff_states(before: Doc, after: Doc) -> list[Change]:
    changes: list[Change] = []
    _diff(before["os"], after["os"], "os", changes)
    apps_before, apps_after = before["apps"], after["apps"]
    if isinstance(apps_before, AppData) and apps_before.same_origin(apps_after):
        for package in apps_before.read_in_either(apps_after):
            _diff(apps_before[package], apps_after[package], f"apps/{package}", changes)
    else:
        _diff(apps_before, apps_after, "apps", changes)
    return sorted(changes, key=lambda change: change.path)


@functools.cache
def _prefix_pattern(prefix: str) -> re.Pattern[str]:
    """A path prefix where `[*]` stands for any list item and `*` for any one key."""
    parts = re.split(r"(\[\*\]|\*)", prefix)
    body = "".join(
        r"\[[^\]]+\]" if part == "[*]" else r"[^/\[]+" if part == "*" else re.escape(part)
        for part in parts
    )
    return re.compile(body + r"(?:$|/|\[)")


def _under(path: str, prefix: str) -> bool:
    """Whether `path` is `prefix` or lies below it (`apps/x/mails[*]/read` matches any mail)."""
    if "*" not in prefix:
        return path == prefix or path.startswith((prefix + "/", prefix + "["))
    return _prefix_pattern(prefix).match(path) is not None


class StateDiff:
    """The changes of one episode; a verifier claims the ones it expects, the rest are
    unexpected side effects."""

    def __init__(self, before: Doc, after: Doc, *, ignorable: Iterable[str] = ()) -> None:
        self.before = before
        self.after = after
        self.changes = diff_states(before, after)
        self._ignorable = tuple(ignorable)
        self._claimed: set[str] = set()

    def _claim(self, changes: list[Change]) -> list[Change]:
        self._claimed.update(c.path for c in changes)
        return changes

    def _items(self, list_path: str, kind: str) -> list[Change]:
        """Changes that add or remove a whole item of the keyed list at `list_path`."""
        return [
            c
            for c in self.changes
            if c.kind == kind
            and c.path.startswith(list_path + "[")
            and "/" not in c.path[len(list_path) :]
        ]

    def added(self, list_path: str) -> list[dict[str, Any]]:
        """Items added to the keyed list at `list_path` (claimed)."""
        return [c.after for c in self._claim(self._items(list_path, "added"))]

    def removed(self, list_path: str) -> list[dict[str, Any]]:
        """Items removed from the keyed list at `list_path` (claimed)."""
        return [c.before for c in self._claim(self._items(list_path, "removed"))]

    def touched(self, prefix: str) -> list[Change]:
        """Every change at or under `prefix` (claimed)."""
        return self._claim([c for c in self.changes if _under(c.path, prefix)])

    def value_before(self, path: str) -> Any:
        return _resolve(self.before, path)

    def value_after(self, path: str) -> Any:
        return _resolve(self.after, path)

    def unexpected(self) -> list[Change]:
        """Changes nobody claimed and no ignorable path covers: side effects."""
        return [
            c
            for c in self.changes
            if c.path not in self._claimed
            and not any(_under(c.path, prefix) for prefix in self._ignorable)
        ]


# -- verifier helpers built on a StateDiff ------------------------------------------------------


def one_added(
    diff: StateDiff, list_path: str, what: str
) -> tuple[dict[str, Any] | None, list[str]]:
    """The single item added to the keyed list at `list_path` (claimed), or the problem that
    there is not exactly one; `what` names the item in that problem ("note", "order")."""
    added = diff.added(list_path)
    if len(added) != 1:
        return None, [f"expected one new {what}, found {len(added)}"]
    return added[0], []


@dataclass(frozen=True, slots=True)
class Is:
    """An expected value given by a test rather than by equality (e.g. 'some time')."""

    text: str
    test: Callable[[Any], bool]


A_TIME = Is("a time", lambda value: isinstance(value, int) and not isinstance(value, bool))


def expect_changes(diff: StateDiff, prefix: str, expected: Mapping[str, Any]) -> list[str]:
    """Claim every change under `prefix`: they must be exactly `expected` (path -> new value,
    or an `Is` test of it)."""
    changes = {change.path: change for change in diff.touched(prefix)}
    problems = []
    for path, want in expected.items():
        change = changes.get(path)
        wanted = want.text if isinstance(want, Is) else repr(want)
        if change is None:
            problems.append(f"{path} did not change (expected {wanted})")
        elif not (want.test(change.after) if isinstance(want, Is) else change.after == want):
            problems.append(f"{path} is {change.after!r}, expected {wanted}")
    problems += [f"unexpected change: {changes[p].describe()}" for p in changes.keys() - expected]
    return problems


def _resolve(doc: Any, path: str) -> Any:
    """Read `apps/com.pw.shop/orders[order-00001]/status` from a state document."""
    node = doc
    for part in path.split("/"):
        key, _, item = part.partition("[")
        if key:
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        if item:
            item_id = item.rstrip("]")
            node = next((x for x in node if isinstance(x, dict) and x.get("id") == item_id), None)
            if node is None:
                return None
    return node
