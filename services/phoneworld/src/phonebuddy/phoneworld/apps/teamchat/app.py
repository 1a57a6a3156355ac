"""Huddle, a Slack-like workplace chat: the Northwind workspace's channels and DMs with unread
badges, a channel with its messages, reactions and a composer, threads, a message's actions
(save, pin, remind, edit, delete), member profiles with local times, search with from:/in:
filters, the status, saved items and reminders."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.teamchat.base import (
    AUBERGINE,
    CLEAR_AFTER,
    REMIND,
    TEAMCHAT,
    day_label,
    member_time,
    utc_label,
)
from phonebuddy.phoneworld.apps.teamchat.content import EMOJI, ME, WORKSPACE
from phonebuddy.phoneworld.apps.teamchat.search import SearchScreens
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Chip,
    Column,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)

TABS = (("home", "Home"), ("dms", "DMs"), ("you", "You"))

__all__ = ["TEAMCHAT", "Teamchat"]


class Teamchat(SearchScreens):
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "home")
        body = {"home": self._channels, "dms": self._dms, "you": self._you}[tab](v)
        search = IconButton("search", "Search", v.go("search"), id="search")
        return Page(WORKSPACE, [*body, Spacer(60)], header=Tabs(TABS, tab, v.on_select("tab")),
                    actions=[search])  # fmt: skip

    def _row(self, v: View, channel: dict[str, Any]) -> ListItem:
        cid = channel["id"]
        unread = v.data["unread"].get(cid, 0)
        muted = cid in v.data["muted"]
        mention = v.data["mentions"].get(cid, 0)
        dm = channel["kind"] == "dm"
        title = self.channel_title(v, cid)
        return ListItem(
            title,
            subtitle=("muted" if muted else "") + (" · @mention" if mention else ""),
            leading=title.lstrip("#")[:1] if dm else "#",
            leading_color=AUBERGINE,
            badge=0 if muted else unread,
            on_tap=v.do(self.open_channel, cid),
            id=f"channel_{cid}",
        )

    def _channels(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = [Text("Channels", size=40, bold=True, padding=20)]
        rows += [self._row(v, c) for c in v.content["channels"] if c["kind"] == "channel"]
        rows.append(Button("Members", v.go("members"), id="members", style="secondary"))
        return rows

    def _dms(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = [Text("Direct messages", size=40, bold=True, padding=20)]
        known = [c for c in v.content["channels"] if c["kind"] == "dm"]
        ids = {c["id"] for c in known}
        started = dict.fromkeys(
            m["channel"]
            for m in v.data["messages"]
            if m["channel"].startswith("dm-") and m["channel"] not in ids
        )
        rows += [self._row(v, c) for c in known]
        rows += [self._row(v, c) for cid in started if (c := self.channel(v, cid))]
        return rows

    def _you(self, v: View) -> list[Widget | None]:
        me = self.member(v, ME)
        status = v.data["status"]
        label = dict(CLEAR_AFTER).get(status["clear_after"], "")
        rows: list[Widget | None] = [
            Text(me["name"], size=50, bold=True, padding=20, id="my_name"),
            Text(f"Status: {status['text']} (clears: {label})" if status["text"]
                 else "No status set", id="my_status"),
            Button("Set a status", v.go("status"), id="set_status"),
            Button("Clear status", v.do(self.clear_status), id="clear_status",
                   style="secondary") if status["text"] else None,
            Text("Saved items", size=40, bold=True, padding=20),
        ]  # fmt: skip
        for saved in v.data["saved"]:
            msg = self.message(v.data, saved["id"])
            if msg is not None:
                rows.append(ListItem(msg["text"], subtitle=self.channel_title(v, msg["channel"]),
                                     on_tap=v.go("thread", msg_id=msg["id"]),
                                     id=f"saved_{msg['id']}"))  # fmt: skip
        if not v.data["saved"]:
            rows.append(Text("Nothing saved yet", color=theme.TEXT_SECONDARY, padding=20))
        rows.append(Text("Reminders", size=40, bold=True, padding=20))
        for rem in v.data["reminders"]:
            msg = self.message(v.data, rem["message"])
            rows.append(ListItem(msg["text"] if msg else "(deleted message)",
                                 subtitle=dict(REMIND)[rem["when"]], id=f"reminder_{rem['id']}",
                                 action=IconButton("delete", "Cancel reminder",
                                                   v.do(self.cancel_reminder, rem["id"]),
                                                   id=f"cancel_{rem['id']}")))  # fmt: skip
        if not v.data["reminders"]:
            rows.append(Text("No reminders", color=theme.TEXT_SECONDARY, padding=20))
        return rows

    # -- a channel --------------------------------------------------------------------------------
    def _reaction_chips(self, v: View, msg: dict[str, Any]) -> Wrap | None:
        chips = [
            Chip(f":{emoji}: {len(who)}", v.do(self.react, msg["id"], emoji),
                 selected=ME in who, id=f"react_{msg['id']}_{EMOJI.index(emoji)}")
            for emoji, who in msg["reactions"].items()
        ]  # fmt: skip
        return Wrap(chips) if chips else None

    def message_card(self, v: View, msg: dict[str, Any], *, in_thread: bool = False) -> Card:
        author = self.member(v, msg["author"])
        mid = msg["id"]
        count = len(self.replies(v.data, mid))
        meta = f"{author['name']}  {msg['hm']}" + (" (edited)" if msg["edited"] else "")
        return Card([
            Row([Text(meta, size=34, bold=True, id=f"meta_{mid}"),
                 IconButton("more", "More actions", v.do(self.open_sheet, mid), id=f"more_{mid}",
                            size=90)]),
            Text("Pinned", size=30, color=AUBERGINE, id=f"pinned_{mid}") if msg["pinned"]
            else None,
            Text(msg["text"], size=40, id=f"text_{mid}"),
            self._reaction_chips(v, msg),
            Button(f"{count} repl{'y' if count == 1 else 'ies'}", v.go("thread", msg_id=mid),
                   id=f"thread_{mid}", style="text", height=80, size=34)
            if count and not in_thread else None,
        ], id=f"msg_{mid}", padding=24, spacing=8)  # fmt: skip

    def _sheet(self, v: View, mid: str) -> BottomSheet | None:
        msg = self.message(v.data, mid)
        if msg is None:
            return None
        saved = any(s["id"] == mid for s in v.data["saved"])
        mine = msg["author"] == ME
        close = v.set_ui("sheet", None)
        children: list[Widget | None] = [
            Wrap([Chip(f":{e}:", v.do(self.react, mid, e), id=f"add_{i}")
                  for i, e in enumerate(EMOJI)]),
            Button("Reply in thread", v.do(self.leave_sheet, "thread", msg_id=mid), id="act_thread",
                   style="secondary", height=100) if not msg["parent"] else None,
            Row([
                Button("Unsave" if saved else "Save", v.do(self.toggle_saved, mid),
                       id="act_save", style="secondary", height=100),
                Button("Unpin" if msg["pinned"] else "Pin", v.do(self.ask, f"pin:{mid}"),
                       id="act_pin", style="secondary", height=100),
            ], spacing=16),
            Text("Remind me about this", size=34, color=theme.TEXT_SECONDARY),
            Row([Button(label, v.do(self.remind, mid, key), id=f"act_remind_{key}",
                        style="secondary", height=100) for key, label in REMIND], spacing=16),
            Row([
                Button("Edit", v.do(self.leave_sheet, "edit", msg_id=mid,
                                    fields={"edit": msg["text"]}),
                       id="act_edit", style="secondary", height=100),
                Button("Delete", v.do(self.ask, f"delete:{mid}"), id="act_delete",
                       style="danger", height=100),
            ], spacing=16) if mine else None,
            Button("Cancel", close, id="act_cancel", style="text", height=90),
        ]  # fmt: skip
        return BottomSheet("Message actions", children, on_dismiss=close)

    def _dialog(self, v: View) -> Any:
        kind, _, mid = (v.ui("dialog") or "").partition(":")
        msg = self.message(v.data, mid)
        if msg is None:
            return None
        if kind == "pin":
            pin = not msg["pinned"]
            return v.confirm("Pin this message?" if pin else "Unpin this message?",
                             v.do(self.set_pin, mid, pin),
                             message="Everyone in the conversation will see it in the pinned "
                             "list." if pin else "It will be removed from the pinned list.",
                             label="Pin" if pin else "Unpin", confirm_id="confirm_pin",
                             cancel_label="Cancel")  # fmt: skip
        if kind == "delete":
            return v.confirm("Delete message?", v.do(self.delete, mid),
                             message="This can't be undone.", label="Delete",
                             confirm_id="confirm_delete", danger=True,
                             cancel_label="Cancel")  # fmt: skip
        return None

    def _overlay(self, v: View) -> Any:
        sheet = v.ui("sheet")
        return self._sheet(v, sheet) if sheet else self._dialog(v)

    @staticmethod
    def composer(v: View, field: str, hint: str, send: Any) -> Column:
        return Column([Row([
            TextField(field, v.field(field), hint, on_focus=v.focus(field), on_submit=send),
            IconButton("send", "Send", send, id="send", color=AUBERGINE),
        ], spacing=12)], padding=20, fill=theme.SURFACE)  # fmt: skip

    @screen("channel")
    def channel_page(self, v: View) -> Page:
        cid = v.params["channel_id"]
        channel = self.channel(v, cid)
        title = self.channel_title(v, cid)
        if channel is None:
            return Page(title, [Text("This conversation is gone", padding=40)], on_back=v.back())
        body: list[Widget | None] = []
        if channel["topic"]:
            body.append(Text(channel["topic"], size=34, color=theme.TEXT_SECONDARY, id="topic"))
        pins = [m for m in self.top_level(v.data, cid) if m["pinned"]]
        if pins:
            body.append(
                Text(f"{len(pins)} pinned (see details)", size=34, color=AUBERGINE, id="pins")
            )
        day = None
        for msg in self.top_level(v.data, cid):
            if msg["day"] != day:
                day = msg["day"]
                body.append(Text(day_label(v.os["clock"], day), size=34, bold=True,
                                 color=theme.TEXT_SECONDARY, id=f"day_{day}"))  # fmt: skip
            body.append(self.message_card(v, msg))
        details = IconButton("settings", "Conversation details",
                             v.go("details", channel_id=cid), id="details")  # fmt: skip
        return Page(title, body, bottom=self.composer(v, "composer", f"Message {title}",
                                                      v.do(self.post, cid)),
                    on_back=v.back(), actions=[details], body_padding=24, spacing=16,
                    overlay=self._overlay(v))  # fmt: skip

    @screen("details")
    def details(self, v: View) -> Page:
        cid = v.params["channel_id"]
        channel = self.channel(v, cid)
        if channel is None:
            return Page("Details", [Text("This conversation is gone", padding=40)],
                        on_back=v.back())  # fmt: skip
        pins = [m for m in self.top_level(v.data, cid) if m["pinned"]]
        body: list[Widget | None] = [
            Text(self.channel_title(v, cid), size=50, bold=True, id="details_title"),
            Text(channel["topic"], size=36, color=theme.TEXT_SECONDARY, id="details_topic")
            if channel["topic"] else None,
            Button("View profile", v.go("profile", member_id=channel["name"]), id="profile",
                   style="secondary") if channel["kind"] == "dm" else None,
            Toggle("Mute conversation", cid in v.data["muted"], v.do(self.toggle_mute, cid),
                   id="mute", subtitle="No badges or notifications"),
            Text(f"Pinned messages ({len(pins)})", size=40, bold=True, padding=12),
        ]  # fmt: skip
        for msg in pins:
            author = self.member(v, msg["author"])["name"]
            body.append(ListItem(msg["text"], subtitle=f"{author} · {msg['hm']}",
                                 on_tap=v.go("thread", msg_id=msg["id"]),
                                 id=f"pinned_item_{msg['id']}"))  # fmt: skip
        if not pins:
            body.append(Text("Nothing pinned yet", color=theme.TEXT_SECONDARY, padding=20))
        return Page("Details", body, on_back=v.back(), body_padding=30, spacing=16)

    @screen("thread")
    def thread(self, v: View) -> Page:
        msg = self.message(v.data, v.params["msg_id"])
        if msg is None:
            return Page("Thread", [Text("This message was deleted", padding=40)], on_back=v.back())
        body: list[Widget | None] = [
            Text(self.channel_title(v, msg["channel"]), size=34, color=theme.TEXT_SECONDARY,
                 id="thread_channel"),
            self.message_card(v, msg, in_thread=True),
        ]  # fmt: skip
        replies = self.replies(v.data, msg["id"])
        body.append(Text(f"{len(replies)} replies" if replies else "No replies yet", size=34,
                         bold=True, id="reply_count"))  # fmt: skip
        body += [self.message_card(v, r, in_thread=True) for r in replies]
        return Page("Thread", body, bottom=self.composer(v, "reply", "Reply…",
                                                         v.do(self.reply, msg["id"])),
                    on_back=v.back(), body_padding=24, spacing=16,
                    overlay=self._overlay(v))  # fmt: skip

    @screen("edit")
    def edit(self, v: View) -> Page:
        mid = v.params["msg_id"]
        return Page("Edit message", [
            TextField("edit", v.field("edit"), "Message", on_focus=v.focus("edit"),
                      multiline=True),
            Button("Save changes", v.do(self.save_edit, mid), id="save_edit"),
        ], on_back=v.back(), body_padding=30, spacing=20)  # fmt: skip

    @screen("status")
    def status(self, v: View) -> Page:
        chosen = v.ui("clear_after", "")
        error = v.ui("status_error")
        return Page("Set a status", [
            TextField("status_text", v.field("status_text"), "What's your status?",
                      on_focus=v.focus("status_text")),
            Text("Clear after", size=38, bold=True),
            Wrap([Chip(label, v.set_ui("clear_after", key), selected=chosen == key,
                       id=f"clear_{key}") for key, label in CLEAR_AFTER]),
            Text(error, color=theme.DANGER, id="status_error") if error else None,
            Button("Save", v.do(self.save_status), id="save_status"),
        ], on_back=v.back(), body_padding=30, spacing=20)  # fmt: skip

    # -- people -----------------------------------------------------------------------------------
    @screen("members")
    def members(self, v: View) -> Page:
        rows = [
            ListItem(m["name"] + (" (you)" if m["id"] == ME else ""), subtitle=m["title"],
                     leading=m["name"][:1], leading_color=AUBERGINE,
                     on_tap=v.go("profile", member_id=m["id"]), id=f"member_{m['id']}")
            for m in sorted(v.content["members"], key=lambda m: m["name"])
        ]  # fmt: skip
        return Page("Members", rows, on_back=v.back())

    @screen("profile")
    def profile(self, v: View) -> Page:
        m = self.member(v, v.params["member_id"])
        dm = f"dm-{m['id']}"
        phone = f"{m['phone'][:3]} {m['phone'][3:7]} {m['phone'][7:]}"
        return Page(m["name"], [
            Text(m["name"], size=56, bold=True, id="profile_name"),
            Text(m["title"], size=40, id="profile_title"),
            Text(f"Local time: {member_time(v.os['clock'], m['tz'])} "
                 f"({utc_label(m['tz'])}, {m['city']})", size=38, id="profile_time"),
            Text(f"Email: {m['email']}", size=38, id="profile_email"),
            Text(f"Phone: {phone}", size=38, id="profile_phone"),
            Button("Message", v.do(self.open_channel, dm), id="message_member")
            if m["id"] != ME else None,
        ], on_back=v.back(), body_padding=30, spacing=20)  # fmt: skip
