"""Everyday errands between the phone's own apps, part three: the English a WeChat friend
asks for, last night's takeaway split on the calculator, a missed call sorted (texted back or
saved), a stranger's number asked about on WeChat, and a shipped parcel tracked and reported."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from phonebuddy.phoneworld.apps.calculator.app import CALCULATOR, KEY_IDS, format_number
from phonebuddy.phoneworld.apps.contacts.app import CONTACTS
from phonebuddy.phoneworld.apps.food.base import FOOD_PACKAGE, new_order, order_item, order_total
from phonebuddy.phoneworld.apps.food.tasks import check_coupons, open_food
from phonebuddy.phoneworld.apps.messages.app import TAOBAO
from phonebuddy.phoneworld.apps.messages.tasks import (
    MESSAGES,
    add_incoming,
    check_one_sms,
    open_thread,
    sent_messages,
    write_in_conversation,
)
from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER, friend_says, open_private_chat
from phonebuddy.phoneworld.apps.parcels.app import ON_DEVICE, PARCELS, STATUSES, WAITING
from phonebuddy.phoneworld.apps.phone.app import PHONE, unknown_mobile
from phonebuddy.phoneworld.apps.phone.tasks import add_call, open_latest_missed_details
from phonebuddy.phoneworld.apps.translator.app import TRANSLATOR
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    Expectation,
    Money,
    Text,
    dashed_code,
    phone_number,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.everyday import (
    ChatWrites,
    said_in_chat,
    send_in_chat,
    sms_person,
)
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    copy_text,
    friend_with_chat,
    paste_into,
    sent_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

SMS_TEXT = f"apps/{MESSAGES}/threads[*]/messages[*]/text"
HISTORY = f"apps/{CALCULATOR}/history"
PARCEL_LIST = f"apps/{PARCELS}/parcels"
CONTACTS_LIST = f"apps/{CONTACTS}/contacts"
NEW_NAMES = ("快递小哥", "维修师傅", "中介小王", "物业李姐", "搬家师傅", "驾校教练")
CALL_BACK = ("刚才在开会，稍后回电", "在开车，晚点联系你", "刚才没接到，等下打给你")


# Calculator's, Translator's and Parcels' task modules reach into this package, so their steps
# are written here rather than imported (no import cycle).
def calculate(ui: OracleUI, expr: str) -> Iterator[Action]:
    """Type `expr` on the calculator's keypad and press =."""
    yield ui.open("计算器")
    for key in f"{expr}=":
        yield ui.tap(KEY_IDS[key])


def translate_to_english(ui: OracleUI, text: str) -> Iterator[Action]:
    """On Translator's 翻译 tab, from Chinese: type `text` and translate it."""
    yield ui.open("翻译")
    if not ui.visible("translate"):
        yield ui.tap("tab_translate")
    if ui.text_of("source_lang") != "中文":
        yield ui.tap("switch")
    yield from ui.type_into("input", text)
    yield ui.tap("translate")


