"""One text, one result: typing through the gateway (ADB: `input text`, Enter key events,
ADBKeyboard) leaves the same field contents as PhoneWorld's own `type` action over NATS, for
every code point class, in a single-line field, a multi-line one, and one whose Enter sends; and
the phone still observes and acts afterwards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from phonebuddy.bus import Bus
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.phoneworld.tasks.runner import instantiate
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Click, Open, Source, TaskSpec, Type, UINode, from_pixels
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import EnvVerb, env_lease_subject, env_verb_subject
from phonebuddy.protocol.text_entry import normalize

ReplyT = TypeVar("ReplyT", bound=BaseModel)
NOTES, MESSAGES = "com.pw.notes", "com.pw.messages"
SAMPLES = [
    "plain ASCII, 100% sure",
    "two\nlines\r\nthree\rfour",  # every newline form
    "tab\there NUL\x00 ESC\x1b DEL\x7f",  # controls
    "\x1c\x1d\x1e\x1f\x85NEL\u2028LS\u2029PS",  # the characters that broke rendering
    "e\u0301 a\u0308\u0323 \u20dd",  # combining marks
    "🙂 👩\u200d👩\u200d👧\u200d👦 🏳️\u200d🌈 🇨🇳 1\ufe0f\u20e3",  # emoji, ZWJ sequences
    "مرحبا שלום \u202eabc\u202c \u2067ע\u2069 \u200f",  # RTL and bidi controls
    "中文输入，全角　空格",  # CJK
    "\ufffe\uffff\ufdd0x\ue000\U000e0001",  # noncharacters, private use, a tag
    "mixed 中文\nand ASCII\ttab",
    "%s literal %s and 'quotes' \"$(x)\"",  # input text's own escape, shell syntax
]


@dataclass
class Env:
    """The seven env verbs of one source, over NATS."""

    bus: Bus
    source: Source
    instance_id: str

    async def call(self, verb: EnvVerb, request: BaseModel, reply: type[ReplyT]) -> ReplyT:
        subject = env_verb_subject(self.source, self.instance_id, verb)
        return await self.bus.request(subject, request, reply, timeout_s=20)

    async def lease(self) -> m.Lease:
        request = m.LeaseRequest(client_id="parity", apps=(NOTES, MESSAGES))
        return await self.bus.request(env_lease_subject(self.source), request, m.Lease)

    async def reset(self, lease: m.Lease, task: TaskSpec) -> None:
        request = m.ResetRequest(lease_id=lease.lease_id, task=task)
        await self.call(EnvVerb.RESET, request, m.ObserveReply)

    async def tree(self, lease: m.Lease) -> UINode:
        request = m.ObserveRequest(lease_id=lease.lease_id, include_frame=False)
        tree = (await self.call(EnvVerb.OBSERVE, request, m.ObserveReply)).observation.ui_tree
        assert tree is not None
        return tree

    async def act(self, lease: m.Lease, action: Action) -> m.ActReply:
        request = m.ActRequest(lease_id=lease.lease_id, action=action)
        return await self.call(EnvVerb.ACT, request, m.ActReply)

    async def tap(self, lease: m.Lease, resource_id: str) -> None:
        [node] = (await self.tree(lease)).find(resource_id=resource_id)
        point = from_pixels(node.bounds.center, lease.screen)
        assert (await self.act(lease, Click(coordinate=point))).effect == "applied"

    async def release(self, lease: m.Lease) -> None:
        request = m.ReleaseRequest(lease_id=lease.lease_id)
        await self.call(EnvVerb.RELEASE, request, m.ReleaseReply)


async def type_into_a_new_note(env: Env, task: TaskSpec, text: str) -> tuple[str, str, str]:
    """(title, body) after typing `text` into both fields, and the effect of typing it."""
    lease = await env.lease()
    try:
        await env.reset(lease, task)
        await env.act(lease, Open(text=NOTES))
        await env.tap(lease, f"{NOTES}:id/new_note")
        await env.tap(lease, f"{NOTES}:id/title")
        effect = (await env.act(lease, Type(text=text))).effect
        await env.tap(lease, f"{NOTES}:id/body")
        await env.act(lease, Type(text=text))
        tree = await env.tree(lease)
        [title] = tree.find(resource_id=f"{NOTES}:id/title")
        [body] = tree.find(resource_id=f"{NOTES}:id/body")
        # It still acts: saving needs a title, so give it one, then save.
        await env.tap(lease, f"{NOTES}:id/title")
        await env.act(lease, Type(text="x"))
        await env.tap(lease, f"{NOTES}:id/save")
        assert (await env.tree(lease)).find(resource_id=f"{NOTES}:id/new_note")
        return title.text, body.text, effect
    finally:
        await env.release(lease)


def notes_task(world: World) -> TaskSpec:
    return instantiate(get_template("notes.create"), world, 0).spec


async def test_the_gateway_and_phoneworld_type_the_same_field_contents(
    start_world, start_gateway, world: World
) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        gateway_env = Env(gateway.bus, Source.REAL, gateway.instance_id)
        world_env = Env(gateway.bus, Source.SIM, phones.service.settings.instance_id)
        task = notes_task(world)
        for text in SAMPLES:
            over_adb = await type_into_a_new_note(gateway_env, task, text)
            over_nats = await type_into_a_new_note(world_env, task, text)
            assert over_adb[:2] == over_nats[:2], text
            # The rule: a single-line field without an action keeps no line break, a multi-line
            # one keeps each as a new line; controls are not typed.
            assert over_nats[:2] == (normalize(text).replace("\n", ""), normalize(text)), text
        nothing = "\t\x00\x1b"
        assert (await type_into_a_new_note(gateway_env, task, nothing))[2] == "no_op"
        assert (await type_into_a_new_note(world_env, task, nothing))[2] == "no_op"


async def reply_with_enter(env: Env, task: TaskSpec, text: str) -> tuple[str, list[str]]:
    """The reply box's text and the thread's messages after typing `text` into it."""
    lease = await env.lease()
    try:
        await env.reset(lease, task)
        await env.act(lease, Open(text=MESSAGES))
        tree = await env.tree(lease)
        thread = next(n for n in tree.walk() if n.resource_id.startswith(f"{MESSAGES}:id/thread_"))
        await env.tap(lease, thread.resource_id)
        await env.tap(lease, f"{MESSAGES}:id/reply")
        await env.act(lease, Type(text=text))
        tree = await env.tree(lease)
        [reply] = tree.find(resource_id=f"{MESSAGES}:id/reply")
        sent = [n.text for n in tree.walk() if n.resource_id.startswith(f"{MESSAGES}:id/msg_")]
        return reply.text, sent
    finally:
        await env.release(lease)


async def test_enter_in_typed_text_sends_on_both_paths(
    start_world, start_gateway, world: World
) -> None:
    """Messages' reply box sends on Enter: the same message is sent and the same rest stays."""
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        gateway_env = Env(gateway.bus, Source.REAL, gateway.instance_id)
        world_env = Env(gateway.bus, Source.SIM, phones.service.settings.instance_id)
        task = instantiate(get_template("messages.send"), world, 0).spec
        for text in ["see you 🙂\nat 8", "\r\nhi\r\n", "中文\u2029rest"]:
            over_adb = await reply_with_enter(gateway_env, task, text)
            over_nats = await reply_with_enter(world_env, task, text)
            assert over_adb == over_nats, text
        assert over_nats[0] == "rest"
        assert over_nats[1][-1] == "中文"
