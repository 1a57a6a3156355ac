"""Task templates of the Parcels app (快递), including cross-app ones: a tracking number copied
from an SMS into 快递, a pick-up code texted to a contact."""

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
from phonebuddy.phoneworld.apps.parcels.app import (
    COURIERS,
    DELIVERING,
    ON_DEVICE,
    PARCELS,
    SIGNED,
    TRANSIT,
    WAITING,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.tasks.answers import (
    Expectation,
    Number,
    Text,
    Together,
    Token,
    dashed_code,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import copy_text, paste_into, paste_into_new_note
from phonebuddy.phoneworld.tasks.diff import A_TIME, StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.expect import NOTES_LIST, WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
PARCEL_LIST = f"apps/{PARCELS}/parcels"
NOTE_TITLES = ("取件码", "快递取件码", "记得取快递")
COURIER_ENGLISH = {
    "顺丰速运": "SF Express", "中通快递": "ZTO Express", "圆通速递": "YTO Express",
    "韵达快递": "Yunda Express", "申通快递": "STO Express", "京东快递": "JD Logistics",
    "极兔速递": "J&T Express",
}  # fmt: skip
COURIER_NAMES = tuple(COURIER_ENGLISH)
REMARKS = ("周末再取", "帮妈妈买的", "送公司前台", "到了提醒我", "记得开箱验货", "放门卫室")
# The number and name each courier texts from in Messages.
COURIER_SENDERS = {
    "顺丰速运": ("95338", "顺丰速运"), "中通快递": ("95311", "中通快递"),
    "圆通速递": ("95554", "圆通速递"), "韵达快递": ("95546", "韵达快递"),
    "申通快递": ("95543", "申通快递"), "京东快递": ("950616", "京东快递"),
    "极兔速递": ("956025", "极兔速递"),
}  # fmt: skip


def records(world: World) -> tuple[Any, ...]:
    return tuple(world.content(PARCELS)["records"])


def on_device(world: World, *statuses: str) -> list[Any]:
    """The parcels on the phone after a reset, of these statuses (all when none given)."""
    return [r for r in records(world)[:ON_DEVICE] if not statuses or r["status"] in statuses]


def parcel_params(parcel: Any) -> Params:
    return {"parcel_id": parcel["id"], "shop": parcel["shop"]}


def parcel_path(params: Params) -> str:
    return f"{PARCEL_LIST}[{params['parcel_id']}]"


def before_parcel(diff: StateDiff, params: Params) -> dict[str, Any]:
    return diff.value_before(parcel_path(params))  # type: ignore[no-any-return]


def open_parcel(ui: OracleUI, shop: str) -> Iterator[Action]:
    """Open 快递 and the parcel from `shop` in the list."""
    yield ui.open("快递")
    yield from ui.scroll_to(text=shop)
    yield ui.tap(text=shop)


def confirm_pickup(ui: OracleUI) -> Iterator[Action]:
    yield from ui.scroll_to("confirm_pickup")
    yield ui.tap("confirm_pickup")
    yield ui.tap("pickup_ok")


def write_remark(ui: OracleUI, remark: str) -> Iterator[Action]:
    yield from ui.scroll_to("edit_remark")
    yield ui.tap("edit_remark")
    yield from ui.type_into("remark", remark)
    yield ui.tap("save_remark")


def picked_up(diff: StateDiff, params: Params) -> list[str]:
    path = parcel_path(params)
    return expect_changes(diff, path, {f"{path}/status": SIGNED, f"{path}/signed_at": A_TIME})


def remarked(diff: StateDiff, params: Params) -> list[str]:
    path = parcel_path(params)
    return expect_changes(diff, path, {f"{path}/remark": params["remark"]})


class ParcelsTemplate(TaskTemplate):
    """A template of the Parcels app alone."""

    category = Category.SINGLE_APP
    apps = (PARCELS,)


class PickupCode(ParcelsTemplate):
    id = "parcels.pickup_code"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel, other = pick(rng, on_device(world, WAITING), 2)
        # this task's own code (the station's shelf and a number)
        code = f"{rng.randrange(1, 10)}-{rng.randrange(1, 7)}-{rng.randrange(1000, 10000)}"
        return {**parcel_params(parcel), "code": code, "other_code": other["code"]}

    def setup(self, it: Interaction, params: Params) -> None:
        for parcel in it.app_data(PARCELS)["parcels"]:
            if parcel["id"] == params["parcel_id"]:
                parcel["code"] = params["code"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop = params["shop"]
        return phrased(
            zh=[f"“{shop}”寄来的包裹取件码是多少？", f"帮我查一下“{shop}”那个快递的取件码",
                f"我要去驿站取“{shop}”的包裹，取件码是什么？"],
            en=[f"What is the pickup code of the parcel from '{shop}'?",
                f"Look up the pickup code for my parcel from '{shop}'",
                f"I'm going to collect the parcel from '{shop}': what's its pickup code?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return dashed_code(before_parcel(diff, params)["code"])

    def wrong_answer(self, params: Params) -> str:
        return str(params["other_code"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_parcel(ui, params["shop"])
        yield Answer(text=ui.text_of("pickup_code"))


class ConfirmPickup(ParcelsTemplate):
    id = "parcels.confirm_pickup"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return parcel_params(pick(rng, on_device(world, WAITING)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop = params["shop"]
        return phrased(
            zh=[f"我已经取走了“{shop}”的包裹，在快递App里确认取件",
                f"帮我把“{shop}”寄来的快递标记为已取件",
                f"“{shop}”那个包裹我拿到了，去快递里点一下确认取件"],
            en=[f"I've collected the parcel from '{shop}'; confirm the pickup in Parcels",
                f"Please mark the parcel from '{shop}' as picked up",
                f"I got my package from '{shop}', so confirm its pickup in the Parcels app"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return picked_up(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_parcel(ui, params["shop"])
        yield from confirm_pickup(ui)


class SetRemark(ParcelsTemplate):
    id = "parcels.remark"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**parcel_params(pick(rng, on_device(world))), "remark": rng.choice(REMARKS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, remark = params["shop"], params["remark"]
        return phrased(
            zh=[f"给“{shop}”的包裹加个备注：“{remark}”",
                f"在快递里把“{shop}”那个包裹的备注写成“{remark}”",
                f"帮我备注一下“{shop}”寄来的快递，内容是“{remark}”"],
            en=[f"Add the remark '{remark}' to the parcel from '{shop}'",
                f"In Parcels, set the remark of the parcel from '{shop}' to '{remark}'",
                f"Please note '{remark}' on my package from '{shop}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return remarked(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_parcel(ui, params["shop"])
        yield from write_remark(ui, params["remark"])


class ConfirmOrRemark(ParcelsTemplate):
    """Conditional: confirm the pick-up if the parcel is at the station, else leave a remark."""

    id = "parcels.confirm_or_remark"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel = pick(rng, on_device(world, WAITING, DELIVERING, TRANSIT))
        return {**parcel_params(parcel), "remark": rng.choice(REMARKS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, remark = params["shop"], params["remark"]
        return phrased(
            zh=[f"看看“{shop}”的包裹到驿站了没有：已经待取件的话就确认取件，还没到就给它加备注“{remark}”",
                f"如果“{shop}”寄来的快递已经是待取件，帮我点确认取件；否则把它的备注设为“{remark}”",
                f"“{shop}”那个包裹：到了（待取件）就确认取件，没到就备注“{remark}”"],
            en=[f"Check whether the parcel from '{shop}' is waiting for pickup: if it is, confirm "
                f"the pickup; if not, add the remark '{remark}' to it",
                f"If my parcel from '{shop}' is already waiting for pickup, confirm that I picked "
                f"it up; otherwise set its remark to '{remark}'",
                f"For the parcel from '{shop}': confirm pickup if it has arrived at the station, "
                f"or else give it the remark '{remark}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if before_parcel(diff, params)["status"] == WAITING:
            return picked_up(diff, params)
        return remarked(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_parcel(ui, params["shop"])
        if ui.text_of("status") == WAITING:
            yield from confirm_pickup(ui)
        else:
            yield from write_remark(ui, params["remark"])


class CountWaiting(ParcelsTemplate):
    """Aggregation: how many parcels wait at the stations (this task's own: a seeded 1 to 20
    of them; in the setup some of the usual ones were picked up, others arrive, and parcels
    not on the phone yet are added, waiting)."""

    id = "parcels.count_waiting"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        later = [r for r in records(world)[ON_DEVICE:] if r["status"] != SIGNED]
        candidates = [*on_device(world, WAITING, DELIVERING, TRANSIT), *later]
        waiting = pick(rng, candidates, rng.randint(1, 20))
        arriving = sorted(str(p["id"]) for p in waiting if p["status"] != WAITING)
        later_ids = {r["id"] for r in later}
        codes = rng.sample(range(1000, 10000), len(arriving))
        return {"waiting": sorted(str(p["id"]) for p in waiting), "arriving": arriving,
                "added": sorted(str(p["id"]) for p in waiting if p["id"] in later_ids),
                "codes": [f"{rng.randrange(1, 10)}-{rng.randrange(1, 7)}-{n}"
                          for n in codes]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        parcels = it.app_data(PARCELS)["parcels"]
        known = {r["id"]: r for r in it.content["records"]}
        for parcel_id in params["added"]:
            parcels.insert(0, clone(known[parcel_id]))
        by_id = {p["id"]: p for p in parcels}
        for parcel_id, code in zip(params["arriving"], params["codes"], strict=True):
            parcel = by_id[parcel_id]
            station = "菜鸟驿站（文三路店）"
            parcel.update(status=WAITING, station=station, code=code)
            parcel["events"].append(
                {"time": it.clock - 1800, "text": f"【杭州】快件已到达 {station}，请凭取件码取件"}
            )
        for parcel in parcels:  # the usual waiting ones left out were picked up this morning
            if parcel["status"] == WAITING and parcel["id"] not in params["waiting"]:
                parcel.update(status=SIGNED, signed_at=it.clock - 2 * 3600)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我现在有几个包裹在等着取件？", "数一下快递App里待取件的包裹一共有多少个",
                "驿站和快递柜里还有多少个我的包裹没取？"],
            en=["How many of my parcels are waiting for pickup right now?",
                "Count the parcels in the Parcels app that are waiting to be picked up",
                "How many of my packages are still sitting at the pickup stations?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        parcels = diff.before["apps"][PARCELS]["parcels"]
        return Number(sum(p["status"] == WAITING for p in parcels), unit="个")

    def wrong_answer(self, params: Params) -> str:
        return str(len(params["waiting"]) + 1)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("快递")
        yield ui.tap("tab_waiting")
        seen = listed(ui)
        while ui.device.scroll_room("content")[1] > 0:  # a long list: scroll on and count
            yield ui.page_down()
            seen |= listed(ui)
        yield Answer(text=f"{len(seen)}个")


def listed(ui: OracleUI) -> set[str]:
    """The ids of the parcels shown in the list now."""
    prefix = f"{PARCELS}:id/parcel_"
    return {n.resource_id for n in ui.device.ui_tree().walk() if n.resource_id.startswith(prefix)}


class AddFromSms(TaskTemplate):
    """Messages → Parcels: the tracking number in a courier's SMS, copied and pasted."""

    id = "parcels.add_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, PARCELS)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel, decoy = pick(rng, records(world)[ON_DEVICE:], 2)
        return {
            "number": parcel["number"], "courier": parcel["courier"], "shop": parcel["shop"],
            "item": parcel["item"], "decoy_number": decoy["number"],
            "decoy_courier": decoy["courier"], "decoy_shop": decoy["shop"],
            "decoy_item": decoy["item"],
        }  # fmt: skip

    @staticmethod
    def sms(courier: str, shop: str, item: str, number: str) -> str:
        return (f"【{courier}】您在{shop}购买的{item}已发货，运单号{number}，"
                "可在快递App中查看物流。")  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        decoy = (params["decoy_courier"], params["decoy_shop"], params["decoy_item"],
                 params["decoy_number"])  # fmt: skip
        add_incoming(it, COURIER_SENDERS[params["decoy_courier"]], self.sms(*decoy),
                     ago=3 * 3600, key="decoy")  # fmt: skip
        mine = (params["courier"], params["shop"], params["item"], params["number"])
        add_incoming(it, COURIER_SENDERS[params["courier"]], self.sms(*mine), ago=1200,
                     key="parcel")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        courier, shop = params["courier"], params["shop"]
        return phrased(
            zh=[f"{courier}发短信说我在“{shop}”买的东西发货了，把短信里的运单号添加到快递App",
                f"把“{shop}”那单的包裹加到快递App里，运单号在{courier}发来的短信里",
                f"信息里有条{courier}的发货短信（“{shop}”的订单），帮我用里面的运单号在快递里添加这个包裹"],
            en=[f"{courier} texted me that my order from '{shop}' has shipped; add that tracking "
                "number to the Parcels app",
                f"Add the parcel of my order from '{shop}' to Parcels; its tracking number is in "
                f"the SMS from {courier}",
                f"There's a shipping text from {courier} in Messages about the '{shop}' order: "
                "use its tracking number to add the parcel in Parcels"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        parcel, problems = one_added(diff, PARCEL_LIST, "parcel")
        if parcel is not None and parcel["number"] != params["number"]:
            problems.append(f"added {parcel['number']}, expected {params['number']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, COURIER_SENDERS[params["courier"]][1])
        sms = self.sms(params["courier"], params["shop"], params["item"], params["number"])
        if ui.find(text=sms) is None:
            raise OracleError("the shipping SMS is not in the thread")
        yield from copy_text(ui, text=sms)
        yield ui.open("快递")
        yield ui.tap("add")
        yield from paste_into(ui, "number")
        yield ui.tap("query")
        yield ui.tap("add_parcel")


class CodeToSms(WritesValue):
    """Parcels → Messages: a pick-up code copied from the parcel's page and texted."""

    id = "parcels.code_to_sms"
    category = Category.CROSS_APP
    apps = (PARCELS, MESSAGES)
    difficulty = 13
    written = f"apps/{MESSAGES}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel = pick(rng, on_device(world, WAITING))
        person = pick(rng, address_book(world))
        return {**parcel_params(parcel), "code": parcel["code"], "to": person["name"],
                "to_phone": person["phone"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, to = params["shop"], params["to"]
        return phrased(
            zh=[f"把“{shop}”那个包裹的取件码发短信给{to}，请他帮我取一下",
                f"{to}要帮我去驿站拿“{shop}”的快递，把取件码用短信发给他",
                f"查一下“{shop}”寄来的包裹的取件码，短信告诉{to}"],
            en=[f"Text {to} the pickup code of the parcel from '{shop}' so they can collect it",
                f"{to} will pick up my parcel from '{shop}': send them its pickup code by SMS",
                f"Find the pickup code of the package from '{shop}' and text it to {to}"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return dashed_code(before_parcel(diff, params)["code"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_parcel(ui, params["shop"])
        yield from copy_text(ui, "pickup_code")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from paste_into(ui, "body")
        yield ui.tap("send")


class CodeToNote(WritesValue):
    """Parcels → Notes: a pick-up code copied from the parcel's page into a new note."""

    id = "parcels.code_to_note"
    category = Category.CROSS_APP
    apps = (PARCELS, NOTES)
    difficulty = 12
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel = pick(rng, on_device(world, WAITING))
        return {**parcel_params(parcel), "code": parcel["code"], "title": rng.choice(NOTE_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, title = params["shop"], params["title"]
        return phrased(
            zh=[f"把“{shop}”包裹的取件码记到备忘录里，新建一条标题为“{title}”的备忘录",
                f"新建备忘录“{title}”，内容写上“{shop}”那个快递的取件码",
                f"帮我在备忘录里存一下“{shop}”寄来的包裹的取件码，标题就叫“{title}”"],
            en=[f"Save the pickup code of the parcel from '{shop}' in a new note titled '{title}'",
                f"Create a note called '{title}' holding the pickup code of my '{shop}' parcel",
                f"Please keep the pickup code of the package from '{shop}' in Notes, in a note "
                f"named '{title}'"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return dashed_code(before_parcel(diff, params)["code"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_parcel(ui, params["shop"])
        yield from copy_text(ui, "pickup_code")
        yield from paste_into_new_note(ui, params["title"])


class DeleteParcel(ParcelsTemplate):
    id = "parcels.delete"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        return parcel_params(pick(rng, on_device(world, SIGNED)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop = params["shop"]
        return phrased(
            zh=[f"“{shop}”的包裹已经签收了，把它从快递列表里删掉",
                f"在快递App里删除“{shop}”寄来的那个包裹",
                f"不用再看“{shop}”那个快递了，帮我删了吧"],
            en=[f"The parcel from '{shop}' has been delivered; delete it from the Parcels list",
                f"In the Parcels app, delete the parcel from '{shop}'",
                f"I don't need to follow the package from '{shop}' anymore: remove it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [p["id"] for p in diff.removed(PARCEL_LIST)]
        if removed != [params["parcel_id"]]:
            return [f"deleted {removed}, expected only {params['parcel_id']}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_parcel(ui, params["shop"])
        yield ui.tap("delete")
        yield ui.tap("confirm_delete")


class WhichCourier(ParcelsTemplate):
    id = "parcels.courier"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel = pick(rng, on_device(world))
        # this task's own courier and tracking number for the parcel
        courier, prefix, digits, _ = rng.choice(COURIERS)
        number = prefix + str(rng.randrange(1, 10))
        number += "".join(rng.choice("0123456789") for _ in range(digits - 1))
        other = rng.choice([c for c in COURIER_NAMES if c != courier])
        return {**parcel_params(parcel), "courier": courier, "number": number, "other": other}

    def setup(self, it: Interaction, params: Params) -> None:
        for parcel in it.app_data(PARCELS)["parcels"]:
            if parcel["id"] == params["parcel_id"]:
                old = parcel["courier"]
                parcel.update(courier=params["courier"], number=params["number"])
                for event in parcel["events"]:
                    event["text"] = event["text"].replace(old, params["courier"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop = params["shop"]
        return phrased(
            zh=[f"“{shop}”的包裹是哪家快递送的？运单号是多少？",
                f"查一下“{shop}”寄来的快递走的是哪个快递公司，还有它的运单号",
                f"我在“{shop}”买的东西用的什么快递？单号是什么？"],
            en=[f"Which courier is delivering the parcel from '{shop}', and what is its tracking "
                "number?",
                f"Look up which delivery company carries my parcel from '{shop}', and its "
                "tracking number",
                f"What courier did '{shop}' ship my order with? What's the tracking number?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        parcel = before_parcel(diff, params)
        courier = parcel["courier"]
        others = [c for c in COURIER_NAMES if c != courier]
        return Together(Text(courier_forms(courier), others=others, what="courier"),
                        tracking_number(parcel["number"]))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        return f"{params['other']}，运单号{params['number']}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_parcel(ui, params["shop"])
        courier, number = ui.text_of("number").split()[:2]
        yield Answer(text=f"{courier}，运单号{number}")


def tracking_number(number: str) -> Token:
    """A tracking number: two letters and 10 to 13 digits ('SF1234567890123', 'sf 1234...')."""
    pattern = re.compile(r"(?<![a-z\d])[a-z]{2}\s?\d{10,13}(?!\d)")
    return Token(number, pattern=pattern, canonical=lambda t: re.sub(r"\s", "", t).upper(),
                 what="tracking number")  # fmt: skip


def courier_forms(courier: str) -> tuple[str, ...]:
    """How people name a courier: '顺丰速运', '顺丰', 'SF Express'."""
    return (courier, courier[:2], COURIER_ENGLISH[courier])


TEMPLATES: tuple[TaskTemplate, ...] = (
    PickupCode(),
    ConfirmPickup(),
    SetRemark(),
    ConfirmOrRemark(),
    CountWaiting(),
    AddFromSms(),
    CodeToSms(),
    CodeToNote(),
    DeleteParcel(),
    WhichCourier(),
)
