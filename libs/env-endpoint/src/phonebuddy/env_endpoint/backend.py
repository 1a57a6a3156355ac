"""What an env service implements: its devices and the device verbs.

The kit (`EnvHost`, `EnvEndpoint`) does everything else: leases and their TTLs, one verb at a
time per device with bounded waits, lost devices, metrics and the NATS subjects. A backend's
verbs run while the kit holds the device's lock and after it has checked the lease, so a verb
only works the device. A verb that finds the device gone raises `DeviceLostError`; the kit ends
the lease and answers `device_lost`.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence

from phonebuddy.bus import ServiceError
from phonebuddy.env_endpoint.leases import LeaseTable
from phonebuddy.protocol import ErrorCode, ScreenSize, Source
from phonebuddy.protocol import env as messages


class DeviceLostError(Exception):
    """A device stopped answering; its lease ends and its holder hears `device_lost`."""

    def __init__(self, device_id: str, reason: str) -> None:
        self.device_id = device_id
        self.reason = reason
        super().__init__(f"device {device_id} is lost: {reason}")


class EnvBackend(ABC):
    """The devices of one env instance.

    `leases` is the instance's lease table: the host grants and ends leases in it; the backend
    reads it (who holds what) and ends the leases of devices its own health checks find lost
    (`leases.lose`).
    """

    source: Source
    instance_id: str
    leases: LeaseTable

    # -- capacity and health ---------------------------------------------------------------------
    @abstractmethod
    def leasable(self, request: messages.LeaseRequest) -> Sequence[str]:
        """The healthy devices that can serve `request` (leased or not), best first. Raises
        `ServiceError(UNKNOWN_APP)` for apps this instance cannot serve."""

    @abstractmethod
    def screen(self, device_id: str) -> ScreenSize: ...

    @abstractmethod
    def lock(self, device_id: str) -> asyncio.Lock:
        """The device's lock: whoever drives the device holds it (the kit for every verb)."""

    def device_lost(self, device_id: str, reason: str, *, kind: str) -> None:  # noqa: B027
        """Told when a verb or a release found the device lost (`kind` "lost") or busy past
        the lock timeout ("timeout"), before the kit ends its lease. Nothing by default."""

    # -- the device verbs (device lock held, lease checked) -------------------------------------
    @abstractmethod
    async def reset(self, device_id: str, request: messages.ResetRequest) -> messages.ObserveReply:
        """Put the device in the task's start state and observe it."""

    @abstractmethod
    async def observe(
        self, device_id: str, request: messages.ObserveRequest
    ) -> messages.ObserveReply: ...

    @abstractmethod
    async def act(self, device_id: str, request: messages.ActRequest) -> messages.ActReply: ...

    async def verify(self, device_id: str, request: messages.VerifyRequest) -> messages.VerifyReply:
        """The verifier's verdict on the device's state. By default `unsupported`: a source
        without ground truth says so at once instead of leaving the subject unanswered."""
        raise ServiceError(ErrorCode.UNSUPPORTED, f"{self.source.value} devices have no verifier")

    @abstractmethod
    async def tidy(self, device_id: str) -> None:
        """Ready a device whose lease ended (released or expired) for the next client."""
