"""设置 (Settings): Wi-Fi, Bluetooth, display, sound, do-not-disturb, language and the about page;
its switches are the phone's OS settings."""

from phonebuddy.phoneworld.apps.settings.app import Settings

APP = Settings
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Settings"]
