"""Task templates of the Wallet app: transfers (one read from a note) and questions about the
balance, bills and bank cards."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, digit_code
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_transfer_problems
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

WALLET = "com.pw.wallet"
NOTES = "com.pw.notes"
NOTES_LIST = f"apps/{NOTES}/notes"
# Every seeded balance is at least ¥800; transfers stay well below it.
TRANSFER_NOTES = ("饭钱", "电影票", "房租", "生日快乐", "车费", "咖啡钱", "代购", "水电费")


def _wallet(world: World) -> Mapping[str, Any]:
    return world.content(WALLET)


def _amount_text(cents: int) -> str:
    """How people write amounts: 120, or 66.5 when there are jiao."""
    return f"{cents // 100}" if cents % 100 == 0 else f"{cents / 100:g}"


def _sample_transfer(world: World, rng: random.Random) -> Params:
    payee = pick(rng, _wallet(world)["payees"])
    cents = rng.randrange(10, 500) * 100 + rng.choice((0, 0, 0, 50))
    return {
        "payee_id": payee["id"],
        "name": payee["name"],
        "phone": payee["phone"],
        "amount_cents": cents,
        "note": rng.choice(TRANSFER_NOTES),
    }


def _transfer_problems(diff: StateDiff, params: Params) -> list[str]:
    return wallet_transfer_problems(
        diff, amount_cents=params["amount_cents"], payee_id=params["payee_id"], note=params["note"]
    )


def transfer_steps(ui: OracleUI, params: Params) -> Iterator[Action]:
    """From the wallet's home: pick the payee, type amount and note, confirm twice."""
    yield ui.tap("entry_transfer")
    yield from ui.scroll_to(f"payee_{params['payee_id']}")
    yield ui.tap(f"payee_{params['payee_id']}")
    yield from ui.type_into("amount", _amount_text(params["amount_cents"]))
    yield from ui.type_into("note", params["note"])
    yield ui.tap("transfer_submit")
    yield ui.tap("transfer_confirm")


class WalletTemplate(TaskTemplate):
    """A template of the Wallet app alone."""

    category = Category.SINGLE_APP
    apps = (WALLET,)


