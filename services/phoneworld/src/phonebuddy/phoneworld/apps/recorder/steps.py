"""Oracle steps and look-ups the cross-app 录音机 templates share: a meeting's facts, reading a
transcript, saving a contact, adding a calendar event, sharing a transcript."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, open_calendar
from phonebuddy.phoneworld.apps.gallery.steps import SHARE_TO
from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.apps.recorder.common import open_rec, rec_params
from phonebuddy.phoneworld.tasks.base import Params
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.protocol import Action

CONTACTS = "com.pw.contacts"
CALENDAR = "com.pw.calendar"
NOTES = "com.pw.notes"
MESSENGER = "com.pw.messenger"
MAIL = "com.pw.mail"
MESSAGES = "com.pw.messages"
ASKED_MEMOS = ("自我介绍", "生日祝福", "晚安故事", "口语练习", "会议开场白")


def meeting_params(rec: Any) -> Params:
    f = rec["facts"]
    return {**rec_params(rec), "person": f["person"], "phone": f["phone"], "event": f["event"],
            "date": f["date"], "start": f["start"], "end": f["end"]}  # fmt: skip


def read_transcript(ui: OracleUI, name: str, rec_id: str) -> Iterator[Action]:
    yield from open_rec(ui, name, rec_id)
    yield ui.tap("transcribe")


def save_contact(ui: OracleUI, name: str, phone: str) -> Iterator[Action]:
    yield ui.open("联系人")
    yield ui.tap("new_contact")
    yield from ui.type_into("name", name)
    yield from ui.type_into("phone", phone)
    yield ui.tap("save")


def add_event(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from open_calendar(ui)
    yield ui.tap("new_event")
    yield from fill_event(ui, {k: params[k] for k in ("date", "start", "end")}
                          | {"title": params["event"]})  # fmt: skip


def event_expected(params: Params) -> Params:
    return {"title": params["event"], "date": params["date"], "start": params["start"],
            "end": params["end"]}  # fmt: skip


def share_text(ui: OracleUI, target: str) -> Iterator[Action]:
    """On a recording's page: 分享 → 分享文字 → the share sheet's target app."""
    yield ui.tap("share")
    yield ui.tap("share_text")
    yield ui.tap(SHARE_TO.format(target))
    yield from ui.allow_permission()


def send_to_friend(ui: OracleUI, params: Params) -> Iterator[Action]:
    chat = f"pick_{private_chat_id(params['friend_id'])}"
    yield from ui.scroll_to(chat)
    yield ui.tap(chat)
    yield ui.tap("share_send")


def heard_contact(ui: OracleUI) -> tuple[str, str]:
    """The contact person and mobile number the shown transcript names."""
    said = ui.text_of("transcript")
    return said.split("对接人是")[1].split("，")[0], said.split("手机号")[1][:11]
