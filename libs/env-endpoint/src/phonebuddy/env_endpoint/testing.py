"""`MemoryBackend`: a faithful in-memory env backend for tests of the kit and of its callers.

Each device remembers the task it was reset to and the actions applied since, and has apps
(packages). Tests can make a device lost (`lose`: its next verb raises `DeviceLostError`, as a
phone that stopped answering), unhealthy (`unhealthy`: no longer leasable) or slow (`hold`:
its verbs wait for a test-controlled event).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from phonebuddy.bus import ServiceError
from phonebuddy.env_endpoint.backend import DeviceLostError, EnvBackend
from phonebuddy.env_endpoint.leases import Clock, LeaseTable
from phonebuddy.protocol import (
    Action,
    Answer,
    ErrorCode,
    Frame,
    Observation,
    ScreenSize,
    Source,
    TaskSpec,
    Terminate,
    Verdict,
)
from phonebuddy.protocol import env as messages

SCREEN = ScreenSize(width=1080, height=2400)


@dataclass
class MemoryDevice:
    device_id: str
    apps: frozenset[str]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    healthy: bool = True
    task: TaskSpec | None = None
    actions: list[Action] = field(default_factory=list)
    tidied: int = 0
    lost_reason: str | None = None  # the next verb raises DeviceLostError
    gate: asyncio.Event | None = None  # verbs wait for it


class MemoryBackend(EnvBackend):
    def __init__(
        self,
        devices: int | Sequence[str] = 2,
        *,
        source: Source = Source.SIM,
        instance_id: str = "mem",
        apps: Iterable[str] = ("com.example.notes",),
        verifies: bool = True,
        clock: Clock | None = None,
    ) -> None:
        ids = (
            [f"{instance_id}-{i}" for i in range(devices)] if isinstance(devices, int) else devices
        )
        self.source = source
        self.instance_id = instance_id
        self.leases = LeaseTable(instance_id, **({"clock": clock} if clock else {}))
        self.devices = {d: MemoryDevice(d, frozenset(apps)) for d in ids}
        self.verifies = verifies
        self.lost: list[tuple[str, str, str]] = []  # (device, reason, kind) told by the kit

    # -- what tests do to devices ----------------------------------------------------------------
    def lose(self, device_id: str, reason: str = "unplugged") -> None:
        self.devices[device_id].lost_reason = reason

    def hold(self, device_id: str) -> asyncio.Event:
        """Make the device's verbs wait until the returned event is set."""
        gate = self.devices[device_id].gate = asyncio.Event()
        return gate

    # -- EnvBackend ------------------------------------------------------------------------------
    def leasable(self, request: messages.LeaseRequest) -> list[str]:
        known = set().union(*(d.apps for d in self.devices.values()))
        unknown = [app for app in request.apps if app not in known]
        if unknown:
            raise ServiceError(ErrorCode.UNKNOWN_APP, f"{self.instance_id} has no app {unknown}")
        wanted = set(request.apps)
        return [d.device_id for d in self.devices.values() if d.healthy and wanted <= d.apps]

    def screen(self, device_id: str) -> ScreenSize:
        return SCREEN

    def lock(self, device_id: str) -> asyncio.Lock:
        return self.devices[device_id].lock

    def device_lost(self, device_id: str, reason: str, *, kind: str) -> None:
        self.devices[device_id].healthy = False
        self.lost.append((device_id, reason, kind))

    async def _reach(self, device_id: str) -> MemoryDevice:
        device = self.devices[device_id]
        if device.gate is not None:
            await device.gate.wait()
        if device.lost_reason is not None:
            raise DeviceLostError(device_id, device.lost_reason)
        return device

    def _observed(self, device: MemoryDevice, *, frame: bool = True) -> messages.ObserveReply:
        state = {"device": device.device_id, "steps": len(device.actions)}
        shot = Frame.from_bytes(json.dumps(state).encode(), "image/png")
        observation = Observation(frame=shot.ref, screen=SCREEN)
        return messages.ObserveReply(observation=observation, frame=shot if frame else None)

    async def reset(self, device_id: str, request: messages.ResetRequest) -> messages.ObserveReply:
        device = await self._reach(device_id)
        device.task = request.task
        device.actions.clear()
        return self._observed(device)

    async def observe(
        self, device_id: str, request: messages.ObserveRequest
    ) -> messages.ObserveReply:
        return self._observed(await self._reach(device_id), frame=request.include_frame)

    async def act(self, device_id: str, request: messages.ActRequest) -> messages.ActReply:
        device = await self._reach(device_id)
        device.actions.append(request.action)
        final = isinstance(request.action, Answer | Terminate)
        reply = messages.ActReply(effect="final" if final else "applied")
        if request.observe:
            observed = self._observed(device)
            reply = reply.model_copy(
                update={"observation": observed.observation, "frame": observed.frame}
            )
        return reply

    async def verify(self, device_id: str, request: messages.VerifyRequest) -> messages.VerifyReply:
        if not self.verifies:
            return await super().verify(device_id, request)
        device = await self._reach(device_id)
        if device.task is None:
            raise ServiceError(ErrorCode.INVALID_REQUEST, "reset the device to a task first")
        success = bool(device.actions)
        verdict = Verdict(
            success=success, reward=float(success), grader="verifier",
            reason=f"{len(device.actions)} action(s) since the reset",
        )  # fmt: skip
        return messages.VerifyReply(verdict=verdict)

    async def tidy(self, device_id: str) -> None:
        device = await self._reach(device_id)
        device.task = None
        device.actions.clear()
        device.tidied += 1
