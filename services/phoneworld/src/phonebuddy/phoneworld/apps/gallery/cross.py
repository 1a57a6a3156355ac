"""Cross-app templates of the Gallery: a photo shared to Notes, the place a photo was taken
written into a new note, and a photo mailed to a contact from the share sheet."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.gallery.base import GALLERY_PACKAGE
from phonebuddy.phoneworld.apps.gallery.steps import (
    SHARE_TO,
    has_clear_place,
    open_photo,
    photo_params,
    place_shown,
    seeded_photos,
    taken_at,
)
from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE
from phonebuddy.phoneworld.apps.mail.steps import MAILS as MAIL_LIST
from phonebuddy.phoneworld.apps.mail.steps import (
    NOTES_LIST,
    NOTES_PACKAGE,
    PEOPLE,
    check_sent_mail,
    new_note,
)
from phonebuddy.phoneworld.tasks.answers import Expectation, normalize
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


class ShareToNotes(TaskTemplate):
    id = "gallery.share_to_notes"
    category = Category.CROSS_APP
    apps = (GALLERY_PACKAGE, NOTES_PACKAGE)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return photo_params(rng.choice(seeded_photos(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption = params["caption"]
        return phrased(
            zh=[f"把照片“{caption}”分享到备忘录并保存", f"用分享把照片“{caption}”存到备忘录里",
                f"帮我把“{caption}”这张照片分享给备忘录，保存下来"],
            en=[f"Share the photo '{caption}' to Notes and save it there",
                f"Use Share to save the photo '{caption}' in Notes",
                f"Please share the photo '{caption}' with Notes and save it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_added(diff, NOTES_LIST, "note")
        if note is not None and normalize(params["caption"]) not in normalize(note["body"]):
            problems.append(f"the note {note['body']!r} does not hold {params['caption']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("share")
        yield ui.tap(SHARE_TO.format("notes"))
        yield ui.tap("save")


class PlaceToNote(WritesValue):
    id = "gallery.place_to_note"
    category = Category.CROSS_APP
    apps = (GALLERY_PACKAGE, NOTES_PACKAGE)
    difficulty = 15
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        photo = rng.choice(seeded_photos(world, lambda p: has_clear_place(world, p)))
        return {
            **photo_params(photo),
            "place": photo["place"],
            "title": f"{photo['caption']}拍摄地",
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption, title = params["caption"], params["title"]
        return phrased(
            zh=[f"查一下照片“{caption}”是在哪里拍的，新建一条备忘录记下这个地点，标题写“{title}”",
                f"新建一条标题为“{title}”的备忘录，写上照片“{caption}”的拍摄地点",
                f"照片“{caption}”是在哪儿拍的？把地点记到备忘录里，标题写“{title}”"],
            en=[f"Find out where the photo '{caption}' was taken and write the place in a new note "
                f"titled '{title}'",
                f"Create a note titled '{title}' that says where the photo '{caption}' was taken",
                f"Where was the photo '{caption}' taken? Put the place in a new note titled "
                f"'{title}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return taken_at(params["place"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("details")
        place = place_shown(ui)
        yield ui.back()
        yield from new_note(ui, params["title"], place)


class MailPhoto(TaskTemplate):
    id = "gallery.mail_photo"
    category = Category.CROSS_APP
    apps = (GALLERY_PACKAGE, MAIL_PACKAGE)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        photo = rng.choice(seeded_photos(world, lambda p: p["album"] != "screenshots"))
        name, address = rng.choice(PEOPLE)
        return {
            **photo_params(photo),
            "name": name,
            "to": address,
            "subject": f"照片：{photo['caption']}",
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption, name, to = params["caption"], params["name"], params["to"]
        subject = params["subject"]
        return phrased(
            zh=[f"把照片“{caption}”用邮件发给{name}（{to}），主题写“{subject}”",
                f"给{name}（{to}）发封邮件，附上照片“{caption}”，主题“{subject}”",
                f"帮我通过邮件把“{caption}”这张照片发到 {to}（{name}），主题填“{subject}”"],
            en=[f"Email the photo '{caption}' to {name} ({to}) with the subject '{subject}'",
                f"Send {name} ({to}) a mail with the photo '{caption}' attached and the subject "
                f"'{subject}'",
                f"Please mail the photo '{caption}' to {to} ({name}), subject '{subject}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mail, problems = one_added(diff, MAIL_LIST, "mail")
        if mail is None:
            return problems
        problems = check_sent_mail(mail, to=params["to"], subject=params["subject"])
        if mail["attachments"] != [f"{params['caption']}.jpg"]:
            problems.append(f"attachments are {mail['attachments']}, not the photo")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("share")
        yield ui.tap(SHARE_TO.format("mail"))
        yield from ui.allow_permission()
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("subject", params["subject"])
        yield ui.tap("send")


TEMPLATES: tuple[TaskTemplate, ...] = (
    ShareToNotes(),
    PlaceToNote(),
    MailPhoto(),
)
