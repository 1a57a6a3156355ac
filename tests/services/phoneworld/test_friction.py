"""Friction in task episodes: splash screens, the first-run permission dialog and pop-ups, login
walls and loading pages, seeded by the task seed, shown once each (a login wall until passed), in
that order, and never a change of app data."""

from __future__ import annotations

import pytest

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import LOADING_SECONDS, SPLASH_SECONDS, SYSTEM
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.registry import all_templates
from phonebuddy.phoneworld.tasks.runner import (
    evaluate,
    ignorable_paths,
    instantiate,
    oracle_steps,
    start,
)
from phonebuddy.phoneworld.testing import ALLOW, Driver
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Click, Wait

SHOP = "com.pw.shop"
SEEDS = range(40)


def plan(world: World, seed: int) -> dict[str, list[str]]:
    return Device(world).friction_plan(seed)


def _seed_with(world: World, package: str, kinds: list[str]) -> int:
    return next(seed for seed in SEEDS if plan(world, seed).get(package) == kinds)


def _gets_past_friction(note: str) -> bool:
    """Whether an oracle step's note is a step past friction (not the template's own)."""
    friction_taps = ("splash_skip", "popup_close", "login_agree", "login_one_tap")
    return note.endswith(friction_taps) or note == f"waited {LOADING_SECONDS:g} s"


def _phone(world: World, seed: int) -> Driver:
    device = Device(world)
    device.reset(seed, friction=True)
    return Driver(device)


def test_the_plan_follows_the_seed_and_varies_across_seeds(world: World) -> None:
    plans = [plan(world, seed) for seed in SEEDS]
    assert plans == [plan(world, seed) for seed in SEEDS]
    with_splash = sum("splash" in p.get(SHOP, []) for p in plans)
    with_popup = sum("popup" in p.get(SHOP, []) for p in plans)
    assert 8 <= with_splash <= 32  # about half
    assert 4 <= with_popup <= 28  # about two in five
    assert any(SHOP not in p for p in plans)  # and some episodes without any
    assert Device(world).state["ui"]["friction"] == {}  # a plain phone has none


def test_splash_then_permission_then_popup_and_no_data_changes(world: World) -> None:
    phone = _phone(world, _seed_with(world, SHOP, ["splash", "popup"]))
    before = phone.device.snapshot()
    phone.act(phone.ui.open("购物"))
    assert phone.visible("splash_skip")
    assert phone.text("splash_skip").startswith("跳过")
    # The splash swallows every other tap; the app underneath is out of reach.
    result = phone.device.act(Click(coordinate=(500, 700)))
    assert result.effect == "no_op"
    assert "splash" in result.note
    phone.tap("splash_skip")
    assert phone.visible(ALLOW)  # the first-run permission dialog comes next
    phone.tap(ALLOW)
    assert phone.visible("popup_close")
    assert phone.visible("popup_action")
    phone.tap("popup_action")
    assert phone.device.state["ui"]["toast"] == "领取成功"
    assert not phone.visible("popup_close")
    assert phone.device.state["ui"]["overlay"] is None
    after = phone.device.snapshot()
    diff = StateDiff(before, after, ignorable=ignorable_paths(world, all_templates()[0]))
    assert diff.unexpected() == []  # a permission and the clock, both ignorable: no data
    # Shown once: back home and in again (a hot launch), then cold after a force stop.
    phone.act(phone.ui.back())
    phone.act(phone.ui.open("购物"))
    assert phone.device.state["ui"]["overlay"] is None
    phone.device.force_stop(SHOP)
    phone.act(phone.ui.open("购物"))
    assert phone.device.state["ui"]["overlay"] is None


def test_a_splash_ends_by_itself_when_its_time_is_up(world: World) -> None:
    seed = _seed_with(world, SHOP, ["splash"])
    phone = _phone(world, seed)
    phone.act(phone.ui.open("购物"))
    assert phone.visible("splash_skip")
    phone.act(Wait(time=SPLASH_SECONDS))
    assert not phone.visible("splash_skip")
    assert phone.visible(ALLOW)
    # Or by acting on: the first tap after the launch is swallowed, the second gets through.
    phone = _phone(world, seed)
    phone.act(phone.ui.open("购物"))
    assert phone.device.act(Click(coordinate=(500, 700))).effect == "no_op"
    assert phone.visible("splash_skip")
    phone.device.act(Click(coordinate=(500, 900)))  # under the permission dialog, by now
    assert not phone.visible("splash_skip")
    assert phone.visible(ALLOW)


def test_closing_a_popup_and_the_call_to_action_change_nothing_but_the_screen(
    world: World,
) -> None:
    seed = _seed_with(world, "com.pw.travel", ["popup"])
    for button, toast in (("popup_close", None), ("popup_action", "已是最新版本")):
        phone = _phone(world, seed)
        before = phone.device.snapshot()
        phone.act(phone.ui.open("旅行"))
        phone.tap(button)
        assert phone.device.state["ui"]["toast"] == toast
        assert phone.device.snapshot()["apps"] == before["apps"]


