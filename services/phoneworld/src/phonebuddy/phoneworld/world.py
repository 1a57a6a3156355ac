"""A world: the installed apps and their seeded read-only content, shared by every device.

Content is built once per (world seed, app) and never copied per device; devices hold only
their mutable state.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from phonebuddy.phoneworld.app import App
from phonebuddy.phoneworld.state import clone


class UnknownAppError(KeyError):
    def __init__(self, name: str, known: Sequence[str]) -> None:
        self.name = name
        self.known = tuple(known)
        super().__init__(f"unknown app {name!r}; installed: {', '.join(known)}")

    def __str__(self) -> str:
        return str(self.args[0])


def seeded_rng(*parts: object) -> random.Random:
    """An RNG seeded from parts (world seed, task seed, package...), stable across processes."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({key: _freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(item) for item in value)
    return value


class World:
    """The apps installed on every device, and their content for one world seed."""

    def __init__(self, apps: Sequence[App], *, seed: int = 0) -> None:
        self.seed = seed
        self._apps = {app.package: app for app in apps}
        if len(self._apps) != len(apps):
            raise ValueError("two apps share a package name")
        self._content = {
            app.package: _freeze(app.build_content(seeded_rng("content", seed, app.package)))
            for app in apps
        }

    @property
    def packages(self) -> tuple[str, ...]:
        return tuple(self._apps)

    @property
    def apps(self) -> tuple[App, ...]:
        return tuple(self._apps.values())

    def app(self, package: str) -> App:
        try:
            return self._apps[package]
        except KeyError:
            raise UnknownAppError(package, list(self._apps)) from None

    def content(self, package: str) -> Any:
        return self._content[package]

    def initial_data(self, device_seed: int, package: str) -> Any:
        """A fresh, mutable copy of an app's data on a new device of `device_seed`."""
        app = self.app(package)
        rng = seeded_rng("data", self.seed, device_seed, package)
        return clone(app.initial_data(self._content[package], rng))

    def resolve(self, name: str) -> App:
        """An app by package name or by its Chinese or English label (any letter case)."""
        wanted = name.strip().lower()
        for app in self._apps.values():
            if wanted in (app.package.lower(), app.label.zh.lower(), app.label.en.lower()):
                return app
        raise UnknownAppError(name, [app.label.en for app in self._apps.values()])


@functools.cache
def default_world(seed: int = 0) -> World:
    """The world with every PhoneWorld app installed (built once per process and seed)."""
    from phonebuddy.phoneworld.apps import all_apps

    return World(all_apps(), seed=seed)
