"""Device state: one plain JSON-like document per device, cheap to snapshot and fork.

    {"os":   {"clock": ..., "settings": {...}, "clipboard": ..., "notifications": [...], ...},
     "apps": {package: {...app data...}},
     "ui":   {"foreground": ..., "stacks": {package: [screen entries]}, "focus": ..., ...}}

App data and `os` are what verifiers diff; `ui` is view state (screens, scroll offsets, typed
text) and never counts as a task's effect. Only dicts, lists, str, int, float, bool and None may
appear, so a copy is a fast recursive walk rather than `copy.deepcopy`.

`apps` is an `AppData`: every installed app's data, built the first time it is read. An episode
touches a few of 40 apps, so a reset, a snapshot or a fork costs what those few cost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import Any, NoReturn

Doc = dict[str, Any]


class AppData(dict):  # type: ignore[type-arg]
    """Every installed app's data as one mapping, each app's built on first read.

    It reads as a plain dict of all `packages` (iteration, `len`, `in`, `get`, `items`, `==`,
    pickle); only the apps read so far hold memory. `json` reads a dict's storage directly, so
    serialize `plain(state)`. `build(package)` makes an app's pristine data
    (always the same for the same device seed); two AppData with the same `origin` share it, so
    an app neither of them has read is equal in both without building it.
    """

    __slots__ = ("_build", "_packages", "origin")

    def __init__(
        self,
        build: Callable[[str], Doc],
        packages: tuple[str, ...],
        origin: object,
        built: dict[str, Doc] | None = None,
    ) -> None:
        super().__init__(built or {})
        self._build = build
        self._packages = packages
        self.origin = origin

    def __missing__(self, package: str) -> Doc:
        if package not in self._packages:
            raise KeyError(package)
        data = self._build(package)
        dict.__setitem__(self, package, data)
        return data

    def built(self) -> dict[str, Doc]:
        """The apps read so far (the rest are pristine), as a plain dict."""
        return dict(dict.items(self))

    def same_origin(self, other: object) -> bool:
        return isinstance(other, AppData) and other.origin == self.origin

    def read_in_either(self, other: AppData) -> set[str]:
        """The apps read in this or `other` (of the same origin): the only ones that can differ."""
        return dict.keys(self) | dict.keys(other)

    def copy(self) -> AppData:
        """A deep copy of the apps read so far; the rest stay unbuilt."""
        return AppData(self._build, self._packages, self.origin,
                       {key: clone(value) for key, value in dict.items(self)})  # fmt: skip

    def replaced(self, built: dict[str, Doc]) -> AppData:
        """The same apps with `built` as the ones read so far (a rollback)."""
        return AppData(self._build, self._packages, self.origin, built)

    def __contains__(self, package: object) -> bool:
        return package in self._packages

    def __iter__(self) -> Iterator[str]:
        return iter(self._packages)

    def __len__(self) -> int:
        return len(self._packages)

    def get(self, package: str, default: Any = None) -> Any:
        return self[package] if package in self._packages else default

    def keys(self):  # type: ignore[override]  # noqa: ANN201
        return dict.fromkeys(self._packages).keys()

    def values(self):  # type: ignore[override]  # noqa: ANN201
        return {package: self[package] for package in self._packages}.values()

    def items(self):  # type: ignore[override]  # noqa: ANN201
        return {package: self[package] for package in self._packages}.items()

    def __eq__(self, other: object) -> bool:
        if self.same_origin(other):
            assert isinstance(other, AppData)
            return all(self[p] == other[p] for p in self.read_in_either(other))
        if isinstance(other, dict):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"AppData({len(self._packages)} apps, built: {sorted(dict.keys(self))})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self.items()),))

    def _refuse(self, *_: Any, **__: Any) -> NoReturn:
        raise TypeError("the installed apps are fixed: an app's data can be replaced, not removed")

    __delitem__ = pop = popitem = clear = _refuse  # type: ignore[assignment]

    def __setitem__(self, package: str, data: Doc) -> None:
        if package not in self._packages:
            raise KeyError(f"{package} is not installed")
        dict.__setitem__(self, package, data)

    def setdefault(self, package: str, default: Any = None) -> Any:
        return self[package]

    def update(self, *_: Any, **__: Any) -> NoReturn:
        raise TypeError("replace an app's data with apps[package] = data")


def plain(value: Any) -> Any:
    """A deep copy made of plain dicts and lists, every app's data built (for JSON)."""
    if type(value) is AppData:
        return {key: clone(item) for key, item in value.items()}
    if type(value) is dict:
        return {key: plain(item) for key, item in value.items()}
    return clone(value)


def clone(value: Any) -> Any:
    """A deep copy of a JSON-like value (about 5x faster than copy.deepcopy)."""
    kind = type(value)
    if kind is dict:
        return {key: clone(item) for key, item in value.items()}
    if kind is AppData:
        return value.copy()
    if kind is list:
        return [clone(item) for item in value]
    if kind in (str, int, float, bool) or value is None:
        return value
    # Read-only world content (frozen mappings and tuples) becomes plain, mutable state.
    if kind is MappingProxyType:
        return {key: clone(item) for key, item in value.items()}
    if kind is tuple:
        return [clone(item) for item in value]
    raise TypeError(f"device state may only hold JSON-like values, found {kind.__name__}")
