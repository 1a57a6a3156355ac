"""Task templates of 快递寄件 (category mini_program): send a parcel to a saved recipient and
pay, a recipient carried in from a note or from an SMS plus the Contacts entry, the waybill
number texted to the recipient, the cheapest courier for a weight and province, a conditional
choice of courier by price, and cancelling the waiting shipment."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.shipping_rules import (
    COURIERS,
    ITEMS,
    PROVINCES,
    STREETS,
    freight,
    insure_fee,
    rate_for,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.task_steps import (
    PAYING,
    WALLET,
    mini_content,
)
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    NOTES,
    PAY_CONFIRM,
    MessengerTemplate,
    mini,
    open_mini,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Token
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import mobile_number
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

SMS = "com.pw.messages"
CONTACTS = "com.pw.contacts"
ORDERS = mini("shipping", "orders")
RECIPIENTS = mini("shipping", "recipients")
NEW_NAMES = ("林晓雯", "贺子轩", "宋佳怡", "严浩然", "邵雨桐", "丁一鸣", "许嘉禾", "覃思远")
WAYBILL = re.compile(r"(?<![a-z\d])[a-z]{2}\s?\d{12}(?!\d)")


def shipping_content(world: World) -> Any:
    return mini_content(world, "shipping")


def waybill_token(number: str) -> Token:
    """A waybill number like 'SF000012345678'."""
    return Token(number, pattern=WAYBILL, canonical=lambda t: re.sub(r"\s", "", t).upper(),
                 what="waybill number")  # fmt: skip


def _parcel(world: World, rng: random.Random, recipient: Any) -> Params:
    """What is sent, how, and when, to `recipient` (name, phone, province, address)."""
    tenths = rng.choice((5, 10, 15, 20, 25, 30, 35, 42, 50, 68, 80, 120))
    courier = rng.choice(sorted(COURIERS))
    slot = rng.choice([s for s in shipping_content(world)["slots"] if not s["full"]])
    insured = rng.choice((0, 0, 500, 1000, 2000)) * 100
    cost = freight(rate_for(shipping_content(world), courier, recipient["province"]), tenths)
    return {
        "recipient": {k: str(recipient[k]) for k in ("name", "phone", "province", "address")},
        "item": rng.choice(sorted(ITEMS)),
        "tenths": tenths,
        "courier": courier,
        "slot": str(slot["id"]),
        "slot_label": str(slot["label"]),
        "insured_cents": insured,
        "total_cents": cost + insure_fee(insured),
    }


def saved_parcel(world: World, rng: random.Random) -> Params:
    recipient = rng.choice(list(shipping_content(world)["recipients"]))
    return {**_parcel(world, rng, recipient), "recipient_id": str(recipient["id"])}


def kilos(tenths: int) -> str:
    return f"{tenths / 10:g}"


def _what(params: Params, en: bool = False) -> str:
    item, kg, courier = ITEMS[params["item"]], kilos(params["tenths"]), params["courier"]
    insured = params["insured_cents"]
    if en:
        cover = f"insured for {yuan(insured)}" if insured else "no insurance"
        return (f"a {kg} kg parcel of {item} by {COURIERS[courier][0]}, pick-up "
                f"{params['slot_label']}, {cover}")  # fmt: skip
    cover = f"保价{yuan(insured)}" if insured else "不保价"
    return f"{kg}公斤的{item}，用{COURIERS[courier][0]}，{params['slot_label']}上门取件，{cover}"


def check_shipment(diff: StateDiff, params: Params) -> tuple[Any, list[str]]:
    order, problems = one_added(diff, ORDERS, "shipment")
    if order is None:
        return None, problems
    got = (order["recipient"], order["item"], order["tenths"], order["courier"], order["slot"],
           order["insured_cents"])  # fmt: skip
    want = (params["recipient"], params["item"], params["tenths"], params["courier"],
            params["slot"], params["insured_cents"])  # fmt: skip
    if got != want:
        problems.append(f"shipped {got}, expected {want}")
    if order["status"] != "waiting":
        return order, [*problems, f"the shipment is {order['status']}, not paid"]
    return order, problems + wallet_payment_problems(
        diff, amount_cents=params["total_cents"], reference=f"shipping:{order['id']}"
    )


def fill_shipment(ui: OracleUI, params: Params, recipient_id: str) -> Iterator[Action]:
    """On the send page: choose everything but the recipient's form, and pay."""
    for widget in (f"rcpt_{recipient_id}", f"item_{params['item']}"):
        yield from ui.scroll_to(widget)
        yield ui.tap(widget)
    yield from ui.scroll_to("weight")
    yield from ui.type_into("weight", kilos(params["tenths"]))
    for widget in (f"courier_{params['courier']}", f"slot_{params['slot']}"):
        yield from ui.scroll_to(widget)
        yield ui.tap(widget)
    if params["insured_cents"]:
        yield from ui.scroll_to("insured")
        yield from ui.type_into("insured", str(params["insured_cents"] // 100))
    yield from ui.scroll_to("submit_shipment")
    yield ui.tap("submit_shipment")
    yield ui.tap(PAY_CONFIRM)


def ship_to_new(ui: OracleUI, params: Params, phone: str) -> Iterator[Action]:
    """Add the recipient with this phone in the send page's form, then ship to them."""
    r = params["recipient"]
    yield from open_mini(ui, "shipping")
    yield ui.tap("new_shipment")
    yield from ui.scroll_to("add_recipient")
    yield ui.tap("add_recipient")
    yield from ui.type_into("name", r["name"])
    yield from ui.type_into("phone", phone)
    province = f"prov_{list(PROVINCES).index(r['province'])}"
    yield from ui.scroll_to(province)
    yield ui.tap(province)
    yield from ui.scroll_to("address")
    yield from ui.type_into("address", r["address"])
    yield from ui.scroll_to("save_recipient")
    yield ui.tap("save_recipient")
    chips = [n.resource_id.rpartition(":id/")[2] for n in ui.find_all()]
    new = [c for c in chips if c.startswith("rcpt_rc-")]
    if not new:
        raise OracleError("the new recipient is not on the send page")
    yield from fill_shipment(ui, params, new[-1].removeprefix("rcpt_"))


def check_new_recipient(diff: StateDiff, params: Params) -> list[str]:
    added, problems = one_added(diff, RECIPIENTS, "recipient")
    if added is None:
        return problems
    got = {k: added[k] for k in ("name", "phone", "province", "address")}
    if got != params["recipient"]:
        problems.append(f"saved the recipient {got}, expected {params['recipient']}")
    return problems + check_shipment(diff, params)[1]


class ShippingSend(MessengerTemplate):
    id = "messenger.mini_shipping.send"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        return saved_parcel(world, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who = params["recipient"]["name"]
        zh, en = _what(params), _what(params, en=True)
        return phrased(
            zh=[f"用微信「快递寄件」给地址簿里的{who}寄快递：{zh}，下单付款",
                f"帮我在微信「快递寄件」寄东西给{who}（地址簿里有）：{zh}，并支付运费",
                f"微信「快递寄件」：收件人{who}，{zh}，提交并付款"],
            en=[f"In WeChat's 快递寄件, send {who} (in the address book) {en}, and pay",
                f"Ship {en} to {who} from the address book using the 快递寄件 mini-program in "
                "WeChat, paying the fee",
                f"WeChat 快递寄件: recipient {who}, {en}; submit and pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_shipment(diff, params)[1]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "shipping")
        yield ui.tap("new_shipment")
        yield from fill_shipment(ui, params, params["recipient_id"])


def _new_person(world: World, rng: random.Random) -> dict[str, str]:
    province = rng.choice(sorted(PROVINCES))
    taken = {r["name"] for r in shipping_content(world)["recipients"]}
    return {"name": rng.choice([n for n in NEW_NAMES if n not in taken]),
            "phone": mobile_number(rng), "province": province,
            "address": rng.choice(STREETS[province])}  # fmt: skip


class ShippingFromNote(MessengerTemplate):
    """Notes → 快递寄件: the name, phone and address written in a note become a new recipient."""

    id = "messenger.mini_shipping.from_note"
    category = Category.MINI_PROGRAM
    apps = (NOTES, MESSENGER, WALLET)
    difficulty = 26
    NOTE_TITLE = "寄件地址"

    def sample(self, world: World, rng: random.Random) -> Params:
        return _parcel(world, rng, _new_person(world, rng))

    def setup(self, it: Interaction, params: Params) -> None:
        r = params["recipient"]
        body = f"收件人：{r['name']}\n电话：{r['phone']}\n地址：{r['province']} {r['address']}"
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-ship", "title": self.NOTE_TITLE, "body": body, "pinned": False}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, zh, en = self.NOTE_TITLE, _what(params), _what(params, en=True)
        return phrased(
            zh=[f"备忘录“{t}”里记着收件人、电话和地址，在微信「快递寄件」新增这个收件人并寄快递：{zh}，付款",
                f"按备忘录“{t}”的收件信息，用微信「快递寄件」添加收件人后寄出{zh}，并支付",
                f"打开备忘录“{t}”，把里面的人加到微信「快递寄件」的收件人，然后寄{zh}，付运费"],
            en=[f"The note '{t}' has a recipient, phone and address: add them as a new recipient "
                f"in WeChat's 快递寄件 and send {en}, then pay",
                f"Using the details in the note '{t}', add the recipient in WeChat's 快递寄件 and "
                f"ship {en}, paying the fee",
                f"Open the note '{t}', add that person as a recipient in WeChat's 快递寄件, then "
                f"send {en} and pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_recipient(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=self.NOTE_TITLE)
        yield ui.tap(text=self.NOTE_TITLE)
        body = ui.find("note_body")
        found = re.search(r"电话：(\d{11})", body.text if body else "")
        if found is None:
            raise OracleError("no phone in the note")
        yield from ship_to_new(ui, params, found[1])


class ShippingFromSms(MessengerTemplate):
    """Messages + Contacts → 快递寄件: a friend texts their address; the phone number comes
    from their Contacts entry."""

    id = "messenger.mini_shipping.from_sms"
    category = Category.MINI_PROGRAM
    apps = (SMS, CONTACTS, MESSENGER, WALLET)
    difficulty = 30

    def sample(self, world: World, rng: random.Random) -> Params:
        saved = {r["name"] for r in shipping_content(world)["recipients"]}
        person = rng.choice([p for p in address_book(world)[3:] if p["name"] not in saved])
        province = rng.choice(sorted(PROVINCES))
        recipient = {"name": person["name"], "phone": person["phone"], "province": province,
                     "address": rng.choice(STREETS[province])}  # fmt: skip
        return _parcel(world, rng, recipient)

    def setup(self, it: Interaction, params: Params) -> None:
        r = params["recipient"]
        text = f"我搬家了，新地址是{r['province']}{r['address']}，东西寄这里就行，谢谢！"
        add_incoming(it, (r["phone"], r["name"]), text, ago=1800, key="shipping")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who, zh, en = params["recipient"]["name"], _what(params), _what(params, en=True)
        return phrased(
            zh=[f"{who}发短信告诉了我新地址。在微信「快递寄件」新增收件人{who}（电话用通讯录里的号码，地址按短信），寄{zh}，付款",
                f"给{who}寄快递：地址看{who}发来的短信，手机号查通讯录，在微信「快递寄件」添加收件人后寄{zh}，并支付",
                f"用微信「快递寄件」寄{zh}给{who}，收件人要先新增：号码是通讯录里的，地址是短信里说的新地址，然后付款"],
            en=[f"{who} texted me a new address. In WeChat's 快递寄件 add {who} as a recipient "
                f"(phone from Contacts, address from the SMS) and send {en}, then pay",
                f"Ship to {who}: the address is in their SMS, the number in Contacts; add them "
                f"as a recipient in WeChat's 快递寄件 and send {en}, paying",
                f"Send {en} to {who} with WeChat's 快递寄件, adding the recipient first with the "
                "number saved in Contacts and the new address from their text; pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_recipient(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        r = params["recipient"]
        yield from open_thread(ui, r["name"])
        yield ui.open("联系人")
        yield from ui.type_into("search", r["name"])
        rows = [n for n in ui.find_all() if ":id/contact_c-" in n.resource_id]
        if not rows:
            raise OracleError("the contact is not found")
        yield ui.tap(rows[0].resource_id.rpartition(":id/")[2])
        phone = "".join(ch for ch in ui.text_of("phone_number") if ch.isdigit())
        yield from ship_to_new(ui, params, phone)


def waiting_order(world: World) -> Any:
    return next(o for o in shipping_content(world)["orders"] if o["status"] == "waiting")


class ShippingWaybillToSms(MessengerTemplate, WritesValue):
    """快递寄件 → Messages: the waiting shipment's waybill number texted to its recipient."""

    id = "messenger.mini_shipping.waybill_to_sms"
    category = Category.MINI_PROGRAM
    apps = (MESSENGER, SMS)
    difficulty = 14
    written = f"apps/{SMS}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        order = waiting_order(world)
        return {"order": str(order["id"]), "waybill": str(order["waybill"]),
                "to": str(order["recipient"]["name"]),
                "to_phone": str(order["recipient"]["phone"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        to = params["to"]
        return phrased(
            zh=[f"把微信「快递寄件」里寄给{to}、还在待取件的那单的运单号发短信告诉{to}",
                f"我在微信「快递寄件」给{to}寄了东西，查到运单号后用短信发给{to}",
                f"短信告诉{to}我寄给他的快递运单号（在微信「快递寄件」的我的寄件里）"],
            en=[f"Text {to} the waybill number of the waiting shipment to them in WeChat's "
                "快递寄件",
                f"I sent {to} a parcel with WeChat's 快递寄件: find its waybill number and SMS it "
                f"to {to}",
                f"SMS {to} the waybill number of my parcel to them (under my shipments in "
                "WeChat's 快递寄件)"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return waybill_token(params["waybill"])

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "shipping")
        yield ui.tap("my_shipments")
        yield ui.tap(f"shipment_{params['order']}")
        number = ui.text_of("waybill").removeprefix("运单号").strip()
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("body", f"快递运单号：{number}")
        yield ui.tap("send")


TEMPLATES: tuple[TaskTemplate, ...] = (
    ShippingSend(),
    ShippingFromNote(),
    ShippingFromSms(),
    ShippingWaybillToSms(),
)
