"""State diffs: keyed lists, claims, side effects, ignorable paths with wildcards."""

from phonebuddy.phoneworld.tasks.diff import StateDiff, diff_states


def state(apps: dict, **os_extra: object) -> dict:
    return {"os": {"clock": 1, **os_extra}, "apps": apps, "ui": {"anything": 1}}


BEFORE = state({"shop": {"orders": [{"id": "o1", "status": "paid"}], "views": 3}})


def test_keyed_lists_diff_by_id_and_ui_never_counts() -> None:
    orders = [{"id": "o2", "status": "new"}, {"id": "o1", "status": "shipped"}]
    after = state({"shop": {"orders": orders, "views": 3}})
    after["ui"] = {"anything": 2}
    changes = {c.path: c.kind for c in diff_states(BEFORE, after)}
    assert changes == {
        "apps/shop/orders[o2]": "added",
        "apps/shop/orders[o1]/status": "changed",
    }


def test_claimed_changes_pass_and_the_rest_are_side_effects() -> None:
    after = state({"shop": {"orders": [{"id": "o1", "status": "paid"},
                                       {"id": "o2", "status": "new"}], "views": 4}})  # fmt: skip
    diff = StateDiff(BEFORE, after)
    assert diff.added("apps/shop/orders") == [{"id": "o2", "status": "new"}]
    assert [c.path for c in diff.unexpected()] == ["apps/shop/views"]
    assert StateDiff(BEFORE, after, ignorable=["apps/shop/views"]).unexpected() != []
    ignoring = StateDiff(BEFORE, after, ignorable=["apps/shop/views"])
    ignoring.added("apps/shop/orders")
    assert ignoring.unexpected() == []


def test_wildcard_ignorable_paths_match_any_item_but_only_that_field() -> None:
    before = state({"mail": {"mails": [{"id": "m1", "read": False, "starred": False}]}})
    after = state({"mail": {"mails": [{"id": "m1", "read": True, "starred": True}]}})
    diff = StateDiff(before, after, ignorable=["apps/mail/mails[*]/read"])
    assert [c.path for c in diff.unexpected()] == ["apps/mail/mails[m1]/starred"]


def test_adding_an_item_does_not_claim_changes_to_other_items() -> None:
    after = state({"shop": {"orders": [{"id": "o1", "status": "cancelled"},
                                       {"id": "o2", "status": "new"}], "views": 3}})  # fmt: skip
    diff = StateDiff(BEFORE, after)
    diff.added("apps/shop/orders")
    assert [c.path for c in diff.unexpected()] == ["apps/shop/orders[o1]/status"]
    assert diff.value_after("apps/shop/orders[o1]/status") == "cancelled"
    assert diff.value_before("apps/shop/orders[o1]/status") == "paid"
