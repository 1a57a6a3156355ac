"""The env-endpoint verbs over NATS: lease (queue group shared by every PhoneWorld instance),
then reset / observe / act / verify / renew / release on this instance's subjects."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from phonebuddy.bus import Bus, Service, ServiceError
from phonebuddy.phoneworld.service.metrics import WorldMetrics
from phonebuddy.phoneworld.service.pool import DevicePool, Slot
from phonebuddy.phoneworld.tasks.registry import UnknownTaskError, get_template
from phonebuddy.phoneworld.tasks.runner import TaskInstance, evaluate, instantiate, start
from phonebuddy.protocol import ErrorCode, Source
from phonebuddy.protocol import env as messages
from phonebuddy.protocol.subjects import (
    EnvVerb,
    env_lease_queue,
    env_lease_subject,
    env_verb_subject,
)

log = logging.getLogger(__name__)


def _task_instance(pool: DevicePool, request: messages.ResetRequest) -> TaskInstance:
    spec = request.task
    try:
        template = get_template(spec.template_id)
    except UnknownTaskError as exc:
        raise ServiceError(ErrorCode.UNKNOWN_TASK, str(exc)) from None
    sampled = instantiate(template, pool.world, spec.seed, language=spec.language)
    if spec.params and spec.params != sampled.params:
        raise ServiceError(
            ErrorCode.INVALID_REQUEST,
            f"params of {spec.template_id} seed {spec.seed} differ from the template's own "
            "sample for that seed; send the TaskSpec that `phonebuddy world tasks` made",
        )
    return sampled


class EnvEndpoint:
    """Binds a DevicePool to the bus."""

    def __init__(self, pool: DevicePool, bus: Bus, metrics: WorldMetrics) -> None:
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
                env_lease_subject(Source.SIM),
                messages.LeaseRequest,
                self.lease,
                queue=env_lease_queue(Source.SIM),
            )
        )
        for verb, (request_type, handler) in handlers.items():
            subject = env_verb_subject(Source.SIM, self.pool.instance_id, verb)
            self._services.append(await self.bus.serve(subject, request_type, handler))
        log.info("serving %d devices as %s", len(self.pool.slots), self.pool.instance_id)

    async def stop(self) -> None:
        for service in self._services:
            with contextlib.suppress(Exception):
                await service.stop()
        self._services.clear()

    # -- verbs ---------------------------------------------------------------------------------
    async def lease(self, request: messages.LeaseRequest) -> messages.Lease:
        unknown = [app for app in request.apps if app not in self.pool.world.packages]
        if unknown:
            raise ServiceError(ErrorCode.UNKNOWN_APP, f"PhoneWorld has no app {unknown}")
        lease = self.pool.lease(request.client_id, request.ttl_s)
        self.metrics.active_leases.set(self.pool.leased)
        return lease

    async def renew(self, request: messages.RenewRequest) -> messages.Lease:
        return self.pool.renew(request.lease_id, request.ttl_s)

    async def release(self, request: messages.ReleaseRequest) -> messages.ReleaseReply:
        released = await self.pool.release(request.lease_id)
        self.metrics.active_leases.set(self.pool.leased)
        return messages.ReleaseReply(released=released)

    async def reset(self, request: messages.ResetRequest) -> messages.ObserveReply:
        instance = _task_instance(self.pool, request)

        def work(slot: Slot) -> messages.ObserveReply:
            slot.before = start(slot.device, instance)
            slot.instance = instance
            observation, frame = slot.device.observe(image_format=request.image_format)
            return messages.ObserveReply(observation=observation, frame=frame)

        with self.metrics.timed("reset"):
            reply = await self.pool.run_on(request.lease_id, work)
        self.metrics.resets.labels(app=instance.template.apps[0]).inc()
        return reply

    async def observe(self, request: messages.ObserveRequest) -> messages.ObserveReply:
        def work(slot: Slot) -> messages.ObserveReply:
            observation, frame = slot.device.observe(
                image_format=request.image_format, include_ui_tree=request.include_ui_tree
            )
            return messages.ObserveReply(
                observation=observation, frame=frame if request.include_frame else None
            )

        with self.metrics.timed("observe"):
            return await self.pool.run_on(request.lease_id, work)

    async def act(self, request: messages.ActRequest) -> messages.ActReply:
        def work(slot: Slot) -> messages.ActReply:
            result = slot.device.act(request.action)
            if not request.observe:
                return messages.ActReply(effect=result.effect, note=result.note)
            observation, frame = slot.device.observe(image_format=request.image_format)
            return messages.ActReply(
                effect=result.effect, note=result.note, observation=observation, frame=frame
            )

        started = time.perf_counter()
        reply = await self.pool.run_on(request.lease_id, work)
        self.metrics.step_latency.labels(verb="act").observe(time.perf_counter() - started)
        self.metrics.steps.labels(outcome=reply.effect).inc()
        return reply

    async def verify(self, request: messages.VerifyRequest) -> messages.VerifyReply:
        def work(slot: Slot) -> messages.VerifyReply:
            if slot.instance is None or slot.before is None:
                raise ServiceError(ErrorCode.INVALID_REQUEST, "reset the device to a task first")
            instance = slot.instance
            verdict = evaluate(
                self.pool.world,
                instance.template,
                instance.params,
                slot.before,
                slot.device.snapshot(),
                request.answer,
            )
            return messages.VerifyReply(verdict=verdict)

        with self.metrics.timed("verify"):
            reply = await self.pool.run_on(request.lease_id, work)
        self.metrics.verdicts.labels(
            outcome="success" if reply.verdict.success else "failure"
        ).inc()
        return reply
