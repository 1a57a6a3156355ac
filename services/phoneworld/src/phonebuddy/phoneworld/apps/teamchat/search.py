"""Huddle's message search: words, with optional `from:<name>` and `in:#channel` filters."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.teamchat.base import AUBERGINE, TeamchatBase, day_label
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import Button, ListItem, Page, Text, TextField, Widget

MAX_RESULTS = 40


def parse_query(query: str) -> tuple[list[str], str | None, str | None]:
    """('budget from:priya in:#launch') -> (['budget'], 'priya', 'launch')."""
    words, sender, place = [], None, None
    for token in query.lower().split():
        if token.startswith("from:"):
            sender = token[5:].lstrip("@") or None
        elif token.startswith("in:"):
            place = token[3:].lstrip("#") or None
        else:
            words.append(token)
    return words, sender, place


class SearchScreens(TeamchatBase):
    def matches(self, v: View, query: str) -> list[dict[str, Any]]:
        words, sender, place = parse_query(query)
        found = []
        for msg in v.data["messages"]:
            author = self.member(v, msg["author"])["name"].lower()
            channel = self.channel_title(v, msg["channel"]).lower().lstrip("#")
            if sender and sender not in author.split() and sender != author.replace(" ", ""):
                continue
            if place and place != channel:
                continue
            if all(w in msg["text"].lower() for w in words):
                found.append(msg)
        return sorted(found, key=lambda m: (m["day"], [-int(x) for x in m["hm"].split(":")]))

    @staticmethod
    def clear_query(it: Interaction) -> None:
        if not it.field("query"):
            it.no_op("the search is empty")
        it.set_field("query", "")

    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("query").strip()
        rows: list[Widget | None] = [
            TextField("query", v.field("query"), "Search (from:name in:#channel)",
                      on_focus=v.focus("query")),
            Button("Clear", v.do(self.clear_query), id="clear_query", style="secondary",
                   height=90, size=34) if query else None,
        ]  # fmt: skip
        if not query:
            rows.append(Text("Try words, from:priya or in:#design", color=theme.TEXT_SECONDARY,
                             padding=30, id="search_hint"))  # fmt: skip
            return Page("Search", rows, on_back=v.back())
        found = self.matches(v, query)
        rows.append(Text(f"{len(found)} results", size=34, bold=True, id="result_count"))
        clock = v.os["clock"]
        for msg in found[:MAX_RESULTS]:
            author = self.member(v, msg["author"])["name"]
            where = self.channel_title(v, msg["channel"])
            rows.append(ListItem(
                msg["text"], subtitle=f"{author} in {where} · {day_label(clock, msg['day'])} "
                f"{msg['hm']}", leading=author[:1], leading_color=AUBERGINE,
                on_tap=v.go("thread", msg_id=msg["parent"] or msg["id"]),
                id=f"result_{msg['id']}",
            ))  # fmt: skip
        if not found:
            rows.append(Text(f"No results for '{query}'", color=theme.TEXT_SECONDARY, padding=30,
                             id="no_results"))  # fmt: skip
        return Page("Search", rows, on_back=v.back())
