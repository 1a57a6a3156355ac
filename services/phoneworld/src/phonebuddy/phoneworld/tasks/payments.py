"""What a verifier expects of the wallet when a task pays or transfers money: exactly one new
bill of the right kind and amount, and the balance down by exactly that amount.

    problems = wallet_payment_problems(diff, amount_cents=order["total_cents"],
                                       reference=order["id"])

Both checks claim the wallet's bills and balance, so a second payment, a payment of another
amount or a balance that moved otherwise is reported here rather than as a side effect.
"""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.tasks.diff import StateDiff

WALLET = "com.pw.wallet"
WALLET_BILLS = f"apps/{WALLET}/bills"
WALLET_BALANCE = f"apps/{WALLET}/balance_cents"


def wallet_payment_problems(
    diff: StateDiff,
    *,
    amount_cents: int,
    reference: str | None = None,
    merchant: str | None = None,
) -> list[str]:
    """The wallet paid `amount_cents` once, for `reference` (the paying app's order id) and to
    `merchant` where given; claims the wallet's bills and balance."""
    expected = {"reference": reference, "merchant": merchant}
    return _one_bill_problems(
        diff,
        kind="payment",
        amount_cents=amount_cents,
        fields={key: value for key, value in expected.items() if value is not None},
    )


def wallet_transfer_problems(
    diff: StateDiff, *, amount_cents: int, payee_id: str, note: str | None = None
) -> list[str]:
    """The wallet transferred `amount_cents` once, to `payee_id` with `note` where given;
    claims the wallet's bills and balance."""
    fields: dict[str, Any] = {"payee_id": payee_id}
    if note is not None:
        fields["note"] = note
    return _one_bill_problems(diff, kind="transfer", amount_cents=amount_cents, fields=fields)


def _one_bill_problems(
    diff: StateDiff, *, kind: str, amount_cents: int, fields: dict[str, Any]
) -> list[str]:
    bills = diff.added(WALLET_BILLS)
    problems = _balance_problems(diff, amount_cents)
    if len(bills) != 1:
        found = [(b.get("kind"), b.get("reference") or b.get("merchant")) for b in bills]
        return [f"expected one wallet {kind}, found {len(bills)}: {found}", *problems]
    bill = bills[0]
    if bill.get("kind") != kind:
        problems.append(f"the wallet bill is a {bill.get('kind')}, expected a {kind}")
    problems += [
        f"the wallet {kind}'s {key} is {bill.get(key)!r}, expected {value!r}"
        for key, value in fields.items()
        if bill.get(key) != value
    ]
    if bill.get("amount_cents") != amount_cents:
        problems.append(
            f"the wallet {kind} is {bill.get('amount_cents')} cents, expected {amount_cents}"
        )
    return problems


def _balance_problems(diff: StateDiff, amount_cents: int) -> list[str]:
    diff.touched(WALLET_BALANCE)
    spent = (diff.value_before(WALLET_BALANCE) or 0) - (diff.value_after(WALLET_BALANCE) or 0)
    if spent != amount_cents:
        return [f"the wallet balance went down by {spent} cents, expected {amount_cents}"]
    return []
