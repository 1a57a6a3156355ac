"""The env verbs over NATS for source `real`: lease (queue group shared by every gateway), then
reset / observe / act / renew / release on this instance's subjects.

`verify` is answered, on purpose, with an `unsupported` error instead of being left without a
responder: a caller then learns at once that real devices have no ground truth (episodes are
graded by the rubric judge), instead of a no-responders error that looks like a dead instance
and invites retries elsewhere. Nothing here runs a command that a request spells out: every verb
maps to fixed command templates in `phone` and `actions`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from phonebuddy.bus import Bus, Service, ServiceError
from phonebuddy.device_gateway.metrics import GatewayMetrics
from phonebuddy.device_gateway.phone import Observed, Phone
from phonebuddy.device_gateway.pool import DevicePool, Slot
from phonebuddy.protocol import ErrorCode, Source
from phonebuddy.protocol import env as messages
from phonebuddy.protocol.subjects import (
    EnvVerb,
    env_lease_queue,
    env_lease_subject,
    env_verb_subject,
)

log = logging.getLogger(__name__)
SOURCE = Source.REAL


class GatewayEndpoint:
    """Binds a DevicePool to the bus."""

    def __init__(self, pool: DevicePool, bus: Bus, metrics: GatewayMetrics) -> None:
        self.pool = pool
        self.bus = bus
        self.metrics = metrics
        self._services: list[Service] = []

    async def start(self) -> None:
        handlers: dict[EnvVerb, tuple[type[BaseModel], Callable[[Any], Awaitable[BaseModel]]]] = {
            EnvVerb.RESET: (messages.ResetRequest, self.reset),
            EnvVerb.OBSERVE: (messages.ObserveRequest, self.observe),
            EnvVerb.ACT: (messages.ActRequest, self.act),
            EnvVerb.VERIFY: (messages.VerifyRequest, self.verify),
            EnvVerb.RENEW: (messages.RenewRequest, self.renew),
            EnvVerb.RELEASE: (messages.ReleaseRequest, self.release),
        }
        self._services.append(
            await self.bus.serve(
                env_lease_subject(SOURCE),
                messages.LeaseRequest,
                self.lease,
                queue=env_lease_queue(SOURCE),
            )
        )
        for verb, (request_type, handler) in handlers.items():
            subject = env_verb_subject(SOURCE, self.pool.instance_id, verb)
            self._services.append(await self.bus.serve(subject, request_type, handler))
        log.info("serving real devices as %s", self.pool.instance_id)

    async def stop(self) -> None:
        for service in self._services:
            with contextlib.suppress(Exception):
                await service.stop()
        self._services.clear()

    # -- verbs ---------------------------------------------------------------------------------
    async def lease(self, request: messages.LeaseRequest) -> messages.Lease:
        apps = self.pool.phone_options.apps
        packages = [apps.resolve(app) for app in request.apps]
        unknown = [app for app, package in zip(request.apps, packages, strict=True) if not package]
        if unknown:
            raise ServiceError(ErrorCode.UNKNOWN_APP, f"the gateway knows no app {unknown}")
        return self.pool.lease(request.client_id, request.ttl_s, [p for p in packages if p])

    async def renew(self, request: messages.RenewRequest) -> messages.Lease:
        return self.pool.renew(request.lease_id, request.ttl_s)

    async def release(self, request: messages.ReleaseRequest) -> messages.ReleaseReply:
        return messages.ReleaseReply(released=await self.pool.release(request.lease_id))

    async def reset(self, request: messages.ResetRequest) -> messages.ObserveReply:
        async def work(slot: Slot) -> messages.ObserveReply:
            packages = slot.phone.resolve_packages(request.task.apps)
            slot.task_packages = tuple(packages)
            await slot.phone.reset(packages)
            observed = await self._observe(slot.phone, request.image_format, ui_tree=True)
            return messages.ObserveReply(observation=observed.observation, frame=observed.frame)

        return await self.pool.run_on(request.lease_id, "reset", work)

    async def observe(self, request: messages.ObserveRequest) -> messages.ObserveReply:
        async def work(slot: Slot) -> messages.ObserveReply:
            observed = await self._observe(
                slot.phone, request.image_format, ui_tree=request.include_ui_tree
            )
            frame = observed.frame if request.include_frame else None
            return messages.ObserveReply(observation=observed.observation, frame=frame)

        return await self.pool.run_on(request.lease_id, "observe", work)

    async def act(self, request: messages.ActRequest) -> messages.ActReply:
        async def work(slot: Slot) -> messages.ActReply:
            effect, note = await slot.phone.act(request.action)
            if not request.observe:
                return messages.ActReply(effect=effect, note=note)
            observed = await self._observe(slot.phone, request.image_format, ui_tree=True)
            return messages.ActReply(
                effect=effect, note=note, observation=observed.observation, frame=observed.frame
            )

        reply = await self.pool.run_on(request.lease_id, "act", work)
        self.metrics.steps.labels(outcome=reply.effect).inc()
        return reply

    async def verify(self, request: messages.VerifyRequest) -> messages.VerifyReply:
        raise ServiceError(
            ErrorCode.UNSUPPORTED,
            "real devices have no ground truth to verify against; "
            "real episodes are graded by the rubric judge",
        )

    async def _observe(self, phone: Phone, image_format: str, *, ui_tree: bool) -> Observed:
        observed = await phone.observe(
            image_format="jpeg" if image_format == "jpeg" else "png", include_ui_tree=ui_tree
        )
        if observed.ui_error is not None:
            self.metrics.failures.labels(device=phone.serial, reason="ui_dump").inc()
        return observed
