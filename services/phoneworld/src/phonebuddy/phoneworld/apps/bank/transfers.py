"""Bank templates that carry a card number between apps: texted by a friend in 信息, kept in a
note, or given in the instruction (the long errand: two transfers and a new payee)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.bank.content import BANK, SAVED_PAYEES, issuer, spaced
from phonebuddy.phoneworld.apps.bank.steps import (
    PAYEES,
    TRANSFER_NOTES,
    an_amount,
    confirm_with_code,
    content,
    fill,
    new_card,
    open_bank,
    open_thread_titled,
    payee_params,
    transfer_problems,
    transfer_to_saved,
    yuan_text,
)
from phonebuddy.phoneworld.apps.contacts.app import MESSAGES
from phonebuddy.phoneworld.apps.messages.tasks import add_incoming, address_book
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import copy_text, paste_into
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

NOTES = "com.pw.notes"
NOTE_TITLES = ("房东的银行卡", "收款账号", "转账卡号")


def friend_card(world: World, rng: random.Random) -> Params:
    """A contact who texts the card number they want money on (setup sends it)."""
    person = pick(rng, address_book(world))
    return {"name": person["name"], "phone": person["phone"], "card": new_card(rng)}


def text_card(it: Interaction, params: Params) -> None:
    """Setup: the friend's two texts, the second holding only the card number."""
    sender = (params["phone"], "")
    add_incoming(it, sender, "我的银行卡号发你，户名就是我本人", ago=1800, key="bank-intro")
    add_incoming(it, sender, spaced(params["card"]), ago=1780, key="bank-card")


def start_transfer(ui: OracleUI, name: str) -> Iterator[Action]:
    """From the bank's home: the transfer form with the name typed and the clipboard pasted
    as the card number."""
    yield ui.tap("transfer")
    yield from fill(ui, name=name)
    yield from paste_into(ui, "card")


def finish_transfer(ui: OracleUI, amount: str, note: str = "") -> Iterator[Action]:
    yield from fill(ui, amount=amount, note=note)
    yield from ui.scroll_to("next")
    yield ui.tap("next")
    yield from confirm_with_code(ui)


