"""What Huddle's screens share: constants, look-ups, formatting, and every handler (the only
place the app's data changes)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label
from phonebuddy.phoneworld.apps.teamchat import content
from phonebuddy.phoneworld.apps.teamchat.content import EMOJI, ME
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.format import local_date, local_time
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

TEAMCHAT = "com.pw.teamchat"
AUBERGINE: Color = (74, 21, 75)
CLEAR_AFTER = (("30m", "30 minutes"), ("1h", "1 hour"), ("today", "Today"),
               ("week", "This week"), ("never", "Don't clear"))  # fmt: skip
REMIND = (("hour", "In 1 hour"), ("tomorrow", "Tomorrow"))
MAX_TEXT = 2000


def day_label(clock: int, day: int) -> str:
    """'Today', 'Yesterday' or 'Friday, March 13' for a message `day` days before today."""
    if day == 0:
        return "Today"
    if day == 1:
        return "Yesterday"
    date = local_date(clock) - dt.timedelta(days=day)
    return date.strftime("%A, %B ") + str(date.day)


def member_time(clock: int, tz: int) -> str:
    """A member's local time now, '21:05'."""
    moment = local_time(clock) + dt.timedelta(hours=tz - 8)
    return f"{moment.hour:02d}:{moment.minute:02d}"


def utc_label(tz: int) -> str:
    return "UTC" if tz == 0 else f"UTC{tz:+d}"