class Transfer(WalletTemplate):
    id = "wallet.transfer"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return _sample_transfer(world, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        amount = _amount_text(params["amount_cents"])
        name, phone, note = params["name"], params["phone"], params["note"]
        return phrased(
            zh=[f"用钱包给{name}（{phone}）转账{amount}元，转账说明写“{note}”",
                f"帮我转{amount}元给{name}，手机号 {phone}，备注“{note}”",
                f"打开钱包，向{name}（{phone}）转{amount}元，说明填“{note}”"],
            en=[f"Use the wallet to transfer ¥{amount} to {name} ({phone}) with the note "
                f"'{note}'",
                f"Please send {name} ({phone}) ¥{amount} from my wallet, note: '{note}'",
                f"In the wallet, pay ¥{amount} to {name}, phone {phone}, and add the note "
                f"'{note}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _transfer_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("钱包")
        yield from transfer_steps(ui, params)


class TransferFromNote(TaskTemplate):
    """Who to pay, how much and the note are written in a note the setup adds."""

    id = "wallet.transfer_from_note"
    category = Category.CROSS_APP
    apps = (WALLET, NOTES)
    difficulty = 11
    NOTE_TITLE = "还钱提醒"

    def sample(self, world: World, rng: random.Random) -> Params:
        return _sample_transfer(world, rng)

    @staticmethod
    def note_body(params: Params) -> str:
        return (
            f"周末聚会{params['name']}（{params['phone']}）先垫付了，要还"
            f"{_amount_text(params['amount_cents'])}元，转账说明写“{params['note']}”"
        )

    def setup(self, it: Any, params: Params) -> None:
        it.app_data(NOTES)["notes"].insert(
            0,
            {
                "id": "note-task",
                "title": self.NOTE_TITLE,
                "body": self.note_body(params),
                "pinned": False,
            },
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = self.NOTE_TITLE
        return phrased(
            zh=[f"按备忘录“{title}”里写的，用钱包把钱转给对方",
                f"备忘录“{title}”记着我欠谁钱，帮我用钱包照着转过去",
                f"看一下备忘录“{title}”，按上面的对象、金额和说明用钱包转账"],
            en=[f"Do what the note '{title}' says: transfer the money with the wallet",
                f"The note '{title}' says who I owe money to; pay them back through the wallet "
                "as it says",
                f"Check the note '{title}' and make the wallet transfer it describes: payee, "
                "amount and transfer note"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _transfer_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=self.NOTE_TITLE)
        yield ui.tap(text=self.NOTE_TITLE)
        yield ui.open("钱包")
        yield from transfer_steps(ui, params)


class Balance(WalletTemplate):
    id = "wallet.balance"
    difficulty = 2
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"balance_cents": rng.randrange(50_000, 900_000)}

    def setup(self, it: Any, params: Params) -> None:
        it.app_data(WALLET)["balance_cents"] = params["balance_cents"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我的钱包余额还有多少？", "帮我看一下钱包里还剩多少钱", "钱包现在的余额是多少？"],
            en=["How much money is left in my wallet?", "Check my wallet balance for me",
                "What's the current balance of my wallet?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["balance_cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["balance_cents"] + 10_000)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("钱包")
        node = ui.find("balance")
        yield Answer(text=node.text if node else "")


class SpentAtMerchant(WalletTemplate):
    id = "wallet.spent_at_merchant"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        payments: dict[str, list[int]] = {}
        for bill in _wallet(world)["history"]:
            if bill["kind"] == "payment":
                payments.setdefault(bill["merchant"], []).append(bill["amount_cents"])
        merchant = pick(rng, sorted(m for m, amounts in payments.items() if len(amounts) >= 2))
        amounts = payments[merchant]
        return {"merchant": merchant, "total_cents": sum(amounts), "last_cents": amounts[-1]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        merchant = params["merchant"]
        return phrased(
            zh=[f"查一下钱包账单，我一共在“{merchant}”花了多少钱？",
                f"我在“{merchant}”总共消费了多少？看钱包账单算一下",
                f"根据钱包里的账单，在“{merchant}”的支出合计是多少？"],
            en=[f"According to the wallet's bills, how much have I spent at {merchant} in total?",
                f"Go through my wallet bills: what's my total spending at {merchant}?",
                f"How much have I paid {merchant} altogether, going by the wallet's bills?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["total_cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["last_cents"])  # only the latest bill

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("钱包")
        yield ui.tap("entry_bills")
        yield from ui.type_into("bill_search", params["merchant"])
        node = ui.find("bill_summary")
        yield Answer(text=node.text.partition("支出")[2] if node else "")


class LastTransfer(WalletTemplate):
    id = "wallet.last_transfer"
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        bill = pick(rng, [b for b in _wallet(world)["history"] if b["kind"] == "transfer"])
        # this task's own amount of that transfer
        cents = rng.randrange(10, 2000) * 100 + rng.choice((0, 0, 0, 50))
        return {
            "bill_id": bill["id"],
            "name": bill["merchant"],
            "amount_cents": cents,
        }

    def setup(self, it: Interaction, params: Params) -> None:
        for bill in it.data["bills"]:
            if bill["id"] == params["bill_id"]:
                bill["amount_cents"] = params["amount_cents"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"我上一次用钱包转账给{name}，转了多少钱？", f"查一下我最近一次给{name}转账的金额",
                f"在钱包账单里找到我最后一笔转给{name}的钱，是多少？"],
            en=[f"How much did I send {name} in my last wallet transfer to them?",
                f"Look up the amount of my most recent wallet transfer to {name}",
                f"Find my latest transfer to {name} in the wallet bills: how much was it?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        bills = {b["id"]: b for b in diff.before["apps"][WALLET]["bills"]}
        return Money(bills[params["bill_id"]]["amount_cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["amount_cents"] + 1000)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("钱包")
        yield ui.tap("entry_bills")
        yield from ui.type_into("bill_search", params["name"])
        yield ui.back()  # hide the keyboard to see the matching bills
        yield from ui.scroll_to(f"bill_{params['bill_id']}")
        yield ui.tap(f"bill_{params['bill_id']}")
        node = ui.find("bill_amount")
        yield Answer(text=node.text if node else "")


class BankCardTail(WalletTemplate):
    id = "wallet.bank_card_tail"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        cards = _wallet(world)["bank_cards"]
        card = pick(rng, cards)
        # this task's own card numbers: every card's tail seeded and distinct
        numbers = rng.sample(range(10000), len(cards))
        tails = {str(c["id"]): f"{n:04d}" for c, n in zip(cards, numbers, strict=True)}
        other = next(t for i, t in tails.items() if i != card["id"])
        return {
            "card_id": card["id"],
            "bank": card["bank"],
            "type": card["type"],
            "tails": tails,
            "last4": tails[card["id"]],
            "other_last4": other,
        }

    def setup(self, it: Interaction, params: Params) -> None:
        for card in it.data["bank_cards"]:
            if card["id"] in params["tails"]:
                card["last4"] = params["tails"][card["id"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        bank, kind = params["bank"], params["type"]
        return phrased(
            zh=[f"钱包里绑定的{bank}{kind}，卡号尾号是多少？",
                f"帮我查一下钱包里那张{bank}{kind}的尾号",
                f"我在钱包绑了张{bank}{kind}，它的卡号尾号是什么？"],
            en=[f"What are the last four digits of the {bank} card ({kind}) in my wallet?",
                f"Look up the last four digits of my {bank} card ({kind}) in the wallet",
                f"I've linked a {bank} card ({kind}) to my wallet: what are its last four digits?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        cards = {c["id"]: c for c in diff.before["apps"][WALLET]["bank_cards"]}
        return digit_code(cards[params["card_id"]]["last4"])

    def wrong_answer(self, params: Params) -> str:
        return str(params["other_last4"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("钱包")
        yield ui.tap("entry_cards")
        node = ui.find(f"card_{params['card_id']}")
        digits = node.children[-1].text if node and node.children else ""
        yield Answer(text=digits.replace("*", "").strip())


TEMPLATES: tuple[TaskTemplate, ...] = (
    Transfer(),
    TransferFromNote(),
    Balance(),
    SpentAtMerchant(),
    LastTransfer(),
    BankCardTail(),
)
