"""Cross-app templates of 演出票 that buy nothing: an order's entry code texted, its order
number sent on WeChat, a booked session put on the Calendar, a show shared to a WeChat friend,
a Messages → 演出票 → Calendar chain, and "refund it if still allowed, else text the code"."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, one_new_event, open_calendar
from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER, open_private_chat
from phonebuddy.phoneworld.apps.showtix.base import SHOWTIX
from phonebuddy.phoneworld.apps.showtix.common import (
    date_zh,
    episode_day,
    open_show,
    seeded_orders,
    session_day,
    show_by_id,
    show_params,
    shows,
    want_problems,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import check_written, digit_code
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    friend_with_chat,
    sent_to_friend,
    share_sheet_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

MESSAGES = "com.pw.messages"
CALENDAR = "com.pw.calendar"


def order_params(world: World, rng: random.Random) -> Params:
    order = pick(rng, seeded_orders(world))
    show = show_by_id(world, order["show"])
    session = next(s for s in show["sessions"] if s["id"] == order["session"])
    return {**show_params(show), "order_id": order["id"], "code": order["code"],
            "order_no": order["order_no"], "day": session["day"],
            "time": session["time"]}  # fmt: skip


def open_order(ui: OracleUI, order_id: str) -> Iterator[Action]:
    yield ui.open("演出票")
    yield ui.tap("tab_me")
    yield ui.tap("my_orders")
    yield ui.tap(f"order_{order_id}")


def two_hours_later(time: str) -> str:
    hour, minute = (int(x) for x in time.split(":"))
    return f"{hour + 2:02d}:{minute:02d}"


def event_for(diff: StateDiff, params: Params) -> dict[str, Any]:
    return {"title": params["title"], "date": session_day(diff, params["day"]).isoformat(),
            "start": params["time"], "end": two_hours_later(params["time"])}  # fmt: skip


class CodeToSms(TaskTemplate):
    """演出票 → Messages: an order's entry code texted to a contact."""

    id = "showtix.code_to_sms"
    category = Category.CROSS_APP
    apps = (SHOWTIX, MESSAGES)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, address_book(world))
        return {**order_params(world, rng), "to": person["name"], "to_phone": person["phone"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, to = params["title"], params["to"]
        return phrased(
            zh=[f"把《{t}》订单的入场码用短信发给{to}",
                f"{to}要帮我取票，短信告诉他《{t}》的入场码",
                f"给{to}发条短信，内容是我买的《{t}》门票的入场码"],
            en=[f"Text {to} the entry code of my '{t}' order",
                f"{to} is collecting my tickets: send them the entry code for '{t}' by SMS",
                f"Send {to} an SMS with the entry code of the '{t}' tickets I bought"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return check_written(text, digit_code(params["code"]), what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_order(ui, params["order_id"])
        yield from text_code(ui, params)


def text_code(ui: OracleUI, params: Params) -> Iterator[Action]:
    """On an order's page: read the entry code, text it to `params["to"]`."""
    yield from ui.scroll_to("entry_code")
    code = ui.text_of("entry_code")
    yield ui.open("信息")
    yield ui.tap("compose")
    yield from ui.type_into("to", params["to"])
    yield from ui.type_into("body", f"《{params['title']}》入场码：{code}")
    yield ui.tap("send")


class OrderNoToWechat(TaskTemplate):
    """演出票 → WeChat: an order number copied and pasted into a friend's chat."""

    id = "showtix.order_no_wechat"
    category = Category.CROSS_APP
    apps = (SHOWTIX, MESSENGER)
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**order_params(world, rng), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, f = params["title"], params["friend"]
        return phrased(
            zh=[f"用微信把《{t}》订单的订单号发给{f}",
                f"{f}要核对票务，把我《{t}》那笔订单的订单号微信发给他",
                f"在演出票里找到《{t}》订单的订单号，通过微信发给{f}"],
            en=[f"Send {f} the order number of my '{t}' order on WeChat",
                f"{f} needs to check the booking: send them the order number of my '{t}' order on "
                "WeChat",
                f"Find the order number of the '{t}' order in ShowTix and send it to {f} via "
                "WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        texts, problems = sent_to_friend(diff, params)
        if not texts:
            return problems
        return problems + check_written("\n".join(texts), digit_code(params["order_no"]),
                                        what="the chat")  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_order(ui, params["order_id"])
        number = ui.text_of("order_no").split("：", 1)[1]
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from ui.type_into("input", f"订单号 {number}")
        yield ui.tap("send")


class CalendarForOrder(TaskTemplate):
    """演出票 → Calendar: the session of a bought order as a two-hour event."""

    id = "showtix.order_to_calendar"
    category = Category.CROSS_APP
    apps = (SHOWTIX, CALENDAR)
    difficulty = 15

    def sample(self, world: World, rng: random.Random) -> Params:
        return order_params(world, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"把我买的《{t}》那场演出加到日历：标题“{t}”，从开演时间开始，持续2小时",
                f"在日历新建日程“{t}”，日期和开始时间按我《{t}》订单上的场次，时长2小时",
                f"查一下《{t}》订单是哪天几点开演，在日历里建个2小时的日程，标题写“{t}”"],
            en=[f"Put the '{t}' session I bought on my calendar: title '{t}', starting when the "
                "show starts, lasting 2 hours",
                f"Create a calendar event '{t}' on the date and at the start time of my '{t}' "
                "order's session, 2 hours long",
                f"Check when my '{t}' order's show starts and add a 2-hour calendar event titled "
                f"'{t}' then"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return one_new_event(diff, event_for(diff, params))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_order(ui, params["order_id"])
        when = ui.text_of("order_time")  # '3月20日 周五 19:30'
        month, rest = when.split("月", 1)
        day, time = int(rest.split("日", 1)[0]), when.rsplit(" ", 1)[1]
        year = int(ui.device.device_time()[:4])
        start_month = int(ui.device.device_time()[5:7])
        year += int(month) < start_month
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {"title": params["title"],
                                   "date": f"{year}-{int(month):02d}-{day:02d}",
                                   "start": time, "end": two_hours_later(time)})  # fmt: skip


class ShareToWechat(TaskTemplate):
    """演出票 → the share sheet → WeChat: a show sent to a friend."""

    id = "showtix.share_wechat"
    category = Category.CROSS_APP
    apps = (SHOWTIX, MESSENGER)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**show_params(pick(rng, shows(world))), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, f = params["title"], params["friend"]
        return phrased(
            zh=[f"把演出票里的《{t}》分享给微信好友{f}",
                f"用演出票的分享功能把《{t}》发到微信给{f}",
                f"{f}在找周末活动，把《{t}》从演出票分享到微信发给他"],
            en=[f"Share '{t}' from ShowTix with {f} on WeChat",
                f"Use ShowTix's share button to send '{t}' to {f} over WeChat",
                f"{f} is looking for something to do: share '{t}' from ShowTix to them on WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        texts, problems = sent_to_friend(diff, params)
        if texts and not any(contains_text(t, params["title"]) for t in texts):
            problems.append(f"sent {texts}, not the show {params['title']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        yield from ui.scroll_to("share")
        yield ui.tap("share")
        yield from share_sheet_to_friend(ui, params["friend_id"])


def invite_sms(title: str, day: str, time: str) -> str:
    return f"{day}{time}那场《{title}》一起去看吧？我已经买好票了，你记得空出时间！"


class SmsCalendarChain(TaskTemplate):
    """Messages → 演出票 → Calendar: the show a friend invites me to marked 想看, and the
    session the SMS names (its date and time) put on the calendar."""

    id = "showtix.sms_calendar_chain"
    category = Category.CROSS_APP
    apps = (MESSAGES, SHOWTIX, CALENDAR)
    difficulty = 17

    def sample(self, world: World, rng: random.Random) -> Params:
        wanted = set(world.content(SHOWTIX)["want"])
        show = pick(rng, [s for s in shows(world) if s["id"] not in wanted])
        session = pick(rng, show["sessions"])
        friend = pick(rng, address_book(world))
        return {**show_params(show), "day": session["day"], "time": session["time"],
                "sender": friend["name"], "phone": friend["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        day = date_zh(episode_day(it.clock, params["day"]))
        sms = invite_sms(params["title"], day, params["time"])
        add_incoming(it, (params["phone"], params["sender"]), sms, ago=1500, key="show")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, t = params["sender"], params["title"]
        return phrased(
            zh=[f"{s}短信约我去看《{t}》：在演出票里把它加入想看，再按短信里的日期和时间在日历建日程“{t}”，时长2小时",
                f"看一下{s}的短信，把《{t}》标为想看，然后在日历上按他说的那场加一个2小时的日程，标题“{t}”",
                f"{s}发短信约了《{t}》那场：先在演出票点想看，再在日历新建“{t}”，从短信里的开演时间起2小时"],
            en=[f"{s} texted me an invitation to '{t}': mark it want-to-see in ShowTix, then add "
                f"a 2-hour calendar event '{t}' at the date and time the SMS gives",
                f"Read {s}'s SMS, mark '{t}' as want-to-see, then put a 2-hour event titled '{t}' "
                "on the calendar for the session they mention",
                f"{s} invited me to '{t}' by SMS: tap want-to-see in ShowTix, then create the "
                f"calendar event '{t}' starting at the time in the SMS, lasting 2 hours"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        event = event_for(diff, params)
        return want_problems(diff, [params["show_id"]]) + one_new_event(diff, event)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["sender"])
        sms = next((t for n in ui.find_all() for t in [n.text] if t and "那场《" in t), None)
        if sms is None:
            raise OracleError("the invitation is not in the thread")
        month, rest = sms.split("月", 1)
        day = int(rest.split("日", 1)[0])
        yield from open_show(ui, params["title"], params["show_id"])
        yield ui.tap("want")
        year, start_month = int(ui.device.device_time()[:4]), int(ui.device.device_time()[5:7])
        year += int(month) < start_month
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {"title": params["title"],
                                   "date": f"{year}-{int(month):02d}-{day:02d}",
                                   "start": params["time"],
                                   "end": two_hours_later(params["time"])})  # fmt: skip


class RefundOrCode(TaskTemplate):
    """Conditional: an order still more than 48 hours away is refunded; one too close to the
    show can no longer be, so its entry code is texted to a contact who goes instead."""

    id = "showtix.refund_or_code"
    category = Category.CROSS_APP
    apps = (SHOWTIX, MESSAGES)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, address_book(world))
        params = order_params(world, rng)
        order = seeded_orders(world)[0 if params["order_id"] == "o-1" else 1]
        return {**params, "total": order["total"], "refundable": order["id"] == "o-1",
                "to": person["name"], "to_phone": person["phone"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, to = params["title"], params["to"]
        return phrased(
            zh=[f"我去不了《{t}》了：如果订单还能退票就退掉，不能退的话把入场码短信发给{to}，让他去看",
                f"《{t}》的票能退就帮我退了；要是已经过了退票时间，就短信把入场码告诉{to}",
                f"看看《{t}》订单能不能退票：能退就退，不能退就把入场码发短信给{to}"],
            en=[f"I can't go to '{t}': if the order can still be refunded, refund it; if not, "
                f"text the entry code to {to} so they can go instead",
                f"Refund my '{t}' tickets if that is still allowed; if the refund window has "
                f"passed, send {to} the entry code by SMS",
                f"Check whether my '{t}' order can be refunded: refund it if so, otherwise text "
                f"its entry code to {to}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["refundable"]:
            path = f"apps/{SHOWTIX}/orders[{params['order_id']}]"
            refund = params["total"] * 80 // 100
            return expect_changes(diff, path, {f"{path}/status": "已退款",
                                               f"{path}/refund": refund})  # fmt: skip
        return CodeToSms().verify(diff, params, answer)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_order(ui, params["order_id"])
        yield from ui.scroll_to("refund_rule")
        if "不支持" not in ui.text_of("refund_rule"):
            yield from ui.scroll_to("refund")
            yield ui.tap("refund")
            yield ui.tap("confirm_refund")
            return
        yield from text_code(ui, params)
