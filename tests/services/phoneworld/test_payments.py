"""The shared verifier checks: one wallet payment or transfer (bill and balance), and the diff
helpers every app's templates use (one added item, exactly these changes)."""

from phonebuddy.phoneworld.tasks.diff import A_TIME, StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.payments import (
    WALLET,
    wallet_payment_problems,
    wallet_transfer_problems,
)


def state(bills: list[dict], balance: int) -> dict:
    return {"os": {}, "apps": {WALLET: {"bills": bills, "balance_cents": balance}}, "ui": {}}


OLD_BILL = {"id": "b0", "kind": "payment", "merchant": "m", "amount_cents": 5, "reference": "x"}
BEFORE = state([OLD_BILL], 10_000)


def payment(amount: int, reference: str = "order-1", merchant: str = "川味观") -> dict:
    return {
        "id": f"b-{reference}",
        "kind": "payment",
        "merchant": merchant,
        "amount_cents": amount,
        "reference": reference,
    }


def test_one_exact_payment_passes_and_claims_the_wallet() -> None:
    diff = StateDiff(BEFORE, state([OLD_BILL, payment(2_500)], 7_500))
    problems = wallet_payment_problems(
        diff, amount_cents=2_500, reference="order-1", merchant="川味观"
    )
    assert problems == []
    assert diff.unexpected() == []


def test_near_miss_payments_are_named() -> None:
    wrong_amount = StateDiff(BEFORE, state([OLD_BILL, payment(2_600)], 7_400))
    assert len(wallet_payment_problems(wrong_amount, amount_cents=2_500)) == 2
    other_order = StateDiff(BEFORE, state([OLD_BILL, payment(2_500, "order-2")], 7_500))
    [problem] = wallet_payment_problems(other_order, amount_cents=2_500, reference="order-1")
    assert "reference" in problem
    twice = StateDiff(BEFORE, state([OLD_BILL, payment(2_500), payment(2_500, "o3")], 5_000))
    assert wallet_payment_problems(twice, amount_cents=2_500)[0].startswith("expected one")
    unpaid = StateDiff(BEFORE, BEFORE)
    assert wallet_payment_problems(unpaid, amount_cents=2_500) != []


def test_a_transfer_is_not_a_payment() -> None:
    transfer = {
        "id": "b1",
        "kind": "transfer",
        "merchant": "王芳",
        "amount_cents": 800,
        "reference": "",
        "payee_id": "pe-1",
        "note": "饭钱",
    }
    diff = StateDiff(BEFORE, state([OLD_BILL, transfer], 9_200))
    assert wallet_transfer_problems(diff, amount_cents=800, payee_id="pe-1", note="饭钱") == []
    assert wallet_payment_problems(diff, amount_cents=800) != []


def test_one_added_and_expect_changes_claim_what_they_check() -> None:
    old, new = {"id": "i1", "n": 1, "t": None}, {"id": "i2", "n": 0, "t": None}
    before = {"os": {}, "apps": {"a": {"items": [old]}}, "ui": {}}
    after = {"os": {}, "apps": {"a": {"items": [{**old, "n": 2, "t": 5}, new]}}, "ui": {}}
    diff = StateDiff(before, after)
    item, problems = one_added(diff, "apps/a/items", "item")
    assert (item, problems) == (new, [])
    expected = {"apps/a/items[i1]/n": 2, "apps/a/items[i1]/t": A_TIME}
    assert expect_changes(diff, "apps/a/items[i1]", expected) == []
    assert diff.unexpected() == []
    again = StateDiff(before, after)
    assert expect_changes(again, "apps/a/items[i1]", {"apps/a/items[i1]/n": 2}) != []
