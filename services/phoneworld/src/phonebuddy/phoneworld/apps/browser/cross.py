"""Cross-app templates of 浏览器: a link texted by a friend opened and bookmarked, a hotline
saved to Contacts, an address copied into Notes, a page shared to a WeChat friend, a ticket
sale date put on the Calendar, and a Messages → 浏览器 → Notes chain (the long
errand and the conditional are in `plans`)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.browser.base import BROWSER
from phonebuddy.phoneworld.apps.browser.common import (
    APP_LABEL,
    bookmarked,
    not_bookmarked,
    open_address,
    page_of,
    page_params,
    pages,
    read_lines,
    search_open,
    visits,
)
from phonebuddy.phoneworld.apps.browser.content import HOLIDAYS, day_label
from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, one_new_event, open_calendar
from phonebuddy.phoneworld.apps.contacts.tasks import check_new_contact
from phonebuddy.phoneworld.apps.messages.tasks import add_incoming, address_book, open_thread
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import check_written, phone_number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    copy_text,
    friend_with_chat,
    paste_into_new_note,
    sent_to_friend,
    share_sheet_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
CONTACTS = "com.pw.contacts"
CALENDAR = "com.pw.calendar"
MESSENGER = "com.pw.messenger"
ADDRESS_TITLES = ("办事地址", "地址", "要去的地方")


def write_note(ui: OracleUI, title: str, body: str) -> Iterator[Action]:
    yield ui.open("备忘录")
    yield ui.tap("new_note")
    yield from ui.type_into("title", title)
    yield from ui.type_into("body", body)
    yield ui.tap("save")


def _sms(params: Params) -> str:
    return f"{params['lead']}{params['url']}"


class _FromSms(TaskTemplate):
    """A friend's SMS holds a page's link."""

    category = Category.CROSS_APP
    lead = "这个网页你看看："

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["friend"]), _sms(params), ago=1500, key="link")

    def friend(self, world: World, rng: random.Random) -> Params:
        friend = pick(rng, address_book(world))
        return {"friend": friend["name"], "phone": friend["phone"], "lead": self.lead}

    def read_link(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["friend"])
        if ui.find(text=_sms(params)) is None:
            raise OracleError("the link is not in the thread")


class SmsBookmark(_FromSms):
    """Messages → 浏览器: the link a friend texted, opened and bookmarked."""

    id = "browser.sms_bookmark"
    apps = (MESSAGES, BROWSER)
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**page_params(pick(rng, not_bookmarked(world))), **self.friend(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f = params["friend"]
        return phrased(
            zh=[f"{f}短信发来一个网址，用浏览器打开并加入书签",
                f"把{f}发给我的那个网页链接收藏到浏览器书签",
                f"打开{f}短信里的链接，然后把这个网页加书签"],
            en=[f"{f} texted me a web address: open it in the browser and bookmark it",
                f"Bookmark in the browser the web link {f} sent me by SMS",
                f"Open the link in {f}'s text message, then add that page to my bookmarks"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return bookmarked(diff, params["url"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self.read_link(ui, params)
        yield from open_address(ui, params["url"])
        yield ui.tap("bookmark")


def gov_params(page: Any) -> Params:
    return {**page_params(page), "label": page["hotline_label"], "hotline": page["hotline"],
            "address": page["address"]}  # fmt: skip


def save_hotline(ui: OracleUI, params: Params) -> Iterator[Action]:
    """On a government page: read the hotline, then save it in Contacts under its label."""
    yield from ui.scroll_to("para_1_0")
    label, _, number = ui.text_of("para_1_0").partition("：")
    yield ui.open("联系人")
    yield ui.tap("new_contact")
    yield from ui.type_into("name", label)
    yield from ui.type_into("phone", number.replace("-", ""))
    yield ui.tap("save")


class HotlineToContacts(TaskTemplate):
    """浏览器 → Contacts: a government office's hotline saved as a contact."""

    id = "browser.hotline_contact"
    category = Category.CROSS_APP
    apps = (BROWSER, CONTACTS)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        return gov_params(pick(rng, pages(world, "gov")))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, label = params["title"], params["label"]
        return phrased(
            zh=[f"在浏览器里打开《{t}》网页，把上面的热线电话存为联系人“{label}”",
                f"查一下《{t}》的咨询热线，新建联系人“{label}”保存这个号码",
                f"把《{t}》网页上的服务热线保存到通讯录，姓名写“{label}”"],
            en=[f"Open the page '{t}' in the browser and save its hotline as a contact '{label}'",
                f"Look up the hotline of '{t}' and store it in a new contact '{label}'",
                f"Save the service hotline on the page '{t}' to my contacts under the name "
                f"'{label}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        visits(diff)
        return check_new_contact(diff, name=params["label"], phone=params["hotline"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield from search_open(ui, params["title"], params["page_id"])
        yield from save_hotline(ui, params)


def address_params(page: Any) -> Params:
    line = "para_1_1" if page["kind"] == "gov" else "para_2_0"
    return {**page_params(page), "address": page["address"], "line": line}


def address_written(diff: StateDiff, title: str, address: str) -> list[str]:
    note, problems = one_new_note(diff, title)
    if note is not None and not contains_text(note["body"], address):
        problems.append(f"the note {note['body']!r} lacks the address {address!r}")
    return problems


class AddressToNote(TaskTemplate):
    """浏览器 → Notes (clipboard): the address on a page copied into a new note."""

    id = "browser.address_note"
    category = Category.CROSS_APP
    apps = (BROWSER, NOTES)
    difficulty = 15

    def sample(self, world: World, rng: random.Random) -> Params:
        page = pick(rng, pages(world, "gov") + pages(world, "restaurant"))
        return {**address_params(page), "note": rng.choice(ADDRESS_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, note = params["title"], params["note"]
        return phrased(
            zh=[f"把网页《{t}》上的地址复制到新备忘录“{note}”里",
                f"新建备忘录“{note}”，内容是《{t}》页面上写的地址",
                f"我要去《{t}》那里，把网页上的地址存进一条标题为“{note}”的备忘录"],
            en=[f"Copy the address on the page '{t}' into a new note '{note}'",
                f"Create a note '{note}' holding the address given on the page '{t}'",
                f"I'm going to '{t}': save the address from its web page in a note titled "
                f"'{note}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        visits(diff)
        return address_written(diff, params["note"], params["address"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield from search_open(ui, params["title"], params["page_id"])
        yield from copy_text(ui, params["line"])
        yield from paste_into_new_note(ui, params["note"])


class ShareWechat(TaskTemplate):
    """浏览器 → the share sheet → WeChat: a page's link sent to a friend."""

    id = "browser.share_wechat"
    category = Category.CROSS_APP
    apps = (BROWSER, MESSENGER)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**page_params(pick(rng, pages(world))), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        url, f = params["url"], params["friend"]
        return phrased(
            zh=[f"用浏览器打开 {url}，把这个网页分享给微信好友{f}", f"把网页 {url} 通过微信发给{f}",
                f"{f}想看 {url} 这个网页，帮我分享到微信发给{f}"],
            en=[f"Open {url} in the browser and share the page with my WeChat friend {f}",
                f"Send the web page {url} to {f} through WeChat",
                f"{f} wants to see the page {url}: share it to {f} on WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        visits(diff)
        texts, problems = sent_to_friend(diff, params)
        if texts and not any(contains_text(t, params["url"]) for t in texts):
            problems.append(f"sent {texts}, not the link {params['url']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_address(ui, params["url"])
        yield ui.tap("share")
        yield from share_sheet_to_friend(ui, params["friend_id"])


class HolidayCalendar(TaskTemplate):
    """浏览器 → Calendar: the day a holiday's train tickets go on sale, as an event."""

    id = "browser.holiday_calendar"
    category = Category.CROSS_APP
    apps = (BROWSER, CALENDAR)
    difficulty = 16

    def sample(self, world: World, rng: random.Random) -> Params:
        name, _, _, sale = rng.choice(HOLIDAYS)
        page = page_of(world, "https://rail.pw/notice/holiday")
        return {**page_params(page), "holiday": name, "date": sale,
                "event": f"抢{name}火车票", "start": "08:00", "end": "08:30"}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        h, e, t = params["holiday"], params["event"], params["title"]
        return phrased(
            zh=[f"查看浏览器里的《{t}》，在{h}火车票开售那天建一个日程“{e}”，时间08:00到08:30",
                f"按《{t}》，{h}的火车票哪天开售？在日历里那天加日程“{e}”，08:00-08:30",
                f"根据《{t}》，把{h}火车票开售日记到日历：日程“{e}”，08:00至08:30"],
            en=[f"Check '{t}' in the browser and add an event '{e}' from 08:00 to 08:30 on the day "
                f"the {h} train tickets go on sale",
                f"Per '{t}', when do the train tickets for {h} go on sale? Add an event '{e}' "
                "that day, 08:00-08:30",
                f"Following '{t}', put the {h} ticket sale day on my calendar: an event '{e}', "
                "08:00 to 08:30"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        visits(diff)
        return one_new_event(diff, {"title": params["event"], "date": params["date"],
                                    "start": params["start"], "end": params["end"]})  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield from search_open(ui, params["title"], params["page_id"])
        lines: list[str] = []
        yield from read_lines(ui, 0, len(HOLIDAYS), lines)
        line = next(t for t in lines if t.startswith(params["holiday"]))
        sale = line.split("火车票")[1].removesuffix("开售。")
        month, day = sale.removesuffix("日").split("月")
        iso = f"2026-{int(month):02d}-{int(day):02d}"
        if day_label(iso) != sale:
            raise OracleError(f"cannot read the sale day {sale!r}")
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {"title": params["event"], "date": iso,
                                   "start": params["start"], "end": params["end"]})  # fmt: skip


class SmsChain(_FromSms):
    """Messages → 浏览器 → Notes: the restaurant a friend texts, its booking number noted."""

    id = "browser.sms_chain"
    apps = (MESSAGES, BROWSER, NOTES)
    difficulty = 13
    lead = "周末去这家吃吧："
    note_title = "聚餐订座"

    def sample(self, world: World, rng: random.Random) -> Params:
        page = pick(rng, pages(world, "restaurant"))
        booking = page["sections"][2]["paragraphs"][1].split("：")[1].replace("-", "")
        return {**page_params(page), **self.friend(world, rng), "booking": booking}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f, n = params["friend"], self.note_title
        return phrased(
            zh=[f"打开{f}短信里发来的餐厅链接，把餐厅的订座电话记到新备忘录“{n}”里",
                f"{f}发了个餐厅网址给我：查到订座电话后新建备忘录“{n}”写下来",
                f"帮我看看{f}短信推荐的那家餐厅的订座电话，存到标题为“{n}”的备忘录"],
            en=[f"Open the restaurant link {f} texted me and write its booking number in a new "
                f"note '{n}'",
                f"{f} sent me a restaurant's web address: find the booking number and note it in "
                f"a new note '{n}'",
                f"Look up the booking phone of the restaurant {f} recommended by SMS and save it "
                f"in a note titled '{n}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        visits(diff)
        note, problems = one_new_note(diff, self.note_title)
        if note is not None:
            problems += check_written(
                note["body"], phone_number(params["booking"]), what="the note",
                context=self.question_texts(params),
            )  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self.read_link(ui, params)
        yield from open_address(ui, params["url"])
        yield from ui.scroll_to("para_2_1")
        number = ui.text_of("para_2_1").split("：")[1]
        yield from write_note(ui, self.note_title, number)
