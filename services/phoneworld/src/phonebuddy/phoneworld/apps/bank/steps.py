"""What the Bank templates share: reading the seeded history, the checks of a transfer or a
repayment against the state diff (the SMS codes the bank texted are the transfer's own
effect), and the oracle's steps (a transfer confirmed with the code read in 信息)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.bank.content import (
    BANK,
    BANK_NAME,
    EXPENSE,
    PAYEE_BINS,
    SAVED_PAYEES,
    SMS_SENDER,
    card_number,
    extra_expense,
    month_of,
)
from phonebuddy.phoneworld.apps.contacts.app import MESSAGES
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import numbers_in
from phonebuddy.phoneworld.tasks.base import Params
from phonebuddy.phoneworld.tasks.cross_app.steps import paste_into
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action

RECORDS = f"apps/{BANK}/records"
BALANCE = f"apps/{BANK}/balance_cents"
PAYEES = f"apps/{BANK}/payees"
BILL = f"apps/{BANK}/bill"
THREADS = f"apps/{MESSAGES}/threads"
TRANSFER_NOTES = ("生活费", "还你的饭钱", "份子钱", "房租", "借款", "聚餐AA")
_ITEM = r"\[[^\]]+\]"


# -- seeded content -----------------------------------------------------------------------------


def content(world: World) -> Any:
    return world.content(BANK)


def history(world: World) -> tuple[Any, ...]:
    return tuple(content(world)["transactions"])


def in_month(world: World, month: int, kind: str | None = EXPENSE) -> list[Any]:
    return [t for t in history(world) if month_of(t["time"]) == month and kind in (None, t["kind"])]


def total(rows: list[Any]) -> int:
    return sum(int(t["amount_cents"]) for t in rows)


def seeded_records(
    rng: random.Random,
    months: tuple[int, ...] = (1, 2),
    most: int = 3,
    also: tuple[tuple[int, str], ...] = (),
) -> list[Any]:
    """A task's own few expenses among the history: 1 to `most` in each of `months` and one
    more of each (month, category) of `also`, newest first, for its setup to put in the records
    (`add_records`)."""
    rows = [extra_expense(rng, m) for m in months for _ in range(rng.randint(1, most))]
    rows += [extra_expense(rng, m, category) for m, category in also]
    rows.sort(key=lambda r: r["time"], reverse=True)
    return [{"id": f"t-s{i + 1:02d}", "serial": f"{rng.randrange(10**11, 10**12)}", **row}
            for i, row in enumerate(rows)]  # fmt: skip


def add_records(it: Interaction, records: list[Any]) -> None:
    """Setup: the task's own records (`seeded_records`) are on the phone."""
    it.data["records"] = [*(dict(r) for r in records), *it.data["records"]]


def records_before(diff: StateDiff, month: int, kind: str = EXPENSE) -> list[Any]:
    """The phone's records of `kind` in `month` at the start."""
    return [r for r in diff.value_before(RECORDS) if month_of(r["time"]) == month
            and r["kind"] == kind]  # fmt: skip


def saved_payees(world: World) -> list[Any]:
    return list(content(world)["people"][:SAVED_PAYEES])


def payee_params(world: World, index: int) -> Params:
    person = saved_payees(world)[index]
    return {"payee_id": f"payee-{index + 1}", "name": person["name"], "card": person["card"]}


def an_amount(rng: random.Random) -> int:
    return rng.randrange(50, 3000) * 100 + rng.choice((0, 0, 0, 50, 88))


def new_card(rng: random.Random) -> str:
    return card_number(rng, rng.choice(PAYEE_BINS), rng.choice((16, 19)))


def yuan_text(cents: int) -> str:
    """How an instruction states an amount: '500' or '88.5' or '88.25'."""
    return f"{cents / 100:.2f}".rstrip("0").rstrip(".")


# -- verification -------------------------------------------------------------------------------


def _is_code(message: Any) -> bool:
    return bool(message.get("incoming")) and str(message.get("text", "")).startswith(
        f"【{BANK_NAME}】验证码"
    )


def claim_codes(diff: StateDiff) -> None:
    """Claim the code SMS the bank sent in the episode (in its thread, or a new one)."""
    threads = {t["id"]: t for t in diff.after["apps"][MESSAGES]["threads"]}
    for change in diff.changes:
        if change.kind != "added" or not change.path.startswith(THREADS + "["):
            continue
        rest = change.path[len(THREADS) :]
        if re.fullmatch(_ITEM, rest):
            thread = change.after
            if thread["address"] == SMS_SENDER[0] and all(_is_code(m) for m in thread["messages"]):
                diff.touched(change.path)
        elif re.fullmatch(_ITEM + "/messages" + _ITEM, rest) and _is_code(change.after):
            thread_id = rest[1 : rest.index("]")]
            if threads.get(thread_id, {}).get("address") == SMS_SENDER[0]:
                diff.touched(change.path)