class TeamchatBase(App):
    package = TEAMCHAT
    label = Label(zh="Huddle", en="Huddle")
    domain = "workplace"
    theme = AppTheme(primary=AUBERGINE)
    icon_text = "H"
    ignorable = ("unread", "mentions")

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "messages": [clone(m) for m in content["messages"]],
            "unread": dict(content["unread"]),
            "mentions": dict(content["mentions"]),
            "muted": [],
            "saved": [],
            "reminders": [],
            "status": {"text": "", "clear_after": ""},
        }

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def member(v: Any, member_id: str) -> dict[str, Any]:
        return next(m for m in v.content["members"] if m["id"] == member_id)

    @staticmethod
    def channel(v: Any, channel_id: str) -> dict[str, Any] | None:
        """A channel or DM; a DM with any member exists once opened."""
        found = next((c for c in v.content["channels"] if c["id"] == channel_id), None)
        other = channel_id.removeprefix("dm-")
        if found is None and other != ME and any(m["id"] == other for m in v.content["members"]):
            return {"id": channel_id, "name": other, "topic": "", "kind": "dm"}
        return found

    def channel_title(self, v: Any, channel_id: str) -> str:
        channel = self.channel(v, channel_id)
        if channel is None:
            return channel_id
        if channel["kind"] == "dm":
            return str(self.member(v, channel["name"])["name"])
        return f"#{channel['name']}"

    @staticmethod
    def message(data: dict[str, Any], msg_id: str) -> dict[str, Any] | None:
        return next((m for m in data["messages"] if m["id"] == msg_id), None)

    @staticmethod
    def top_level(data: dict[str, Any], channel_id: str) -> list[dict[str, Any]]:
        shown = [m for m in data["messages"] if m["channel"] == channel_id and not m["parent"]]
        return sorted(shown, key=lambda m: (-m["day"], m["hm"]))

    @staticmethod
    def replies(data: dict[str, Any], msg_id: str) -> list[dict[str, Any]]:
        found = [m for m in data["messages"] if m["parent"] == msg_id]
        return sorted(found, key=lambda m: (-m["day"], m["hm"]))

    def _existing(self, it: Interaction, msg_id: str) -> dict[str, Any]:
        msg = self.message(it.data, msg_id)
        if msg is None:
            it.toast("This message was deleted")
            it.no_op(f"no message {msg_id}")
        return msg

    def _own(self, it: Interaction, msg_id: str) -> dict[str, Any]:
        msg = self._existing(it, msg_id)
        if msg["author"] != ME:
            it.toast("You can only change your own messages")
            it.no_op(f"{msg_id} is not yours")
        return msg

    # -- handlers -------------------------------------------------------------------------------
    def _new_message(self, it: Interaction, channel_id: str, text: str, parent: str | None) -> None:
        text = text.strip()
        if not text:
            it.toast("Write a message first")
            it.no_op("empty message")
        if len(text) > MAX_TEXT:
            it.toast("Message is too long")
            it.no_op("message too long")
        now = local_time(it.clock)
        it.data["messages"].append({
            "id": it.new_id("msg"), "channel": channel_id, "author": ME, "day": 0,
            "hm": f"{now.hour:02d}:{now.minute:02d}", "text": text, "parent": parent,
            "reactions": {}, "pinned": False, "edited": False,
        })  # fmt: skip

    def post(self, it: Interaction, channel_id: str) -> None:
        self._new_message(it, channel_id, it.field("composer"), None)
        it.set_field("composer", "")
        it.scroll_to_end()

    def reply(self, it: Interaction, parent_id: str) -> None:
        parent = self._existing(it, parent_id)
        self._new_message(it, parent["channel"], it.field("reply"), parent_id)
        it.set_field("reply", "")

    def react(self, it: Interaction, msg_id: str, emoji: str) -> None:
        msg = self._existing(it, msg_id)
        if emoji not in EMOJI:
            it.no_op(f"unknown emoji {emoji!r}")
        who = msg["reactions"].setdefault(emoji, [])
        if ME in who:
            who.remove(ME)
            if not who:
                del msg["reactions"][emoji]
        else:
            who.append(ME)
        it.set_ui("sheet", None)

    def set_pin(self, it: Interaction, msg_id: str, pinned: bool) -> None:
        msg = self._existing(it, msg_id)
        it.set_ui("dialog", None)
        if msg["pinned"] == pinned:
            it.no_op("the pin did not change")
        msg["pinned"] = pinned
        it.toast("Pinned to this conversation" if pinned else "Unpinned")

    def save_edit(self, it: Interaction, msg_id: str) -> None:
        msg = self._own(it, msg_id)
        text = it.field("edit").strip()
        if not text:
            it.toast("A message can't be empty")
            it.no_op("empty edit")
        if text == msg["text"]:
            it.no_op("the text did not change")
        msg.update(text=text, edited=True)
        it.unfocus()
        it.pop()
        it.toast("Message edited")

    def delete(self, it: Interaction, msg_id: str) -> None:
        self._own(it, msg_id)
        gone = {msg_id, *(r["id"] for r in self.replies(it.data, msg_id))}
        it.data["messages"] = [m for m in it.data["messages"] if m["id"] not in gone]
        it.data["saved"] = [s for s in it.data["saved"] if s["id"] not in gone]
        it.set_ui("dialog", None)
        it.toast("Message deleted")

    def toggle_saved(self, it: Interaction, msg_id: str) -> None:
        self._existing(it, msg_id)
        saved = it.data["saved"]
        if any(s["id"] == msg_id for s in saved):
            it.data["saved"] = [s for s in saved if s["id"] != msg_id]
            it.toast("Removed from saved items")
        else:
            saved.insert(0, {"id": msg_id, "time": it.clock})
            it.toast("Saved for later")
        it.set_ui("sheet", None)

    def remind(self, it: Interaction, msg_id: str, when: str) -> None:
        self._existing(it, msg_id)
        if when not in dict(REMIND):
            it.no_op(f"unknown reminder {when!r}")
        if any(r["message"] == msg_id for r in it.data["reminders"]):
            it.toast("You already have a reminder for this message")
            it.no_op("already reminded")
        if when == "hour":
            due = it.clock + 3600
        else:
            now = local_time(it.clock)
            tomorrow = (now + dt.timedelta(days=1)).replace(hour=9, minute=0, second=0)
            due = int(tomorrow.timestamp())
        it.data["reminders"].append({"id": it.new_id("rem"), "message": msg_id, "due": due,
                                     "when": when})  # fmt: skip
        it.set_ui("sheet", None)
        it.toast(f"I'll remind you {dict(REMIND)[when].lower()}")

    def cancel_reminder(self, it: Interaction, reminder_id: str) -> None:
        kept = [r for r in it.data["reminders"] if r["id"] != reminder_id]
        if len(kept) == len(it.data["reminders"]):
            it.no_op(f"no reminder {reminder_id}")
        it.data["reminders"] = kept
        it.toast("Reminder cancelled")

    def save_status(self, it: Interaction) -> None:
        text = it.field("status_text").strip()
        clear = it.ui("clear_after", "")
        if not text:
            it.set_ui("status_error", "Type a status first")
            it.no_op("empty status")
        if len(text) > 100:
            it.set_ui("status_error", "Keep it under 100 characters")
            it.no_op("status too long")
        if clear not in dict(CLEAR_AFTER):
            it.set_ui("status_error", "Choose when to clear it")
            it.no_op("no clear-after")
        it.data["status"] = {"text": text, "clear_after": clear}
        it.pop()
        it.toast("Status updated")

    def clear_status(self, it: Interaction) -> None:
        if not it.data["status"]["text"]:
            it.no_op("no status to clear")
        it.data["status"] = {"text": "", "clear_after": ""}
        it.toast("Status cleared")

    def toggle_mute(self, it: Interaction, channel_id: str) -> None:
        muted = it.data["muted"]
        if channel_id in muted:
            muted.remove(channel_id)
            it.toast("Channel unmuted")
        else:
            muted.append(channel_id)
            it.toast("Channel muted")

    @staticmethod
    def open_sheet(it: Interaction, msg_id: str) -> None:
        """A message's actions; the keyboard hides so that the sheet shows whole."""
        it.unfocus()
        it.set_ui("sheet", msg_id)

    @staticmethod
    def leave_sheet(
        it: Interaction, screen: str, *, fields: dict[str, str] | None = None, **params: Any
    ) -> None:
        """From the actions sheet to another screen; the sheet closes behind."""
        it.set_ui("sheet", None)
        it.push(screen, fields=fields, **params)

    @staticmethod
    def ask(it: Interaction, dialog: str) -> None:
        """From the actions sheet to a confirmation ('pin:<id>', 'delete:<id>')."""
        it.set_ui("sheet", None)
        it.set_ui("dialog", dialog)

    def open_channel(self, it: Interaction, channel_id: str) -> None:
        if self.channel(it, channel_id) is None:
            it.no_op(f"no channel {channel_id}")
        it.data["unread"][channel_id] = 0
        it.data["mentions"].pop(channel_id, None)
        it.push("channel", channel_id=channel_id)
        it.scroll_to_end()  # a conversation opens at its newest message