class TransferFromSms(TaskTemplate):
    """Messages → Bank → Messages: the card number a friend texted, copied into a transfer."""

    id = "bank.transfer_from_sms"
    category = Category.CROSS_APP
    apps = (BANK, MESSAGES)
    difficulty = 25

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**friend_card(world, rng), "cents": an_amount(rng)}

    def setup(self, it: Interaction, params: Params) -> None:
        text_card(it, params)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, amount = params["name"], yuan_text(params["cents"])
        return phrased(
            zh=[f"{name}把银行卡号用短信发给我了，用银行App给他转{amount}元",
                f"按{name}短信里发来的卡号，给{name}转账{amount}元",
                f"帮我给{name}转{amount}元，收款卡号在他发的短信里"],
            en=[f"{name} texted me a bank card number: transfer {amount} yuan to it with the "
                "Bank app",
                f"Transfer {amount} yuan to {name}, using the card number from their SMS",
                f"Send {name} {amount} yuan by bank transfer; the card number is in their text"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return transfer_problems(diff, [(params["name"], params["card"], params["cents"])])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread_titled(ui, params["name"])
        yield from copy_text(ui, text=spaced(params["card"]))
        yield from open_bank(ui)
        yield from start_transfer(ui, params["name"])
        yield from finish_transfer(ui, yuan_text(params["cents"]))


class TransferFromNote(TaskTemplate):
    """Notes → Bank → Messages: the rent to the landlord, whose card number is in a note."""

    id = "bank.transfer_from_note"
    category = Category.CROSS_APP
    apps = (BANK, NOTES, MESSAGES)
    difficulty = 26

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, content(world)["people"][SAVED_PAYEES:])
        return {"name": person["name"], "card": person["card"], "title": rng.choice(NOTE_TITLES),
                "cents": rng.randrange(15, 60) * 10000, "note": "房租"}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        note = {"id": "note-bank", "title": params["title"], "body": spaced(params["card"]),
                "pinned": False}  # fmt: skip
        it.app_data(NOTES)["notes"].append(note)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, title, amount = params["name"], params["title"], yuan_text(params["cents"])
        return phrased(
            zh=[f"给房东{name}转{amount}元房租，附言“房租”，卡号记在备忘录“{title}”里",
                f"备忘录“{title}”里有房东的卡号，用银行给{name}转账{amount}元，附言写“房租”",
                f"交房租：按备忘录“{title}”中的卡号向{name}转{amount}元，附言“房租”"],
            en=[f"Pay my landlord {name} {amount} yuan of rent with the note '房租'; the card "
                f"number is in the note '{title}'",
                f"The note '{title}' holds my landlord's card number: transfer {amount} yuan to "
                f"{name} in Bank, noting '房租'",
                f"Rent time: send {amount} yuan to {name} at the card number in the note "
                f"'{title}', with the note '房租'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = transfer_problems(diff, [(params["name"], params["card"], params["cents"])])
        notes = [r.get("note") for r in diff.after["apps"][BANK]["records"][:1]]
        return problems or ([] if notes == ["房租"] else [f"the transfer's note is {notes}"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])
        yield from copy_text(ui, "note_body")
        yield from open_bank(ui)
        yield from start_transfer(ui, params["name"])
        yield from finish_transfer(ui, yuan_text(params["cents"]), params["note"])


def payee_problems(diff: StateDiff, name: str, card: str) -> list[str]:
    payee, problems = one_added(diff, PAYEES, "payee")
    if payee is not None and (payee["name"], payee["card"]) != (name, card):
        problems.append(f"added {payee['name']} {payee['card']}, expected {name} {card}")
    if payee is not None and payee["bank"] != issuer(card):
        problems.append(f"the payee's bank is {payee['bank']}")
    return problems


def add_payee(ui: OracleUI, name: str, card: str | None) -> Iterator[Action]:
    """From the bank's home: a new payee (`card` typed, or None: pasted)."""
    yield ui.tap("payees")
    yield ui.tap("add_payee")
    yield from fill(ui, name=name)
    if card is None:
        yield from paste_into(ui, "card")
    else:
        yield from ui.type_into("card", card)
    yield ui.tap("save_payee")


class AddPayeeFromSms(TaskTemplate):
    """Messages → Bank: a friend's texted card number saved as a payee."""

    id = "bank.add_payee_from_sms"
    category = Category.CROSS_APP
    apps = (BANK, MESSAGES)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        return friend_card(world, rng)

    def setup(self, it: Interaction, params: Params) -> None:
        text_card(it, params)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"{name}短信发来了银行卡号，把他添加为银行App里的收款人",
                f"用{name}短信里的卡号新建一个收款人，名字填{name}",
                f"把{name}发给我的银行卡保存到收款人列表"],
            en=[f"{name} texted me a card number: add them as a payee in the Bank app",
                f"Create a payee named {name} with the card number from their SMS",
                f"Save the bank card {name} sent me by text to my payees"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return payee_problems(diff, params["name"], params["card"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread_titled(ui, params["name"])
        yield from copy_text(ui, text=spaced(params["card"]))
        yield from open_bank(ui)
        yield from add_payee(ui, params["name"], None)


class PayTwoAndAdd(TaskTemplate):
    """Long errand: transfers to two saved payees, each with its SMS code, then a new payee."""

    id = "bank.pay_two_and_add"
    category = Category.CROSS_APP
    apps = (BANK, MESSAGES)
    difficulty = 40

    def sample(self, world: World, rng: random.Random) -> Params:
        first, second = rng.sample(range(SAVED_PAYEES), 2)
        person = pick(rng, content(world)["people"][SAVED_PAYEES:])
        a, b = payee_params(world, first), payee_params(world, second)
        return {"name_a": a["name"], "card_a": a["card"], "cents_a": an_amount(rng),
                "name_b": b["name"], "card_b": b["card"], "cents_b": an_amount(rng),
                "new_name": person["name"], "new_card": person["card"],
                "note": rng.choice(TRANSFER_NOTES)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b, new = params["name_a"], params["name_b"], params["new_name"]
        x, y = yuan_text(params["cents_a"]), yuan_text(params["cents_b"])
        card, note = spaced(params["new_card"]), params["note"]
        return phrased(
            zh=[f"用银行App给收款人“{a}”转{x}元、给“{b}”转{y}元（附言都写“{note}”），"
                f"然后添加新收款人“{new}”，卡号{card}",
                f"先后给“{a}”转账{x}元、给“{b}”转账{y}元，附言“{note}”；再把“{new}”（卡号{card}）"
                "加到收款人里",
                f"帮我办三件事：向“{a}”转{x}元，向“{b}”转{y}元，附言均为“{note}”，"
                f"最后新增收款人“{new}”，卡号是{card}"],
            en=[f"In Bank, transfer {x} yuan to the payee '{a}' and {y} yuan to '{b}' (note "
                f"'{note}' on both), then add the new payee '{new}' with card number {card}",
                f"Send {x} yuan to '{a}', then {y} yuan to '{b}', both noted '{note}'; then "
                f"save '{new}' (card {card}) as a payee",
                f"Three things: transfer {x} yuan to '{a}', transfer {y} yuan to '{b}', both "
                f"with the note '{note}', and add a payee '{new}' whose card number is {card}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        expected = [(params["name_a"], params["card_a"], params["cents_a"]),
                    (params["name_b"], params["card_b"], params["cents_b"])]  # fmt: skip
        problems = transfer_problems(diff, expected)
        problems += payee_problems(diff, params["new_name"], params["new_card"])
        records = diff.after["apps"][BANK]["records"][:2]
        if [r.get("note") for r in records] != [params["note"]] * 2:
            problems.append(f"the transfers' notes are {[r.get('note') for r in records]}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        note = params["note"]
        yield from open_bank(ui)
        yield from transfer_to_saved(ui, params["name_a"], yuan_text(params["cents_a"]), note)
        yield ui.tap("finish")
        yield from transfer_to_saved(ui, params["name_b"], yuan_text(params["cents_b"]), note)
        yield ui.tap("finish")
        yield from add_payee(ui, params["new_name"], spaced(params["new_card"]))
