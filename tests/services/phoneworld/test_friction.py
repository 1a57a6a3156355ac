"""Friction in task episodes: splash screens, the first-run permission dialog and pop-ups, seeded
by the task seed, shown once each, in that order, and never a change of app data."""

from __future__ import annotations

import pytest

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import SPLASH_SECONDS
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
    skipped = [n for n in notes if n.endswith(("splash_skip", "popup_close"))]
    assert len(notes) == len(smooth) + len(skipped)
