"""Every PhoneWorld app, in launcher order.

`APPS` is the one place an app is registered: each name is a package here that exports `APP`
(its `App` class) and has a `tasks` module with its templates in `TEMPLATES`. The world's apps
and the task registry (`phonebuddy.phoneworld.tasks.registry`) both read this list.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from phonebuddy.phoneworld.app import App

APPS: tuple[str, ...] = (
    "notes", "wallet", "shop", "settings", "clock", "calendar", "food", "ride", "travel",
    "contacts", "phone", "messages", "mail", "gallery", "messenger", "weather", "music",
    "calculator", "parcels", "translator", "bank", "files", "reviews", "health", "reader",
    "circle", "maps", "video", "drive", "longvideo", "appstore", "browser",
    "showtix", "flights", "secondhand", "teamchat", "recorder", "smarthome", "news", "charging",
)  # fmt: skip


def app_package(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}")


def app_tasks(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}.tasks")


def all_apps() -> list[App]:
    return [app_package(name).APP() for name in APPS]
