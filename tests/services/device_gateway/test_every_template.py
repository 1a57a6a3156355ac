"""Every PhoneWorld task template solved through the gateway (ADB) and judged by PhoneWorld's
own verifier: the ADB path means the same as the protocol path for every app (slow)."""

from __future__ import annotations

import asyncio

import pytest

from phonebuddy.phoneworld.tasks.registry import all_templates

DEVICES = 8
# The gateway cannot replay these: `wait` passes time on a phone, not in PhoneWorld's clock, and
# direct tools exist only in PhoneWorld.
NOT_OVER_ADB = frozenset({"wait", "call_tool"})


@pytest.mark.slow
async def test_every_template_solved_through_the_gateway_passes_its_verifier(
    start_world, start_gateway, solve, oracle
) -> None:
    templates = [
        t.id for t in all_templates()
        if not any(a.action in NOT_OVER_ADB for a in oracle(t.id)[1])
    ]  # fmt: skip
    failures: dict[str, str] = {}
    async with (
        start_world(devices=DEVICES) as phones,
        start_gateway(phones.addresses, adb_timeout_s=10) as gateway,
    ):
        queue: asyncio.Queue[str] = asyncio.Queue()
        for template_id in templates:
            queue.put_nowait(template_id)

        async def worker() -> None:
            while not queue.empty():
                template_id = queue.get_nowait()
                ok, reason = await solve(gateway, phones, template_id)
                if not ok:
                    failures[template_id] = reason

        await asyncio.gather(*(worker() for _ in range(DEVICES)))
    assert len(templates) > 150
    assert not failures, failures
