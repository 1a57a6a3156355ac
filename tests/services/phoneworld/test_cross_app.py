"""The cross-app templates: what their setups plant shows where an agent looks, the clipboard
carries text between apps exactly, and their verifiers read messages the way people write."""

import pytest

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.phoneworld.tasks.cross_app import TEMPLATES
from phonebuddy.phoneworld.tasks.cross_app.schedule import TASK_MAIL_ID, TrainMailAlarm
from phonebuddy.phoneworld.tasks.cross_app.sharing import ProductToChat
from phonebuddy.phoneworld.tasks.cross_app.steps import MENU_COPY, MENU_PASTE
from phonebuddy.phoneworld.tasks.oracle import PERMISSION_ALLOW, OracleUI
from phonebuddy.phoneworld.tasks.registry import all_templates
from phonebuddy.phoneworld.tasks.runner import evaluate, instantiate, start
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, CallTool, Category, Open

MESSENGER = "com.pw.messenger"
FOOD = "com.pw.food"


def template(template_id: str) -> TaskTemplate:
    return next(t for t in TEMPLATES if t.id == template_id)


def act(device: Device, action: Action) -> None:
    result = device.act(action)
    assert result.effect == "applied", result.note


def started(world: World, device: Device, template_id: str, seed: int = 0) -> dict:
    instance = instantiate(template(template_id), world, seed)
    start(device, instance)
    return instance.params


def open_app(device: Device, name: str) -> OracleUI:
    """Open an app by name, allowing its first-use permission prompt."""
    ui = OracleUI(device)
    act(device, Open(text=name))
    if ui.visible(PERMISSION_ALLOW):
        act(device, ui.tap(PERMISSION_ALLOW))
    return ui


def open_chat(device: Device, params: dict) -> OracleUI:
    """Search a WeChat friend by name and open the chat with them."""
    ui = open_app(device, "微信")
    for widget in ("search", "query"):
        act(device, ui.tap(widget))
    device.type_text(params["friend"])
    act(device, ui.tap(f"result_{params['friend_id']}"))
    return ui


def test_every_cross_app_template_is_registered_and_spans_apps() -> None:
    registered = {t.id for t in all_templates()}
    assert len(TEMPLATES) >= 8
    for t in TEMPLATES:
        assert t.id in registered
        assert t.id.startswith("cross_app.")
        assert t.category is Category.CROSS_APP
        assert len(set(t.apps)) >= 2


def test_a_chat_address_is_copied_and_pasted_into_food_exactly(
    world: World, device: Device
) -> None:
    params = started(world, device, "cross_app.chat_address_food_order")
    ui = open_chat(device, params)
    act(device, ui.long_press(text=params["address"]))
    act(device, ui.tap(MENU_COPY))
    assert device.state["os"]["clipboard"] == params["address"]

    ui = open_app(device, "外卖")
    if ui.visible("promo_close"):
        act(device, ui.tap("promo_close"))
    for widget in ("tab_mine", "my_addresses", "add_address", "text"):
        act(device, ui.tap(widget))
    act(device, ui.long_press("text"))
    act(device, ui.tap(MENU_PASTE))
    field = ui.find(f"{FOOD}:id/text")
    assert field is not None
    assert field.text == params["address"]


def test_pasting_with_nothing_copied_is_a_no_op(world: World, device: Device) -> None:
    params = started(world, device, "cross_app.contact_number_to_chat")
    ui = open_chat(device, params)
    assert device.state["os"]["clipboard"] == ""
    act(device, ui.tap("input"))
    result = device.act(ui.long_press("input"))
    assert result.effect == "no_op"
    assert "clipboard is empty" in result.note


def test_the_planted_12306_mail_waits_unread_in_the_inbox(world: World, device: Device) -> None:
    params = started(world, device, TrainMailAlarm.id)
    ui = open_app(device, "邮件")
    act(device, ui.tap("folder_inbox"))
    row = ui.find(f"mail_{TASK_MAIL_ID}")
    assert row is not None
    texts = [node.text for node in row.walk()]
    assert "●" in texts
    assert any(params["train"] in text for text in texts)


@pytest.mark.parametrize("seed", range(40))
def test_train_alarms_ring_on_the_day_of_the_train(world: World, seed: int) -> None:
    params = instantiate(template(TrainMailAlarm.id), world, seed).params
    alarm = params["hour"] * 60 + params["minute"]
    depart_hour, depart_minute = map(int, params["depart"].split(":"))
    assert depart_hour * 60 + depart_minute - alarm == params["lead"]
    # Episodes start at 09:00: a later alarm rings today, an earlier one tomorrow.
    assert (alarm >= 10 * 60) if params["days"] == 0 else (alarm < 9 * 60)


def test_a_product_message_needs_the_price_not_just_numbers_in_the_name(
    world: World, device: Device
) -> None:
    task = ProductToChat()
    samples = (instantiate(task, world, seed).params for seed in range(200))
    params = next(p for p in samples if any(ch.isdigit() for ch in p["name"]))
    before = device.snapshot()

    def verdict_for(text: str) -> bool:
        device.restore(before)
        open_app(device, "微信")
        act(
            device,
            CallTool(name="send_message", arguments={"chat": params["friend"], "text": text}),
        )
        return evaluate(world, task, params, before, device.snapshot(), None).success

    price = params["price_cents"] / 100
    assert verdict_for(f"{params['name']} 才{price:.2f}元，怎么样？")
    assert not verdict_for(f"{params['name']} 怎么样？")
    assert not verdict_for(f"{params['name']} 才{price + 1:.2f}元")
