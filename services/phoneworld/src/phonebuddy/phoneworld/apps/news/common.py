"""What the 头条新闻 templates share: content look-ups and oracle steps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.news.base import NEWS
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

APP_LABEL = "头条新闻"
HISTORY = f"apps/{NEWS}/history"
SAVED = f"apps/{NEWS}/saved"


def articles(world: World, **has: bool) -> list[Any]:
    """The articles; `hotline=True` keeps those that state a hotline, and so on."""
    return [a for a in world.content(NEWS)["articles"]
            if all((a[k] is not None) == want for k, want in has.items())]  # fmt: skip


def unsaved(world: World, **has: bool) -> list[Any]:
    """The articles (with the facts `has` asks) that are not in 收藏 after a reset."""
    saved = set(world.content(NEWS)["saved"])
    return [a for a in articles(world, **has) if a["id"] not in saved]


def article_params(a: Any) -> Params:
    return {"article_id": a["id"], "title": a["title"]}


def open_article(ui: OracleUI, title: str, article_id: str) -> Iterator[Action]:
    """From anywhere: open 头条新闻, search the title, open the article."""
    yield ui.open(APP_LABEL)
    yield ui.tap("open_search")
    yield from ui.type_into("query", title)
    yield ui.tap(f"art_{article_id}")


def paragraph_with(ui: OracleUI, marker: str) -> tuple[str, str]:
    """On an article page: the id and text of the first paragraph containing `marker`."""
    i = 0
    while ui.find(f"para_{i}") is not None:
        text = ui.text_of(f"para_{i}")
        if marker in text:
            return f"para_{i}", text
        i += 1
    raise LookupError(marker)


class NewsTemplate(TaskTemplate):
    """A template of 头条新闻 alone."""

    category = Category.SINGLE_APP
    apps = (NEWS,)