# -- Translator --------------------------------------------------------------------------------
class EnglishForFriend(TaskTemplate):
    """WeChat → Translator → WeChat: a friend asks how to say a sentence in English; the
    translation is copied with the copy button and pasted into the chat."""

    id = "cross_app.everyday_english_for_friend"
    category = Category.CROSS_APP
    apps = (MESSENGER, TRANSLATOR)
    difficulty = 20

    def sample(self, world: World, rng: random.Random) -> Params:
        phrasebook = world.content(TRANSLATOR)["phrases"]
        sentence = pick(rng, [p for p in phrasebook if p["category"] != "单词"])
        return {**friend_with_chat(world, rng), "zh": sentence["zh"], "en": sentence["en"]}

    def setup(self, it: Interaction, params: Params) -> None:
        lines = ["下周出国，临时抱佛脚学几句英语", f"“{params['zh']}”用英语怎么说？"]
        friend_says(it, params["friend_id"], lines, key="everyday")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        friend = params["friend"]
        return phrased(
            zh=[f"{friend}在微信上问一句中文用英语怎么说，用翻译查出英文，再在微信里回复给他",
                f"帮{friend}把他微信里问的那句话翻译成英文（用翻译App），把英文发回给他",
                f"回复{friend}的微信：他想知道一句话的英文说法，去翻译里查好后发给他"],
            en=[f"{friend} asked on WeChat how to say a Chinese sentence in English: look it up "
                "in Translator and reply with the English",
                f"Translate the sentence {friend} asked about on WeChat into English with "
                "Translator and send them the English",
                f"Answer {friend} on WeChat: they want the English for a sentence, so get it from "
                "Translator and send it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        said, problems = sent_to_friend(diff, params)
        if said and not contains_text("\n".join(said), params["en"]):
            problems.append(f"{params['friend']} was sent {said}, not {params['en']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        asked = re.search(r"“(.+?)”用英语怎么说", said_in_chat(ui, "用英语怎么说"))
        if asked is None:
            raise OracleError("the chat asks for no sentence")
        yield from translate_to_english(ui, asked[1])
        yield ui.tap("copy")
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from paste_into(ui, "input")
        yield ui.tap("send")


# -- Food and Calculator -----------------------------------------------------------------------
def takeaway(world: World, rng: random.Random) -> tuple[Any, list[dict[str, Any]], int, int]:
    """A shop, dishes, the order's total in cents and a head count that splits it to the cent."""
    shops = world.content(FOOD_PACKAGE)["restaurants"]
    while True:
        shop = pick(rng, [s for s in shops if s["opens"] < s["closes"]])
        items = [order_item(d, [0] * len(d["options"]), rng.randint(1, 3))
                 for d in pick(rng, list(shop["dishes"]), 3)]  # fmt: skip
        total = order_total(shop, sum(i["unit_cents"] * i["quantity"] for i in items), None)
        # An exact share with jiao or fen in it: rounding to whole yuan is then wrong.
        heads = [n for n in range(3, 7) if total % n == 0 and total // n % 100]
        if heads:
            return shop, items, total, rng.choice(heads)


class TakeawaySplit(WritesValue):
    """Food → Calculator → Messages: last night's takeaway, split evenly; each share texted."""

    id = "cross_app.everyday_takeaway_split"
    category = Category.CROSS_APP
    apps = (FOOD_PACKAGE, CALCULATOR, MESSAGES)
    difficulty = 18
    ignorable = (HISTORY,)  # the calculator is the way, not an effect
    written = SMS_TEXT

    def sample(self, world: World, rng: random.Random) -> Params:
        shop, items, total, people = takeaway(world, rng)
        return {"restaurant_id": shop["id"], "restaurant": shop["name"], "items": items,
                "total_cents": total, "people": people, **sms_person(world, rng),
                "share": format_number(Decimal(total) / 100 / people)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        food = it.app_data(FOOD_PACKAGE)
        shop = it.for_app(FOOD_PACKAGE).content["by_id"][params["restaurant_id"]]
        placed = it.clock - 14 * 3600  # 19:00 yesterday
        order = new_order("order-task-dinner", shop, params["items"], food["addresses"][0],
                          placed, None)  # fmt: skip
        food["orders"].append(order | {"status": "paid", "paid_at": placed + 30, "tableware": 2})

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, people, name = params["restaurant"], params["people"], params["name"]
        return phrased(
            zh=[f"昨晚在外卖上从“{shop}”点的那单，{people} 个人 AA。查出实付金额，用计算器算出"
                f"每人多少钱，短信告诉{name}",
                f"帮我算算昨晚“{shop}”那单外卖 {people} 人平摊每人该付多少（金额看外卖订单，"
                f"用计算器算），然后发短信给{name}",
                f"短信告诉{name}每人要转我多少钱：昨晚从“{shop}”点的外卖，按实付金额 {people} "
                "人平分，用计算器算"],
            en=[f"Last night's Food order from '{shop}' is split evenly among {people} people. "
                f"Find what was paid, work out each share on the calculator and text it to {name}",
                f"Work out how much each of {people} people owes for last night's takeaway from "
                f"'{shop}' (the paid amount is in Food; use the calculator), then SMS {name}",
                f"Text {name} each person's share of last night's '{shop}' takeaway: the amount "
                f"paid in Food, split {people} ways on the calculator"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(float(params["share"]))

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_coupons(diff, []) + check_one_sms(diff, params["phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_food(ui)
        yield ui.tap("tab_orders")
        yield from ui.scroll_to("order_order-task-dinner")
        paid = next((t for t in texts(ui.node("order_order-task-dinner")) if "¥" in t), "")
        total = re.search(r"¥([\d.]+)", paid)
        if total is None:
            raise OracleError("the order shows no amount")
        yield from calculate(ui, f"{total[1]}÷{params['people']}")
        share = ui.text_of("result").removeprefix("= ")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["name"])
        yield from ui.type_into("body", f"昨晚外卖每人 {share} 元")
        yield ui.tap("send")


# -- Phone -------------------------------------------------------------------------------------
class MissedCallSort(TaskTemplate):
    """Phone → Messages or Contacts, conditional: a missed call from a contact is answered by
    SMS; one from a stranger is saved as a new contact."""

    id = "cross_app.everyday_missed_call_sort"
    category = Category.CROSS_APP
    apps = (PHONE, MESSAGES, CONTACTS)
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        known = rng.random() < 0.5
        person = sms_person(world, rng, "caller")
        number = person["phone"] if known else unknown_mobile(rng)
        return {"known": known, "number": number, "older": sms_person(world, rng)["phone"],
                "new_name": rng.choice(NEW_NAMES), "text": rng.choice(CALL_BACK)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_call(it, "older", params["older"], "missed", ago=3 * 3600)
        add_call(it, "latest", params["number"], "missed", ago=12 * 60)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, text = params["new_name"], params["text"]
        return phrased(
            zh=[f"看看最近一个未接来电：如果是通讯录里的人，就给他发短信“{text}”；如果是陌生号码，"
                f"就把号码存为新联系人“{name}”",
                f"最新的未接来电要是熟人打的，短信回“{text}”；要是陌生号码，存成联系人“{name}”",
                f"处理一下最近那个没接的电话：通讯录里有这个人就短信“{text}”，没有就新建联系人"
                f"“{name}”保存这个号码"],
            en=[f"Check the latest missed call: if it is from someone in my contacts, text them "
                f"'{text}'; if it is an unknown number, save it as a new contact '{name}'",
                f"If my most recent missed call came from a contact, reply by SMS '{text}'; if "
                f"the number is unknown, add it to Contacts as '{name}'",
                f"Deal with the newest missed call: a known contact gets the SMS '{text}', a "
                f"stranger's number is saved as the contact '{name}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added, sent = diff.added(CONTACTS_LIST), sent_messages(diff)
        if params["known"]:
            problems = [f"a known caller, yet {len(added)} contacts were added"] if added else []
            return problems + check_one_sms(diff, params["number"], params["text"])
        problems = [f"a stranger called, yet {len(sent)} SMS were sent"] if sent else []
        if len(added) != 1:
            return [*problems, f"expected one new contact, found {len(added)}"]
        contact = added[0]
        if (contact["name"], contact["phone"]) != (params["new_name"], params["number"]):
            problems.append(f"saved {contact['name']} {contact['phone']}, expected "
                            f"{params['new_name']} {params['number']}")  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_latest_missed_details(ui)
        if ui.visible("detail_add_contact"):
            yield ui.tap("detail_add_contact")
            yield from ui.type_into("name", params["new_name"])
            yield ui.tap("save")
            return
        yield ui.tap("detail_message")
        yield from write_in_conversation(ui, params["text"])


class StrangerNumberToChat(ChatWrites):
    """Phone → WeChat: a stranger's number from the latest missed call, asked about."""

    id = "cross_app.everyday_stranger_number_chat"
    category = Category.CROSS_APP
    apps = (PHONE, MESSENGER)
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**friend_with_chat(world, rng), "number": unknown_mobile(rng),
                "older": sms_person(world, rng)["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_call(it, "older", params["older"], "missed", ago=4 * 3600)
        add_call(it, "stranger", params["number"], "missed", ago=20 * 60)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        friend = params["friend"]
        return phrased(
            zh=[f"最近一个未接来电是陌生号码，把这个号码用微信发给{friend}，问问他认不认识",
                f"在微信上问问{friend}认不认识最近那个未接来电的号码，把号码发给他",
                f"把最新那个没接到的陌生来电号码微信发给{friend}，问他是不是认识"],
            en=[f"My latest missed call is from an unknown number: send that number to {friend} "
                "on WeChat and ask whether they know it",
                f"Ask {friend} on WeChat if they know the number of my most recent missed call, "
                "sending them the number",
                f"Send {friend} on WeChat the stranger's number from my newest missed call and "
                "ask if they recognise it"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return phone_number(params["number"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.chat_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_latest_missed_details(ui)
        number = ui.text_of("detail_number")
        yield from send_in_chat(ui, params, f"{number} 这个号码你认识吗？")


# -- Parcels -----------------------------------------------------------------------------------
class ParcelReport(ChatWrites):
    """Messages → Parcels → WeChat, conditional: a shipped parcel is added from its SMS, and a
    friend is sent its pick-up code when it waits at a station, else its status."""

    id = "cross_app.everyday_parcel_report"
    category = Category.CROSS_APP
    apps = (MESSAGES, PARCELS, MESSENGER)
    difficulty = 21

    def sample(self, world: World, rng: random.Random) -> Params:
        waiting = rng.random() < 0.5
        records = list(world.content(PARCELS)["records"])[ON_DEVICE:]  # not on a new phone
        parcel = pick(rng, [r for r in records if (r["status"] == WAITING) == waiting])
        return {**friend_with_chat(world, rng), "number": parcel["number"],
                "courier": parcel["courier"], "shop": parcel["shop"], "item": parcel["item"],
                "status": parcel["status"], "code": parcel["code"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, TAOBAO, f"【淘宝】您在{params['shop']}购买的{params['item']}已由"
                     f"{params['courier']}发出，运单号{params['number']}，可在快递App中查看物流。",
                     ago=1800, key="parcel")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, friend = params["shop"], params["friend"]
        return phrased(
            zh=[f"淘宝发短信说我在“{shop}”买的东西发货了：把短信里的运单号添加到快递App，然后微信"
                f"告诉{friend}——如果包裹已经待取件，就发取件码给他；否则告诉他包裹现在的状态",
                f"先用淘宝发货短信里的运单号在快递里添加“{shop}”那单的包裹，再微信跟{friend}说："
                "待取件就发取件码，不是待取件就说当前状态",
                f"把淘宝短信里“{shop}”那单的包裹加到快递App；包裹若是待取件，微信把取件码"
                f"发给{friend}，不然就微信告诉他现在是什么状态"],
            en=[f"Taobao texted that my order from '{shop}' has shipped: add its tracking number "
                f"to Parcels, then tell {friend} on WeChat the pickup code if it is waiting for "
                "pickup, otherwise its current status",
                f"Add the parcel of my '{shop}' order to Parcels with the tracking number in "
                f"Taobao's shipping SMS, then WeChat {friend}: the pickup code if it awaits "
                "pickup, else its status",
                f"Put the parcel from Taobao's shipping text about '{shop}' into Parcels; if it "
                f"is waiting for pickup send {friend} the pickup code on WeChat, if not tell them "
                "its status"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        if params["status"] == WAITING:
            return dashed_code(params["code"])
        return Text([params["status"]], others=STATUSES, what="parcel status")

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        parcel, problems = one_added(diff, PARCEL_LIST, "parcel")
        if parcel is not None and parcel["number"] != params["number"]:
            problems.append(f"added {parcel['number']}, expected {params['number']}")
        return problems + self.chat_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, TAOBAO[1])
        yield from copy_text(ui, "msg_task-parcel")
        yield ui.open("快递")
        yield ui.tap("add")
        yield from paste_into(ui, "number")
        yield ui.tap("query")
        yield ui.tap("add_parcel")
        status = ui.text_of("status")
        said = f"取件码 {ui.text_of('pickup_code')}" if status == WAITING else f"包裹{status}"
        yield from send_in_chat(ui, params, said)


TEMPLATES: tuple[TaskTemplate, ...] = (
    EnglishForFriend(),
    TakeawaySplit(),
    MissedCallSort(),
    StrangerNumberToChat(),
    ParcelReport(),
)
