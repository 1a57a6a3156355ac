"""The cross-app templates of 点评: a shop's address texted to a contact, a booking put on the
calendar, a friend's SMS naming the dinner to book, and that chain ending in a note."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, one_new_event, open_calendar
from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.reviews.content import PAID, REVIEWS
from phonebuddy.phoneworld.apps.reviews.steps import (
    book_here,
    booked,
    open_shop,
    shop_params,
    shops,
    tap_shop,
    visit,
    visit_date,
    when_en,
    when_zh,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    paste_into,
    paste_into_new_note,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import WALLET, wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
CALENDAR = "com.pw.calendar"
VOUCHERS = f"apps/{REVIEWS}/vouchers"
NOTE_TITLES = ("聚餐地址", "周末聚餐", "订座信息")


class AddressToSms(TaskTemplate):
    """Reviews → Messages: a shop's address copied and texted to a contact."""

    id = "reviews.address_to_sms"
    category = Category.CROSS_APP
    apps = (REVIEWS, MESSAGES)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        shop = pick(rng, shops(world))
        person = pick(rng, address_book(world))
        return {**shop_params(shop), "address": shop["address"], "to": person["name"],
                "to_phone": person["phone"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, to = params["shop"], params["to"]
        return phrased(
            zh=[f"把“{shop}”的地址复制下来，用短信发给{to}",
                f"{to}要去“{shop}”，把点评上这家店的地址短信发给他",
                f"在点评查“{shop}”的地址，发短信告诉{to}"],
            en=[f"Copy the address of '{shop}' and text it to {to}",
                f"{to} is heading to '{shop}': send them its address from Reviews by SMS",
                f"Look up the address of '{shop}' in Reviews and text it to {to}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        if not contains_text(text, params["address"]):
            return [f"the SMS {text!r} does not hold the address {params['address']!r}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui, params["shop"], params["category"])
        yield from ui.scroll_to("copy_address")
        yield ui.tap("copy_address")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from paste_into(ui, "body")
        yield ui.tap("send")


def _end_time(time: str) -> str:
    hour, minute = time.split(":")
    return f"{int(hour) + 2:02d}:{minute}"


class BookThenCalendar(TaskTemplate):
    """Reviews → Calendar: book a table, then put the dinner on the calendar."""

    id = "reviews.book_to_calendar"
    category = Category.CROSS_APP
    apps = (REVIEWS, CALENDAR)
    difficulty = 23

    def sample(self, world: World, rng: random.Random) -> Params:
        shop = pick(rng, [s for s in shops(world) if s["category"] in ("美食", "火锅")])
        return {**shop_params(shop), **visit(rng, shop, ("17:30", "18:00", "18:30", "19:00"))}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, n, zh, en = params["shop"], params["people"], when_zh(params), when_en(params)
        end = _end_time(params["time"])
        return phrased(
            zh=[f"在点评订“{shop}”{zh}的位子（{n}人），再在日历加个日程，标题就是店名，"
                f"{params['time']}到{end}",
                f"帮我订“{shop}”，{zh}，{n}位；订好后在日历里建一个以店名为标题的日程，"
                f"从{params['time']}到{end}",
                f"{zh}，{n}个人去“{shop}”吃饭：先在点评订座，再把它记到日历（标题用店名，"
                f"{params['time']}-{end}）"],
            en=[f"Book '{shop}' for {n} people {en} in Reviews, then add a calendar event titled "
                f"with the shop's name from {params['time']} to {end}",
                f"Reserve a table for {n} at '{shop}' {en}; afterwards create a calendar event "
                f"named after the shop, {params['time']} to {end}",
                f"Dinner for {n} at '{shop}' {en}: book it in Reviews and put it on the "
                f"calendar (title: the shop's name, {params['time']}-{end})"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        event = {"title": params["shop"], "date": visit_date(diff, params["day"]),
                 "start": params["time"], "end": _end_time(params["time"])}  # fmt: skip
        return booked(diff, params) + one_new_event(diff, event)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui, params["shop"], params["category"])
        yield from book_here(ui, params["day"], params["time"], params["people"])
        today = dt.date.fromisoformat(ui.device.device_time()[:10])
        iso = (today + dt.timedelta(days=params["day"])).isoformat()
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {"title": params["shop"], "date": iso, "start": params["time"],
                                   "end": _end_time(params["time"])})  # fmt: skip


def _invite(params: Params) -> str:
    day = {1: "明天", 2: "后天"}[params["day"]]
    return (f"{day}晚上{params['time']}去“{params['shop']}”吃饭吧，我们一共{params['people']}"
            "个人，你帮忙在点评上订个座~")  # fmt: skip


class BookFromSms(TaskTemplate):
    """Messages → Reviews: a friend's SMS names the restaurant, the time and the party."""

    id = "reviews.book_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, REVIEWS)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        shop = pick(rng, [s for s in shops(world) if s["category"] in ("美食", "火锅")])
        person = pick(rng, address_book(world))
        return {**shop_params(shop), **visit(rng, shop), "friend": person["name"],
                "friend_phone": person["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["friend_phone"], params["friend"]), _invite(params), ago=900,
                     key="invite")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f = params["friend"]
        return phrased(
            zh=[f"{f}发短信约我吃饭，按短信里说的店、时间和人数在点评订座",
                f"看下{f}的短信，帮我把他说的那顿饭在点评上订好",
                f"{f}让我订座，详情在短信里，照着去点评订"],
            en=[f"{f} texted me about dinner: book the place, time and party size from that SMS "
                "in Reviews",
                f"Read {f}'s text and book the dinner they describe in Reviews",
                f"{f} asked me to reserve a table; the details are in their SMS, book it in "
                "Reviews"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return booked(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["friend"])
        if ui.find(text=_invite(params)) is None:
            raise OracleError("the invitation is not in the thread")
        yield from open_shop(ui, params["shop"], params["category"])
        yield from book_here(ui, params["day"], params["time"], params["people"])


class SmsBookNote(BookFromSms):
    """Messages → Reviews → Notes: book what the SMS says, then keep the address in a note."""

    id = "reviews.sms_book_note"
    apps = (MESSAGES, REVIEWS, NOTES)
    difficulty = 26

    def sample(self, world: World, rng: random.Random) -> Params:
        params = super().sample(world, rng)
        shop = next(s for s in shops(world) if s["id"] == params["shop_id"])
        return {**params, "address": shop["address"], "title": rng.choice(NOTE_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f, t = params["friend"], params["title"]
        return phrased(
            zh=[f"按{f}短信里说的在点评订座，再把那家店的地址复制到新备忘录，标题“{t}”",
                f"看{f}的短信，帮忙订好座，然后新建备忘录“{t}”，内容粘贴店的地址",
                f"{f}约饭的短信里有店名和时间：去点评订座，并把店铺地址存到备忘录“{t}”"],
            en=[f"Book the dinner {f}'s SMS describes in Reviews, then copy the shop's address "
                f"into a new note titled '{t}'",
                f"Read {f}'s text, reserve the table, and create a note '{t}' holding the "
                "shop's address",
                f"{f}'s SMS names a restaurant and a time: book it in Reviews and save its "
                f"address in a note called '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = booked(diff, params)
        note, note_problems = one_new_note(diff, params["title"])
        problems += note_problems
        if note is not None and not contains_text(note["body"], params["address"]):
            problems.append(f"the note {note['body']!r} lacks the address {params['address']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from super().solve(ui, params)
        yield ui.back()  # the booking's page -> 我的订座
        yield ui.tap("tab_discover")
        yield from tap_shop(ui, params["shop"])
        yield from ui.scroll_to("copy_address")
        yield ui.tap("copy_address")
        yield from paste_into_new_note(ui, params["title"])


class BuyVoucher(TaskTemplate):
    """Reviews → Wallet: a group-buy voucher paid through the wallet's payment confirmation."""

    id = "reviews.buy_voucher"
    category = Category.CROSS_APP
    apps = (REVIEWS, WALLET)
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        options = [(s, d) for s in shops(world) for d in s["deals"] if d["price_cents"] <= 40000]
        shop, deal = pick(rng, options)
        return {**shop_params(shop), "deal_id": deal["id"], "deal": deal["title"],
                "price_cents": deal["price_cents"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, deal = params["shop"], params["deal"]
        return phrased(
            zh=[f"在点评买一张“{shop}”的“{deal}”团购券，用钱包付款",
                f"帮我抢购“{shop}”的团购“{deal}”，钱包支付",
                f"去点评把“{shop}”那个“{deal}”团购买下来并付款"],
            en=[f"Buy the '{deal}' group-buy voucher of '{shop}' in Reviews and pay with the "
                "wallet",
                f"Grab the '{deal}' deal at '{shop}' and pay for it with the wallet",
                f"In Reviews, purchase the '{deal}' voucher from '{shop}' and complete the "
                "payment"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        voucher, problems = one_added(diff, VOUCHERS, "voucher")
        if voucher is None:
            return problems + wallet_payment_problems(diff, amount_cents=params["price_cents"])
        if voucher["deal_id"] != params["deal_id"]:
            problems.append(f"bought {voucher['deal_id']}, expected {params['deal_id']}")
        if voucher["status"] != PAID:
            problems.append(f"the voucher is {voucher['status']}, not paid")
        return problems + wallet_payment_problems(
            diff, amount_cents=params["price_cents"], reference=voucher["id"],
            merchant=params["shop"])  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui, params["shop"], params["category"])
        button = f"buy_{params['deal_id']}"
        yield from ui.scroll_to(button)
        yield ui.tap(button)
        yield ui.tap(f"{WALLET}:id/pay_confirm")
