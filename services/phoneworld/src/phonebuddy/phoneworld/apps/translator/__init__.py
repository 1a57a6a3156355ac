"""翻译 (Translator, 有道-like): a phrasebook looked up exactly in a 中→英 / 英→中 direction, a
history of lookups, a favourites list (收藏夹), a copy button; a direct tool to translate."""

from phonebuddy.phoneworld.apps.translator.app import Translator

APP = Translator
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Translator"]