def balance_drop(diff: StateDiff) -> int:
    diff.touched(BALANCE)
    return int(diff.value_before(BALANCE)) - int(diff.value_after(BALANCE) or 0)


def transfer_problems(diff: StateDiff, expected: list[tuple[str, str, int]]) -> list[str]:
    """The debit card transferred exactly these (payee name, card, cents), with the bank's
    codes; claims the records, the balance and the code SMS."""
    claim_codes(diff)
    made = diff.added(RECORDS)
    problems = []
    got = sorted((r.get("payee", ""), r.get("payee_card", ""), r["amount_cents"]) for r in made
                 if r.get("category") == "转账")  # fmt: skip
    if len(got) != len(made):
        problems.append(f"{len(made) - len(got)} other debit(s) than transfers")
    if got != sorted(expected):
        problems.append(f"transfers {got}, expected {sorted(expected)}")
    drop = balance_drop(diff)
    if drop != sum(cents for *_, cents in expected):
        problems.append(f"the balance went down by {drop} cents")
    return problems


def note_problems(diff: StateDiff, note: str) -> list[str]:
    notes = [r.get("note", "") for r in diff.after["apps"][BANK]["records"][:1]]
    return [] if notes == [note] else [f"the transfer's note is {notes}, expected {note!r}"]


# -- the oracle's steps -------------------------------------------------------------------------


def open_bank(ui: OracleUI) -> Iterator[Action]:
    yield ui.open("银行")


def fill(ui: OracleUI, **fields: str) -> Iterator[Action]:
    for field, text in fields.items():
        if text:
            yield from ui.type_into(field, text)


def open_thread_titled(ui: OracleUI, title: str) -> Iterator[Action]:
    """Open 信息 (back to its list if a thread was left open) and the thread `title`."""
    yield ui.open("信息")
    for _ in range(4):
        if ui.visible("compose"):
            break
        yield ui.back()
    yield from ui.scroll_to(text=title)
    yield ui.tap(text=title)


def confirm_with_code(ui: OracleUI) -> Iterator[Action]:
    """On the confirmation screen: ask for the code, copy it in 信息, paste it, confirm."""
    yield ui.tap("send_code")
    yield from open_thread_titled(ui, SMS_SENDER[1])
    while ui.device.scroll_room("content")[1] > 0:
        yield ui.page_down()
    copies = [n for n in ui.device.ui_tree().walk() if ":id/copy_" in n.resource_id]
    if not copies:
        raise OracleError("no code SMS in the bank's thread")
    yield ui.tap(copies[-1].resource_id)
    yield from open_bank(ui)
    yield from paste_into(ui, "code")
    yield ui.tap("confirm_transfer")


def transfer_to_saved(ui: OracleUI, name: str, amount: str, note: str = "") -> Iterator[Action]:
    """From the bank's home: a transfer to a saved payee, confirmed with the SMS code."""
    yield ui.tap("transfer")
    yield ui.tap(text=name)
    yield from fill(ui, amount=amount, note=note)
    yield from ui.scroll_to("next")
    yield ui.tap("next")
    yield from confirm_with_code(ui)


def rows_on_screen(ui: OracleUI) -> dict[str, tuple[str, str, float]]:
    """The transactions listed now: id -> (merchant, subtitle, signed amount)."""
    prefix = f"{BANK}:id/tx_"
    rows = {}
    for node in ui.device.ui_tree().walk():
        if node.resource_id.startswith(prefix):
            texts = [n.text for n in node.walk() if n.text]
            amounts = [t for t in texts if t[:1] in "+-"]
            if len(texts) < 3 or not amounts:  # cut off at the edge: read it once scrolled
                continue
            amount = amounts[0]
            merchant, subtitle = [t for t in texts if t != amount][:2]
            value = abs(numbers_in(amount)[0])
            rows[node.resource_id] = (merchant, subtitle, value)
    return rows


class Seen:
    """The transactions an oracle has read while scrolling a list: id -> (merchant, subtitle,
    amount)."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[str, str, float]] = {}

    def scan(self, ui: OracleUI) -> Iterator[Action]:
        """Scroll through the whole list, remembering every row shown."""
        self.rows |= rows_on_screen(ui)
        while ui.device.scroll_room("content")[1] > 0:
            yield ui.page_down()
            self.rows |= rows_on_screen(ui)
