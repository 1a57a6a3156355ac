"""The gateway as an env backend (source `real`): which phones can serve a lease, and the device
verbs on them. Leases, TTLs, locking, lost devices and the NATS subjects are the env kit's
(`phonebuddy.env_endpoint`).

`verify` is answered, on purpose, with an `unsupported` error instead of being left without a
responder: a caller then learns at once that real devices have no ground truth (episodes are
graded by the rubric judge), instead of a no-responders error that looks like a dead instance
and invites retries elsewhere. Nothing here runs a command that a request spells out: every verb
maps to fixed command templates in `phone` and `actions`. With a task set-up action configured
(PhoneWorld's phones), `reset` also broadcasts it with the task's template, seed and language and
answers `unsupported` when the phone's receiver does not set the task up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from phonebuddy.bus import ServiceError
from phonebuddy.device_gateway.metrics import GatewayMetrics
from phonebuddy.device_gateway.phone import Observed, Phone, TaskSetupError, UnknownPackageError
from phonebuddy.device_gateway.pool import DevicePool
from phonebuddy.env_endpoint import EnvBackend
from phonebuddy.protocol import ErrorCode, InvalidActionError, ScreenSize, Source
from phonebuddy.protocol import env as messages


class GatewayBackend(EnvBackend):
    """A DevicePool of phones behind the env kit."""

    source = Source.REAL

    def __init__(self, pool: DevicePool, metrics: GatewayMetrics) -> None:
        self.pool = pool
        self.metrics = metrics
        self.instance_id = pool.instance_id
        self.leases = pool.leases

    # -- capacity and health ---------------------------------------------------------------------
    def leasable(self, request: messages.LeaseRequest) -> Sequence[str]:
        apps = self.pool.phone_options.apps
        packages = [apps.resolve(app) for app in request.apps]
        unknown = [app for app, package in zip(request.apps, packages, strict=True) if not package]
        if unknown:
            raise ServiceError(ErrorCode.UNKNOWN_APP, f"the gateway knows no app {unknown}")
        wanted = [p for p in packages if p]
        healthy = [s for s in self.pool.slots.values() if s.healthy]
        capable = [s for s in healthy if s.phone.has_packages(wanted)]
        if healthy and not capable:
            raise ServiceError(
                ErrorCode.UNKNOWN_APP,
                f"no device of {self.instance_id} has all of {wanted}",
            )
        return sorted(s.serial for s in capable)

    def screen(self, device_id: str) -> ScreenSize:
        screen = self.pool.slots[device_id].phone.screen
        if screen is None:  # leasable phones are probed, and a probe reads the screen
            raise ServiceError(ErrorCode.DEVICE_LOST, f"device {device_id} was never probed")
        return screen

    def lock(self, device_id: str) -> asyncio.Lock:
        return self.pool.slots[device_id].lock

    def device_lost(self, device_id: str, reason: str, *, kind: str) -> None:
        self.pool.lose(device_id, reason, kind=kind)

    # -- device verbs ----------------------------------------------------------------------------
    async def reset(self, device_id: str, request: messages.ResetRequest) -> messages.ObserveReply:
        slot = self.pool.slots[device_id]
        try:
            packages = slot.phone.resolve_packages(request.task.apps)
        except UnknownPackageError as exc:
            raise ServiceError(ErrorCode.UNKNOWN_APP, str(exc)) from None
        slot.task_packages = tuple(packages)
        await slot.phone.reset(packages)
        task = request.task
        try:
            await slot.phone.setup_task(task.template_id, task.seed, task.language)
        except TaskSetupError as exc:
            raise ServiceError(ErrorCode.UNSUPPORTED, str(exc)) from None
        observed = await self._observe(slot.phone, request.image_format, ui_tree=True)
        return messages.ObserveReply(observation=observed.observation, frame=observed.frame)

    async def observe(
        self, device_id: str, request: messages.ObserveRequest
    ) -> messages.ObserveReply:
        phone = self.pool.slots[device_id].phone
        observed = await self._observe(phone, request.image_format, ui_tree=request.include_ui_tree)
        frame = observed.frame if request.include_frame else None
        return messages.ObserveReply(observation=observed.observation, frame=frame)

    async def act(self, device_id: str, request: messages.ActRequest) -> messages.ActReply:
        phone = self.pool.slots[device_id].phone
        try:
            action = phone.resolve(request.action)
        except InvalidActionError as exc:
            raise ServiceError(ErrorCode.INVALID_REQUEST, exc.reason) from None
        effect, note = await phone.act(action)
        if not request.observe:
            return messages.ActReply(effect=effect, note=note, action=action)
        observed = await self._observe(phone, request.image_format, ui_tree=True)
        return messages.ActReply(
            effect=effect, note=note, action=action,
            observation=observed.observation, frame=observed.frame,
        )  # fmt: skip

    async def verify(self, device_id: str, request: messages.VerifyRequest) -> messages.VerifyReply:
        raise ServiceError(
            ErrorCode.UNSUPPORTED,
            "real devices have no ground truth to verify against; "
            "real episodes are graded by the rubric judge",
        )

    async def tidy(self, device_id: str) -> None:
        """The last task's apps are stopped and the phone goes home."""
        slot = self.pool.slots[device_id]
        packages, slot.task_packages = slot.task_packages, ()
        if slot.healthy:
            await slot.phone.tidy(packages)

    async def _observe(self, phone: Phone, image_format: str, *, ui_tree: bool) -> Observed:
        observed = await phone.observe(
            image_format="jpeg" if image_format == "jpeg" else "png", include_ui_tree=ui_tree
        )
        if observed.ui_error is not None:
            self.metrics.failures.labels(device=phone.serial, reason="ui_dump").inc()
        return observed
