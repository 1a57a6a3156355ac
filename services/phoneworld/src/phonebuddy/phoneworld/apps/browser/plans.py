"""Longer cross-app templates of 浏览器: an office's hotline saved to Contacts and its address
copied into Notes (a long errand), a page's link copied into a mail, and "open on Monday:
bookmark it, otherwise note it"."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.browser.base import BROWSER
from phonebuddy.phoneworld.apps.browser.common import (
    APP_LABEL,
    bookmarked,
    not_bookmarked,
    page_params,
    pages,
    search_open,
    visits,
)
from phonebuddy.phoneworld.apps.browser.cross import (
    CONTACTS,
    NOTES,
    address_written,
    gov_params,
    save_hotline,
    write_note,
)
from phonebuddy.phoneworld.apps.browser.questions import read_hours, restaurant_params
from phonebuddy.phoneworld.apps.contacts.tasks import check_new_contact
from phonebuddy.phoneworld.apps.mail.steps import MAILS, PEOPLE, check_sent_mail
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    copy_text,
    paste_into,
    paste_into_new_note,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

CLOSED_NOTE = "周一不营业"
MAIL = "com.pw.mail"
MAIL_SUBJECTS = ("网页分享", "给你看篇文章", "推荐一个网页")


class GovChain(TaskTemplate):
    """Long: 浏览器 → Contacts → 浏览器 → Notes: an office's hotline saved as a contact and
    its address copied into a note."""

    id = "browser.gov_chain"
    category = Category.CROSS_APP
    apps = (BROWSER, CONTACTS, NOTES)
    difficulty = 23
    note_title = "办事地址"

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**gov_params(pick(rng, pages(world, "gov"))), "line": "para_1_1"}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, label, n = params["title"], params["label"], self.note_title
        return phrased(
            zh=[f"打开网页《{t}》：把热线存为联系人“{label}”，再把办公地址复制到新备忘录“{n}”",
                f"明天要去《{t}》办事：热线电话存到通讯录（名字“{label}”），地址记到备忘录“{n}”里",
                f"帮我把《{t}》网页上的热线保存成联系人“{label}”，并新建备忘录“{n}”放上它的办公地址"],
            en=[f"Open the page '{t}': save its hotline as a contact '{label}', then copy the "
                f"office address into a new note '{n}'",
                f"I'm going to '{t}' tomorrow: put the hotline in my contacts (name '{label}') and "
                f"the address in a note '{n}'",
                f"Save the hotline on the page '{t}' as the contact '{label}' and create a note "
                f"'{n}' with its office address"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        visits(diff)
        problems = check_new_contact(diff, name=params["label"], phone=params["hotline"])
        return problems + address_written(diff, self.note_title, params["address"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield from search_open(ui, params["title"], params["page_id"])
        yield from save_hotline(ui, params)
        yield ui.open(APP_LABEL)
        yield from copy_text(ui, params["line"])
        yield from paste_into_new_note(ui, self.note_title)


class MondayOrNote(TaskTemplate):
    """Conditional: a restaurant open on Mondays is bookmarked, one closed then is noted."""

    id = "browser.monday_plan"
    category = Category.CROSS_APP
    apps = (BROWSER, NOTES)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        # a page already bookmarked would be un-bookmarked by the oracle's tap
        unmarked = {page["url"] for page in not_bookmarked(world)}
        places = [restaurant_params(p) for p in pages(world, "restaurant") if p["url"] in unmarked]
        want = rng.random() < 0.5
        pool = [p for p in places if p["monday"] == want] or places
        return pick(rng, pool)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, n = params["title"], CLOSED_NOTE
        return phrased(
            zh=[f"看看“{name}”周一营不营业：营业就把它的网页加书签，不营业就新建备忘录“{n}”写上餐厅名",
                f"如果“{name}”周一开门，收藏它的网页；否则建一条备忘录“{n}”，内容写餐厅名",
                f"“{name}”周一要是营业，给它的页面加书签，要是休息，就新建备忘录“{n}”记下店名"],
            en=[f"Check whether '{name}' opens on Mondays: if so bookmark its page, if not "
                f"create a note '{n}' with the restaurant's name",
                f"If '{name}' is open on Monday, bookmark its web page; otherwise make a note "
                f"'{n}' naming the restaurant",
                f"Should '{name}' be open on Mondays, bookmark its page; if it is closed then, "
                f"write its name in a new note '{n}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["monday"]:
            return bookmarked(diff, params["url"])
        visits(diff)
        note, problems = one_new_note(diff, CLOSED_NOTE)
        if note is not None and not contains_text(note["body"], params["title"]):
            problems.append(f"the note {note['body']!r} does not name {params['title']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield from search_open(ui, params["title"], params["page_id"])
        lines: list[str] = []
        yield from read_hours(ui, lines)
        if lines[0].endswith("休息"):
            yield from write_note(ui, CLOSED_NOTE, params["title"])
        else:
            yield ui.tap("bookmark")


class LinkToMail(TaskTemplate):
    """浏览器 → Mail (clipboard): a page's link copied and mailed to a colleague."""

    id = "browser.link_mail"
    category = Category.CROSS_APP
    apps = (BROWSER, MAIL)
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        page = pick(rng, pages(world, "news") + pages(world, "guide"))
        name, address = rng.choice(PEOPLE)
        return {**page_params(page), "name": name, "to": address,
                "subject": rng.choice(MAIL_SUBJECTS)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, name, to, sub = params["title"], params["name"], params["to"], params["subject"]
        return phrased(
            zh=[f"复制网页《{t}》的链接，发邮件给{name}（{to}），主题“{sub}”，正文是这个链接",
                f"把《{t}》这篇网页的网址用邮件发给{name}，地址 {to}，主题写“{sub}”",
                f"给{name}（{to}）写封邮件，主题“{sub}”，正文贴上网页《{t}》的链接"],
            en=[f"Copy the link of the page '{t}' and mail it to {name} ({to}) with the subject "
                f"'{sub}'",
                f"Email the address of the page '{t}' to {name} at {to}, subject '{sub}'",
                f"Write {name} ({to}) a mail with the subject '{sub}' whose text is the link of "
                f"the page '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        visits(diff)
        mail, problems = one_added(diff, MAILS, "mail")
        if mail is None:
            return problems
        return check_sent_mail(mail, to=params["to"], subject=params["subject"],
                               body=params["url"])  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield from search_open(ui, params["title"], params["page_id"])
        yield ui.tap("menu")
        yield from ui.scroll_to("menu_copy", scroll="menu_sheet_scroll")
        yield ui.tap("menu_copy")
        yield from ui.open_app("邮件")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("subject", params["subject"])
        yield from paste_into(ui, "body")
        yield ui.tap("send")
