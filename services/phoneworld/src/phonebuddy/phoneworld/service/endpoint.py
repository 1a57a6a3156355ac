"""PhoneWorld as an env backend (source `sim`): which devices can serve a lease, and the device
verbs reset / observe / act / verify on simulated phones. Leases, TTLs, locking and the NATS
subjects are the env kit's (`phonebuddy.env_endpoint`). Device work is blocking (layout and
rendering) and runs in a worker thread, one verb at a time per device."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from phonebuddy.bus import ServiceError
from phonebuddy.env_endpoint import EnvBackend
from phonebuddy.phoneworld.service.metrics import WorldMetrics
from phonebuddy.phoneworld.service.pool import DevicePool
from phonebuddy.phoneworld.tasks.registry import UnknownTaskError, get_template
from phonebuddy.phoneworld.tasks.runner import TaskInstance, evaluate, instantiate, start
from phonebuddy.protocol import ErrorCode, InvalidActionError, ScreenSize, Source
from phonebuddy.protocol import env as messages
from phonebuddy.protocol.elements import resolve_element

# What PhoneWorld derives itself from (template, seed, language) and a client's spec must repeat:
# a spec that says otherwise would tell the policy one task and verify another, or relabel a
# held-out task as a train one.
_DERIVED = ("instruction", "category", "apps", "split")


def _task_instance(pool: DevicePool, request: messages.ResetRequest) -> TaskInstance:
    spec = request.task
    try:
        template = get_template(spec.template_id)
    except UnknownTaskError as exc:
        raise ServiceError(ErrorCode.UNKNOWN_TASK, str(exc)) from None
    sampled = instantiate(template, pool.world, spec.seed, language=spec.language)
    wrong = [name for name in _DERIVED if getattr(spec, name) != getattr(sampled.spec, name)]
    if spec.params and spec.params != sampled.params:
        wrong.insert(0, "params")
    if wrong:
        raise ServiceError(
            ErrorCode.INVALID_REQUEST,
            f"{', '.join(wrong)} of {spec.template_id} seed {spec.seed} differ from what "
            "PhoneWorld derives for that template and seed; send the TaskSpec that `phonebuddy "
            "world tasks` (or the broker's suite query) made",
        )
    return sampled


class WorldBackend(EnvBackend):
    """A DevicePool behind the env kit."""

    source = Source.SIM

    def __init__(self, pool: DevicePool, metrics: WorldMetrics) -> None:
        self.pool = pool
        self.metrics = metrics
        self.instance_id = pool.instance_id
        self.leases = pool.leases

    # -- capacity --------------------------------------------------------------------------------
    def leasable(self, request: messages.LeaseRequest) -> Sequence[str]:
        unknown = [app for app in request.apps if app not in self.pool.world.packages]
        if unknown:
            raise ServiceError(ErrorCode.UNKNOWN_APP, f"PhoneWorld has no app {unknown}")
        return self.pool.leasable()

    def screen(self, device_id: str) -> ScreenSize:
        return self.pool.screen

    def lock(self, device_id: str) -> asyncio.Lock:
        return self.pool.slot(device_id).lock

    # -- device verbs ----------------------------------------------------------------------------
    async def reset(self, device_id: str, request: messages.ResetRequest) -> messages.ObserveReply:
        instance = _task_instance(self.pool, request)
        slot = self.pool.slot(device_id)

        def work() -> messages.ObserveReply:
            slot.before = start(slot.device, instance)
            slot.instance = instance
            observation, frame = slot.device.observe(image_format=request.image_format)
            return messages.ObserveReply(observation=observation, frame=frame)

        reply = await asyncio.to_thread(work)
        self.metrics.resets.labels(app=instance.template.apps[0]).inc()
        return reply

    async def observe(
        self, device_id: str, request: messages.ObserveRequest
    ) -> messages.ObserveReply:
        device = self.pool.slot(device_id).device

        def work() -> messages.ObserveReply:
            observation, frame = device.observe(
                image_format=request.image_format, include_ui_tree=request.include_ui_tree
            )
            return messages.ObserveReply(
                observation=observation, frame=frame if request.include_frame else None
            )

        return await asyncio.to_thread(work)

    async def act(self, device_id: str, request: messages.ActRequest) -> messages.ActReply:
        device = self.pool.slot(device_id).device

        def work() -> messages.ActReply:
            try:
                action = resolve_element(request.action, device.ui_tree(), device.screen)
            except InvalidActionError as exc:
                raise ServiceError(ErrorCode.INVALID_REQUEST, exc.reason) from None
            result = device.act(action)
            if not request.observe:
                return messages.ActReply(effect=result.effect, note=result.note, action=action)
            observation, frame = device.observe(image_format=request.image_format)
            return messages.ActReply(
                effect=result.effect, note=result.note, action=action,
                observation=observation, frame=frame,
            )  # fmt: skip

        return await asyncio.to_thread(work)

    async def verify(self, device_id: str, request: messages.VerifyRequest) -> messages.VerifyReply:
        slot = self.pool.slot(device_id)
        instance, before = slot.instance, slot.before
        if instance is None or before is None:
            raise ServiceError(ErrorCode.INVALID_REQUEST, "reset the device to a task first")

        def work() -> messages.VerifyReply:
            verdict = evaluate(
                self.pool.world,
                instance.template,
                instance.params,
                before,
                slot.device.snapshot(),
                request.answer,
            )
            return messages.VerifyReply(verdict=verdict)

        reply = await asyncio.to_thread(work)
        outcome = "success" if reply.verdict.success else "failure"
        self.metrics.verdicts.labels(outcome=outcome).inc()
        return reply

    async def tidy(self, device_id: str) -> None:
        """Back to the world's start state for the next client."""
        slot = self.pool.slot(device_id)
        slot.instance = slot.before = None
        await asyncio.to_thread(slot.device.reset, 0)
