"""What Mail's templates share: paths in the state, the seeded people and mails, checking a
sent mail, and the oracle's ways through the app (open, search, compose)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE, parse_recipients
from phonebuddy.phoneworld.apps.mail.content import CONTACTS, SERVICES
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import normalize
from phonebuddy.phoneworld.tasks.base import Params
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action

NOTES_PACKAGE = "com.pw.notes"
NOTES_LIST = f"apps/{NOTES_PACKAGE}/notes"
MAILS = f"apps/{MAIL_PACKAGE}/mails"
FOLDERS = f"apps/{MAIL_PACKAGE}/folders"
SERVICE_ADDRESSES = frozenset(address for _, address in SERVICES.values())
PEOPLE = tuple((name, address) for name, address, _ in CONTACTS if name != "人力资源部")
MONTHS_EN = (
    "",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def add_mail(
    it: Interaction, key: str, sender: tuple[str, str], subject: str, body: str,
    attachments: list[str] | tuple[str, ...] = (), *, ago: int = 1800,
) -> None:  # fmt: skip
    """Setup: a mail from `sender` (name, address) received in the inbox `ago` seconds ago,
    unread, with the id `mail-task-<key>`."""
    data = it.app_data(MAIL_PACKAGE)
    mail_id = f"mail-task-{key}"
    data["mails"].append(
        {"id": mail_id, "folder": "inbox", "starred": False, "from_name": sender[0],
         "from_addr": sender[1], "to": "linxiao@qq.com", "subject": subject, "body": body,
         "time": it.clock - ago, "attachments": list(attachments), "facts": {},
         "reply_to": None, "forward_of": None}
    )  # fmt: skip
    data["read"][mail_id] = False


DATE_TIME = re.compile(r"(\d{1,2})月(\d{1,2})日.*?(\d{1,2}):(\d{2})", re.S)
MEETING_PLACE = re.compile(r"在(.+?)召开|地点：(.+?)。")


# -- verifying helpers (shared with the Gallery templates) ---------------------------------------


def check_sent_mail(
    mail: Mapping[str, Any], *, to: str, subject: str | None = None, body: str | None = None
) -> list[str]:
    problems = []
    if mail["folder"] != "sent":
        problems.append(f"the new mail is in {mail['folder']!r}, not sent")
    if parse_recipients(mail["to"]) != [to.lower()]:
        problems.append(f"sent to {mail['to']!r}, expected {to!r}")
    if subject is not None and mail["subject"].strip() != subject:
        problems.append(f"subject is {mail['subject']!r}, expected {subject!r}")
    if body is not None and normalize(body) not in normalize(mail["body"]):
        problems.append(f"body {mail['body']!r} does not contain {body!r}")
    return problems


# -- oracle helpers -----------------------------------------------------------------------------


def open_mail(ui: OracleUI, folder: str, subject: str) -> Iterator[Action]:
    yield from ui.open_app("邮件")
    yield ui.tap(f"folder_{folder}")
    yield from ui.scroll_to(text=subject)
    yield ui.tap(text=subject)


def search_mail(ui: OracleUI, keyword: str, subject: str) -> Iterator[Action]:
    yield from ui.open_app("邮件")
    yield ui.tap("search_bar")
    yield from ui.type_into("q", keyword)
    yield from ui.scroll_to(text=subject)
    yield ui.tap(text=subject)


def compose(ui: OracleUI, to: str, subject: str, body: str) -> Iterator[Action]:
    """From anywhere in Mail's home: write and send a new mail."""
    yield ui.tap("compose")
    yield from ui.type_into("to", to)
    yield from ui.type_into("subject", subject)
    yield from ui.type_into("body", body)
    yield ui.tap("send")


def new_note(ui: OracleUI, title: str, body: str) -> Iterator[Action]:
    yield ui.open("备忘录")
    yield ui.tap("new_note")
    yield from ui.type_into("title", title)
    yield from ui.type_into("body", body)
    yield ui.tap("save")


# -- sampling helpers ---------------------------------------------------------------------------


def seeded_mails(world: World) -> list[Mapping[str, Any]]:
    return list(world.content(MAIL_PACKAGE)["mails"].values())


def inbox_mails(
    world: World, accept: Callable[[Mapping[str, Any]], bool]
) -> list[Mapping[str, Any]]:
    return [m for m in seeded_mails(world) if m["folder"] == "inbox" and accept(m)]


def from_person(mail: Mapping[str, Any]) -> bool:
    return mail["from_addr"] not in SERVICE_ADDRESSES


def mail_params(mail: Mapping[str, Any]) -> Params:
    return {
        "mail_id": mail["id"],
        "subject": mail["subject"],
        "sender": mail["from_name"],
        "sender_address": mail["from_addr"],
    }


def other_person(rng: random.Random, *avoid: str) -> tuple[str, str]:
    return rng.choice([p for p in PEOPLE if p[1] not in avoid])


# -- single-app templates -----------------------------------------------------------------------
