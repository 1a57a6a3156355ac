"""浏览器 (Browser): a Chinese mobile web browser over a seeded web of made-up sites: address
bar and search, back/forward, tabs (incognito ones keep no history), bookmarks, history,
find in page, copying and sharing a page's link, downloads and text size."""

from phonebuddy.phoneworld.apps.browser.app import Browser

APP = Browser
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Browser"]
