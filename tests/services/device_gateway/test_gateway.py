"""The gateway end to end: real NATS, a real adb server, real adbutils, PhoneWorld phones over
ADB. Lease, reset (and the task set-up broadcast), observe, act, tasks checked by PhoneWorld's
own verifier, safe typing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import BaseModel

from phonebuddy.bus import RemoteError
from phonebuddy.device_gateway.phone import png_size
from phonebuddy.phoneworld.adb.task_setup import TASK_SETUP_ACTION
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.phoneworld.tasks.runner import instantiate, start
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import (
    Answer,
    Click,
    ErrorCode,
    Open,
    ScreenSize,
    Source,
    TaskSpec,
    Type,
    from_pixels,
    screen_elements,
)
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import EnvVerb

SCREEN = ScreenSize(width=1080, height=2400)
HOSTILE = "a; rm -rf / && $(reboot) 'x\" \\"


def tap_on(device: Device, resource_id: str) -> Click:
    [node] = device.ui_tree().find(resource_id=resource_id)
    return Click(coordinate=from_pixels(node.bounds.center, device.screen))


def notes_spec(world: World) -> TaskSpec:
    return instantiate(get_template("notes.create"), world, 0).spec


class RawActRequest(BaseModel):
    """An act request as a client might send it, with the action unchecked (no typed model
    would let the test build a bad one)."""

    lease_id: str
    action: dict[str, Any]


async def test_lease_reset_and_observe_show_the_phone_as_phoneworld_sees_it(
    start_world, start_gateway, world: World
) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        [address] = phones.addresses
        device = phones.device(address)
        device.act(Open(text="com.pw.shop"))  # somewhere the reset must leave
        lease = await gateway.lease(apps=["com.pw.notes"])
        assert (lease.source, lease.device_id, lease.screen) == (Source.REAL, address, SCREEN)
        assert lease.instance_id == gateway.instance_id

        reply = await gateway.reset(lease, notes_spec(world))
        assert reply.frame is not None
        assert reply.frame.ref == reply.observation.frame
        assert reply.frame.ref.media_type == "image/png"
        assert png_size(reply.frame.data) == SCREEN
        assert reply.frame.data == device.frame("png").data  # the very pixels PhoneWorld drew
        assert reply.observation.screen == SCREEN
        assert reply.observation.foreground_app is None  # home
        assert device.foreground is None
        tree = reply.observation.ui_tree
        assert tree is not None
        assert tree == device.ui_tree()
        [icon] = tree.find(resource_id="com.pw.launcher:id/icon_notes")
        assert icon.text == "备忘录"
        assert tree.find(resource_id="com.android.systemui:id/clock")

        await gateway.act(lease, Open(text="Notes"))
        observed = await gateway.observe(lease, image_format="jpeg", include_ui_tree=False)
        assert observed.observation.foreground_app == "com.pw.notes"
        assert observed.observation.ui_tree is None
        assert observed.frame is not None
        assert observed.frame.ref.media_type == "image/jpeg"
        assert observed.frame.data.startswith(b"\xff\xd8")
        no_frame = await gateway.observe(lease, include_frame=False)
        assert no_frame.frame is None
        assert no_frame.observation.ui_tree is not None
        assert no_frame.observation.ui_tree.find(resource_id="com.pw.notes:id/new_note")
        assert await gateway.release(lease)
        assert device.foreground is None  # tidied: the task's apps stopped, home


async def test_tap_a_button_and_type_chinese_text(start_world, start_gateway) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        [address] = phones.addresses
        device = phones.device(address)
        lease = await gateway.lease()
        assert (await gateway.act(lease, Open(text="备忘录"))).effect == "applied"
        assert device.foreground == "com.pw.notes"
        await gateway.act(lease, tap_on(device, "com.pw.notes:id/new_note"))
        await gateway.act(lease, tap_on(device, "com.pw.notes:id/title"))
        reply = await gateway.act(lease, Type(text="周末计划 🙂"), observe=True)
        assert reply.effect == "applied"
        [title] = device.ui_tree().find(resource_id="com.pw.notes:id/title")
        assert title.text == "周末计划 🙂"
        assert reply.observation is not None
        assert reply.observation.ui_tree is not None
        assert reply.observation.ui_tree.find(text="周末计划 🙂")


async def test_typed_text_with_shell_syntax_is_typed_exactly_and_runs_nothing(
    start_world, start_gateway
) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        [address] = phones.addresses
        device, phone = phones.device(address), phones.phone(address)
        lease = await gateway.lease()
        await gateway.act(lease, Open(text="备忘录"))
        await gateway.act(lease, tap_on(device, "com.pw.notes:id/new_note"))
        await gateway.act(lease, tap_on(device, "com.pw.notes:id/title"))
        before = len(phone.history)
        assert (await gateway.act(lease, Type(text=HOSTILE))).effect == "applied"
        ran = list(phone.history)[before:]
        assert ran[0] == ("input", "text", "a;%srm%s-rf%s/%s&&%s$(reboot)%s'x\"%s\\")
        assert [argv[0] for argv in ran] == ["input", "echo"]  # echo: the exit-status marker
        [title] = device.ui_tree().find(resource_id="com.pw.notes:id/title")
        assert title.text == HOSTILE

        before = len(phone.history)
        reply = await gateway.act(lease, Open(text="x; reboot && $(id)"))
        assert reply.effect == "no_op"
        assert list(phone.history)[before:] == []  # nothing reached the phone
        names = {argv[0] for argv in phone.history}
        assert names <= {"input", "echo", "monkey", "getprop", "wm", "pm", "screencap", "rm",
                         "uiautomator", "cat", "dumpsys", "am"}  # fmt: skip


@pytest.mark.parametrize("template_id", ["notes.create", "messages.send"])
async def test_a_task_solved_through_the_gateway_passes_phoneworlds_verifier(
    start_world, start_gateway, solve, template_id: str
) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        success, reason = await solve(gateway, phones, template_id)
        assert success, reason


async def test_reset_clears_the_tasks_apps_and_goes_home(
    start_world, start_gateway, oracle
) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        [address] = phones.addresses
        device = phones.device(address)
        fresh_notes = copy.deepcopy(device.state["apps"]["com.pw.notes"]["notes"])
        instance, actions = oracle("notes.create")
        lease = await gateway.lease()
        for action in actions:
            await gateway.act(lease, action)
        assert device.state["apps"]["com.pw.notes"]["notes"] != fresh_notes
        assert device.foreground == "com.pw.notes"
        await gateway.reset(lease, instance.spec)
        assert device.state["apps"]["com.pw.notes"]["notes"] == fresh_notes
        assert device.foreground is None


async def test_with_a_setup_action_reset_gives_the_phone_its_tasks_start_state(
    start_world, start_gateway, world
) -> None:
    instance = instantiate(get_template("settings.toggle"), world, 5, language="en")
    sim = Device(world)
    expected = start(sim, instance)
    async with (
        start_world(devices=1) as phones,
        start_gateway(phones.addresses, task_setup_action=TASK_SETUP_ACTION) as gateway,
    ):
        [address] = phones.addresses
        lease = await gateway.lease()
        await gateway.act(lease, Open(text="Notes"))
        await gateway.reset(lease, instance.spec)
        assert phones.device(address).snapshot() == expected


async def test_a_phone_without_the_setup_receiver_refuses_the_task(
    start_world, start_gateway, world
) -> None:
    async with (
        start_world(devices=1) as phones,
        start_gateway(phones.addresses, task_setup_action="com.example.NO_RECEIVER") as gateway,
    ):
        instance = instantiate(get_template("settings.toggle"), world, 0, language="en")
        lease = await gateway.lease()
        with pytest.raises(RemoteError) as raised:
            await gateway.reset(lease, instance.spec)
        assert raised.value.code == ErrorCode.UNSUPPORTED
        assert "no receiver for the set-up intent" in raised.value.message


async def test_verify_is_unsupported_for_real_devices(start_world, start_gateway) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        lease = await gateway.lease()
        with pytest.raises(RemoteError) as raised:
            await gateway.call(
                EnvVerb.VERIFY, m.VerifyRequest(lease_id=lease.lease_id), m.VerifyReply
            )
        assert raised.value.code == ErrorCode.UNSUPPORTED
        assert "rubric judge" in raised.value.message


async def test_lease_errors_are_typed(start_world, start_gateway) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        with pytest.raises(RemoteError) as raised:
            await gateway.lease(apps=["com.example.absent"])
        assert raised.value.code == ErrorCode.UNKNOWN_APP
        with pytest.raises(RemoteError) as raised:
            await gateway.lease(apps=["No Such App"])
        assert raised.value.code == ErrorCode.UNKNOWN_APP
        lease = await gateway.lease()
        with pytest.raises(RemoteError) as raised:
            await gateway.lease()
        assert raised.value.code == ErrorCode.NO_DEVICE_AVAILABLE
        assert raised.value.retryable
        assert await gateway.release(lease)
        assert not await gateway.release(lease)
        with pytest.raises(RemoteError) as raised:
            await gateway.observe(lease)
        assert raised.value.code == ErrorCode.LEASE_NOT_FOUND
        again = await gateway.lease()
        renewed = await gateway.call(
            EnvVerb.RENEW, m.RenewRequest(lease_id=again.lease_id, ttl_s=5), m.Lease
        )
        assert renewed.lease_id == again.lease_id


async def test_direct_tools_and_final_actions(start_world, start_gateway) -> None:
    from phonebuddy.protocol import CallTool, Terminate, TerminateStatus

    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        lease = await gateway.lease()
        tool = await gateway.act(lease, CallTool(name="create_note", arguments={"title": "x"}))
        assert tool.effect == "no_op"
        final = await gateway.act(lease, Terminate(status=TerminateStatus.SUCCESS))
        assert final.effect == "final"
        assert (await gateway.act(lease, Answer(text="42"))).effect == "final"
        metrics = await gateway.metrics()
        assert 'phonebuddy_gateway_steps_total{outcome="final"} 2.0' in metrics
        assert "phonebuddy_gateway_step_latency_seconds_bucket{device=" in metrics


async def test_coordinates_that_are_not_integers_are_an_invalid_request(
    start_world, start_gateway
) -> None:
    """`"500"` and `500.0` are not coordinates: the gateway answers invalid_request, taps
    nothing, and goes on serving."""
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        [address] = phones.addresses
        phone = phones.phone(address)
        lease = await gateway.lease()
        bad = {  # where the error is -> the action
            "action.click.coordinate.0": {"action": "click", "coordinate": ["500", 500]},
            "action.click.coordinate.1": {"action": "click", "coordinate": [500, 500.0]},
            "action.long_press.coordinate.0": {"action": "long_press", "coordinate": ["5", 500]},
            "action.swipe.coordinate2.0": {
                "action": "swipe",
                "coordinate": [1, 2],
                "coordinate2": [9.0, 4],
            },
        }
        before = len(phone.history)
        for where, action in bad.items():
            request = RawActRequest(lease_id=lease.lease_id, action=action)
            with pytest.raises(RemoteError) as raised:
                await gateway.call(EnvVerb.ACT, request, m.ActReply)
            assert raised.value.code == ErrorCode.INVALID_REQUEST, action
            message = raised.value.message
            assert f"field '{where}': Input should be a valid integer" in message, message
        tapped = [argv for argv in list(phone.history)[before:] if argv[0] == "input"]
        assert tapped == []  # nothing reached the screen
        good = RawActRequest(
            lease_id=lease.lease_id, action={"action": "click", "coordinate": [500, 500]}
        )
        assert (await gateway.call(EnvVerb.ACT, good, m.ActReply)).effect == "applied"


def element_index(observation: m.Observation, resource_id: str) -> int:
    [node] = observation.ui_tree.find(resource_id=resource_id)  # type: ignore[union-attr]
    elements = screen_elements(observation.ui_tree, observation.screen)
    return next(e.index for e in elements if e.bounds == node.bounds)


async def test_element_actions_resolve_against_the_tree_the_policy_saw(
    start_world, start_gateway, world: World
) -> None:
    """`click` with an element taps that element's centre, as the last observation listed it;
    the reply carries the point; an element the screen does not list taps nothing."""
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        [address] = phones.addresses
        device, phone = phones.device(address), phones.phone(address)
        lease = await gateway.lease(apps=["com.pw.notes"])
        await gateway.reset(lease, notes_spec(world))
        reply = await gateway.act(lease, Open(text="备忘录"), observe=True)
        assert reply.observation is not None
        new_note = element_index(reply.observation, "com.pw.notes:id/new_note")
        point = tap_on(device, "com.pw.notes:id/new_note").coordinate
        reply = await gateway.act(lease, Click(element=new_note), observe=True)
        assert reply.effect == "applied"
        assert reply.action == Click(element=new_note, coordinate=point)
        assert reply.observation is not None
        title = element_index(reply.observation, "com.pw.notes:id/title")
        typed = await gateway.act(lease, Type(text="周末计划", element=title), observe=True)
        assert typed.action is not None
        assert typed.action.coordinate is not None  # type: ignore[union-attr]
        [field] = device.ui_tree().find(resource_id="com.pw.notes:id/title")
        assert field.text == "周末计划"

        before = len(phone.history)
        with pytest.raises(RemoteError) as raised:
            await gateway.act(lease, Click(element=63))
        assert raised.value.code == ErrorCode.INVALID_REQUEST
        assert "element 63 is not on the screen" in raised.value.message
        assert [argv for argv in list(phone.history)[before:] if argv[0] == "input"] == []
