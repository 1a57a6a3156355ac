"""Cloud Drive's cross-app templates about people and notes: access asked for by mail, a
contact's email from Contacts, files named in a note starred or moved, a calendar event's
attendees given access; `CROSS_TEMPLATES` lists every cross-app template."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.calendar.tasks import date_en, date_zh, open_event
from phonebuddy.phoneworld.apps.drive.base import DRIVE
from phonebuddy.phoneworld.apps.drive.common import (
    CALENDAR,
    CONTACTS,
    MAIL,
    NOTES,
    add_people,
    changed,
    file_params,
    find_file,
    folders,
    my_files,
    search_again,
    shared_with,
)
from phonebuddy.phoneworld.apps.drive.content import PEOPLE, ROLES
from phonebuddy.phoneworld.apps.drive.cross_links import LINK_TEMPLATES
from phonebuddy.phoneworld.apps.mail.steps import PEOPLE as MAIL_PEOPLE
from phonebuddy.phoneworld.apps.mail.steps import add_mail, open_mail
from phonebuddy.phoneworld.apps.messages.tasks import address_book
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

ROLE_ZH = {
    "Viewer": "查看者（Viewer）",
    "Commenter": "评论者（Commenter）",
    "Editor": "编辑者（Editor）",
}


def add_note(it: Interaction, title: str, body: str) -> None:
    it.app_data(NOTES)["notes"].insert(
        0, {"id": "note-task-drive", "title": title, "body": body, "pinned": False}
    )


def open_note(ui: OracleUI, title: str) -> Iterator[Action]:
    yield ui.open("备忘录")
    yield from ui.scroll_to(text=title)
    yield ui.tap(text=title)


class ShareFromMail(TaskTemplate):
    """Mail → Drive: a colleague's mail asks for access to a file with a given role."""

    id = "drive.share_from_mail"
    category = Category.CROSS_APP
    apps = (MAIL, DRIVE)
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        file = pick(rng, my_files(world))
        sender, address = pick(rng, MAIL_PEOPLE)
        return {**file_params(world, file), "sender": sender, "address": address,
                "role": rng.choice(ROLES)}  # fmt: skip

    @staticmethod
    def body(params: Params) -> str:
        return (f"你好！能把Cloud Drive里的“{params['name']}”共享给我吗？给我"
                f"{ROLE_ZH[params['role']]}权限就行，发到这个邮箱。谢谢！")  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_mail(it, "drive-access", (params["sender"], params["address"]), "文件访问权限申请",
                 self.body(params))  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender = params["sender"]
        return phrased(
            zh=[f"{sender}发邮件要一个文件的访问权限，按邮件里说的在Cloud Drive里共享给他",
                f"看看{sender}的邮件，照他要的权限把文件共享到他的邮箱",
                f"{sender}邮件里申请了Cloud Drive文件的权限，帮我给他开通"],
            en=[f"{sender} emailed asking for access to a file: share it with them in Cloud Drive "
                "as the mail asks",
                f"Read {sender}'s email and share the file with their address, with the role they "
                "ask for",
                f"{sender} requested access to a Cloud Drive file by mail: grant it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return shared_with(diff, params["file_id"], {params["address"]: params["role"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", "文件访问权限申请")
        address = ui.text_of("sender_address")
        yield from find_file(ui, params["file_id"], params["name"])
        yield from add_people(ui, [(address, params["role"])])


class ShareWithContact(TaskTemplate):
    """Contacts → Drive: a contact's email looked up and given access."""

    id = "drive.share_with_contact"
    category = Category.CROSS_APP
    apps = (CONTACTS, DRIVE)
    difficulty = 15

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, [p for p in address_book(world) if p["email"]])
        file = pick(rng, my_files(world))
        return {**file_params(world, file), "person": person["name"],
                "email": person["email"].lower(), "role": rng.choice(ROLES[1:])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        person, name, role = params["person"], params["name"], params["role"]
        return phrased(
            zh=[f"把Cloud Drive里的“{name}”共享给联系人{person}（用通讯录里的邮箱），权限{role}",
                f"在联系人里查到{person}的邮箱，然后把“{name}”以{role}身份共享给他",
                f"用{person}在联系人中的邮箱，给他“{name}”的{role}权限"],
            en=[f"Share '{name}' in Cloud Drive with my contact {person} (use the email in "
                f"Contacts) as {role}",
                f"Look up {person}'s email in Contacts, then share '{name}' with them as {role}",
                f"Give {person} {role} access to '{name}', using their email from Contacts"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return shared_with(diff, params["file_id"], {params["email"]: params["role"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("联系人")
        yield from ui.scroll_to(text=params["person"])
        yield ui.tap(text=params["person"])
        email = ui.text_of("email")
        yield from find_file(ui, params["file_id"], params["name"])
        yield from add_people(ui, [(email, params["role"])])


class StarFromNote(TaskTemplate):
    """Notes → Drive: the two files a note lists to review, starred."""

    id = "drive.star_from_note"
    category = Category.CROSS_APP
    apps = (NOTES, DRIVE)
    difficulty = 14
    title = "Files to review"

    def sample(self, world: World, rng: random.Random) -> Params:
        files = pick(rng, my_files(world, starred=False), 2)
        return {"ids": [f["id"] for f in files], "names": [f["name"] for f in files]}

    def setup(self, it: Interaction, params: Params) -> None:
        a, b = params["names"]
        add_note(it, self.title, f"本周要看的云盘文件：\n1. {a}\n2. {b}\n看完记得反馈。")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = self.title
        return phrased(
            zh=[f"备忘录“{title}”里列了两个文件，去Cloud Drive把它们都加星标",
                f"把备忘录“{title}”中提到的文件在Cloud Drive里标星",
                f"看一下备忘录“{title}”，给里面的文件加星标"],
            en=[f"My note '{title}' lists two files: star both of them in Cloud Drive",
                f"Star in Cloud Drive the files named in the note '{title}'",
                f"Check the note '{title}' and star the files it mentions"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return [p for file_id in params["ids"] for p in changed(diff, file_id, starred=True)]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_note(ui, self.title)
        for i, (file_id, name) in enumerate(zip(params["ids"], params["names"], strict=True)):
            if i:
                yield from search_again(ui, file_id, name)
            else:
                yield from find_file(ui, file_id, name)
            yield ui.tap("starred")


class MoveFromNote(TaskTemplate):
    """Notes → Drive: a note says which file goes to which folder."""

    id = "drive.move_from_note"
    category = Category.CROSS_APP
    apps = (NOTES, DRIVE)
    difficulty = 10
    title = "Drive cleanup"

    def sample(self, world: World, rng: random.Random) -> Params:
        file = pick(rng, my_files(world))
        folder = pick(rng, [f for f in folders(world) if f["id"] != file["parent"]])
        return {**file_params(world, file), "to_id": folder["id"], "to": folder["name"]}

    def setup(self, it: Interaction, params: Params) -> None:
        add_note(it, self.title, f"云盘整理：把“{params['name']}”移到“{params['to']}”文件夹。")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = self.title
        return phrased(
            zh=[f"按备忘录“{title}”里写的，在Cloud Drive里把文件移到对应文件夹",
                f"备忘录“{title}”说要移动一个云盘文件，帮我照做",
                f"看看备忘录“{title}”，把里面说的文件移过去"],
            en=[f"Do what my note '{title}' says: move the file to its folder in Cloud Drive",
                f"The note '{title}' says to move a Cloud Drive file: please do it",
                f"Check the note '{title}' and move the file it names where it says"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return changed(diff, params["file_id"], parent=params["to_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_note(ui, self.title)
        yield from find_file(ui, params["file_id"], params["name"])
        yield from ui.scroll_to("move")
        yield ui.tap("move")
        yield from ui.scroll_to(f"dest_{params['to_id']}")
        yield ui.tap(f"dest_{params['to_id']}")


class ShareEventAttendees(TaskTemplate):
    """Calendar → Drive (long): the file an event will go through, shared with its three
    attendees as Commenters."""

    id = "drive.share_event_attendees"
    category = Category.CROSS_APP
    apps = (CALENDAR, DRIVE)
    difficulty = 22
    event = "Design review"

    def sample(self, world: World, rng: random.Random) -> Params:
        file = pick(rng, my_files(world))
        have = {s["id"] for s in file["shares"]}
        people = pick(rng, [e for _, e in PEOPLE if e not in have], 3)
        day = dt.date(2026, 3, 16) + dt.timedelta(days=rng.randrange(2, 12))
        return {**file_params(world, file), "attendees": people, "date": day.isoformat()}

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(CALENDAR)["events"].append(
            {"id": "evt-task-drive", "title": self.event, "date": params["date"], "start": "15:00",
             "end": "16:00", "location": "Room 3B", "reminder": 15,
             "notes": f"Attendees: {', '.join(params['attendees'])}. We will go through "
                      f"'{params['name']}'."}
        )  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        day_zh, day_en, event = date_zh(params["date"]), date_en(params["date"]), self.event
        return phrased(
            zh=[f"{day_zh}的日程“{event}”要讨论一个云盘文件，把它以Commenter权限共享给所有参会人",
                f"看看日历里{day_zh}的“{event}”，把备注里提到的文件共享给每位参会者（Commenter）",
                f"把{day_zh}“{event}”要过的那个文件在Cloud Drive里分享给参会的人，权限Commenter"],
            en=[f"My {day_en} calendar event '{event}' will go through a Cloud Drive file: share "
                "it with every attendee as Commenter",
                f"Check the '{event}' event on {day_en} and share the file in its notes with each "
                "attendee as Commenter",
                f"Share the file for the '{event}' event on {day_en} with its attendees, as "
                "Commenters, in Cloud Drive"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return shared_with(diff, params["file_id"], dict.fromkeys(params["attendees"], "Commenter"))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_event(ui, params["date"], self.event)
        notes = ui.texts_in("event_notes")[-1]
        emails = notes.split("Attendees: ")[1].split(". ")[0].split(", ")
        yield from find_file(ui, params["file_id"], params["name"])
        yield from add_people(ui, [(e, "Commenter") for e in emails])


CROSS_TEMPLATES: tuple[TaskTemplate, ...] = (
    ShareFromMail(),
    ShareWithContact(),
    StarFromNote(),
    MoveFromNote(),
    ShareEventAttendees(),
    *LINK_TEMPLATES,
)