@pytest.mark.parametrize("template_id", ["shop.add_to_cart", "music.play_song"])
def test_the_oracle_gets_past_the_friction_of_its_seed_and_still_passes(
    world: World, template_id: str
) -> None:
    template = next(t for t in all_templates() if t.id == template_id)
    package = template.apps[0]
    seed = next(s for s in SEEDS if "splash" in plan(world, s).get(package, []))
    instance = instantiate(template, world, seed)
    device = Device(world)
    before = start(device, instance)
    played = list(oracle_steps(device, template, instance.params))
    notes = [result.note for _, result in played]
    assert f"{package}:id/splash_skip" in notes
    verdict = evaluate(world, template, instance.params, before, device.snapshot(), None)
    assert verdict.success, verdict.reason
    # The same task without friction: the same script, less the taps past it.
    plain = Device(world)
    plain.reset(seed)
    template.setup(Interaction(plain, package), instance.params)
    smooth = [result.note for _, result in oracle_steps(plain, template, instance.params)]
    assert len(notes) == len(smooth) + len([n for n in notes if _gets_past_friction(n)])


def _shop_phone_with(world: World, kind: str) -> Driver:
    """A phone whose shop shows `kind` friction this episode, opened past its start friction."""
    seed = next(s for s in SEEDS if kind in plan(world, s).get(SHOP, []))
    phone = _phone(world, seed)
    phone.device.act(phone.ui.open("购物"))
    while (step := phone.ui.past_friction()) is not None or phone.visible(ALLOW):
        phone.act(step or phone.ui.tap(ALLOW))
    if phone.visible("coupon_popup_ok"):
        phone.tap("coupon_popup_ok")
    return phone


def _to_checkout(phone: Driver) -> None:
    """From the shop's home: tick the first cart line and check out."""
    phone.tap("tab_cart")
    line = phone.device.state["apps"][SHOP]["cart"][0]["id"]
    phone.tap(f"select_{line}")
    phone.tap("checkout")


def test_a_login_wall_needs_the_agreement_and_back_leaves_the_screen(world: World) -> None:
    phone = _shop_phone_with(world, "login")
    before = phone.device.snapshot()
    _to_checkout(phone)
    assert phone.visible("login_one_tap")
    result = phone.device.act(phone.ui.tap("login_one_tap"))
    assert result.effect == "no_op"
    assert phone.device.state["ui"]["toast"] == "请先阅读并勾选同意协议"
    phone.back()  # leaves the checkout; the wall stays
    assert not phone.visible("login_one_tap")
    assert phone.device.top_entry(SHOP)["screen"] != "checkout"
    phone.tap("checkout")
    assert phone.visible("login_one_tap")
    phone.tap("login_close")
    assert phone.device.top_entry(SHOP)["screen"] != "checkout"
    phone.tap("checkout")
    phone.tap("login_agree")
    assert phone.ui.find("login_agree").checked  # type: ignore[union-attr]
    phone.tap("login_one_tap")
    assert phone.device.state["ui"]["toast"] == "登录成功"
    assert phone.device.top_entry(SHOP)["screen"] == "checkout"
    phone.back()
    phone.tap("checkout")  # logged in for the rest of the episode
    assert not phone.visible("login_one_tap")
    assert phone.device.snapshot()["apps"] == before["apps"]


def test_a_loading_page_takes_no_taps_until_it_has_loaded_once(world: World) -> None:
    phone = _shop_phone_with(world, "loading")
    phone.tap("search_box")
    phone.type_into("query", "充电宝")
    phone.tap("search_go")
    assert phone.visible("loading")
    result = phone.device.act(phone.ui.tap("loading"))
    assert result.effect == "no_op"
    assert "loading" in result.note
    phone.act(Wait(time=LOADING_SECONDS))
    assert not phone.visible("loading")
    assert phone.device.top_entry(SHOP)["screen"] == "results"
    phone.back()
    phone.tap("search_go")
    assert not phone.visible("loading")  # once per episode


@pytest.mark.parametrize(
    ("template_id", "kind"),
    [
        ("shop.buy_now", "login"),
        ("travel.book_earliest", "login"),
        ("travel.book_earliest", "loading"),
    ],
)
def test_oracles_get_past_login_walls_and_loading_pages(
    world: World, template_id: str, kind: str
) -> None:
    template = next(t for t in all_templates() if t.id == template_id)
    package = template.apps[0]
    seed = next(s for s in SEEDS if kind in plan(world, s).get(package, []))
    instance = instantiate(template, world, seed)
    device = Device(world)
    before = start(device, instance)
    notes = [result.note for _, result in oracle_steps(device, template, instance.params)]
    expected = f"{package}:id/login_one_tap" if kind == "login" else f"waited {LOADING_SECONDS} s"
    assert expected in notes
    verdict = evaluate(world, template, instance.params, before, device.snapshot(), None)
    assert verdict.success, verdict.reason


def test_a_keyboard_drawn_over_a_bottom_bar_is_hidden_before_its_button_is_tapped(
    world: World,
) -> None:
    """The keyboard-covers friction: food.order types a remark, then taps the checkout's bottom
    bar, which the keyboard now covers; the oracle hides the keyboard first (one step more than
    the same episode with a keyboard that makes room) and still succeeds."""
    template = next(t for t in all_templates() if t.id == "food.order")
    seed = next(
        s
        for s in SEEDS
        if SYSTEM in plan(world, s) and instantiate(template, world, s).params["remark"]
    )
    hidden = []
    for covers in (True, False):
        instance = instantiate(template, world, seed)
        device = Device(world)
        before = start(device, instance)
        if not covers:
            del device.state["ui"]["friction"][SYSTEM]
        notes = [r.note for _, r in oracle_steps(device, template, instance.params)]
        hidden.append(notes.count("hid the keyboard"))
        verdict = evaluate(world, template, instance.params, before, device.snapshot(), None)
        assert verdict.success, verdict.reason
    assert hidden[0] == hidden[1] + 1
