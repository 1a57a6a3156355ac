"""Which device each lease holds, until when, and why a lease ended early.

Pure bookkeeping on an injected monotonic clock (no I/O, no locks): the host grants and ends
leases here, and an env service reads it and ends the leases of devices it finds lost. A lease
whose device was lost is remembered (a bounded number of them) so that its holder hears
`device_lost`, not `lease_not_found`.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from phonebuddy.bus import ServiceError
from phonebuddy.protocol import ErrorCode

Clock = Callable[[], float]
LOST_LEASE_MEMORY = 4096


@dataclass(frozen=True, slots=True)
class LeaseRecord:
    lease_id: str
    device_id: str
    client_id: str
    expires_at: float  # on the table's clock

    def remaining_s(self, now: float) -> float:
        return self.expires_at - now


class DeviceAlreadyLeasedError(RuntimeError):
    def __init__(self, device_id: str, lease_id: str) -> None:
        self.device_id = device_id
        self.lease_id = lease_id
        super().__init__(f"device {device_id} is already held by lease {lease_id}")


class LeaseTable:
    """Leases of one env instance, by lease id and by device."""

    def __init__(
        self,
        instance_id: str,
        *,
        clock: Clock = time.monotonic,
        lost_memory: int = LOST_LEASE_MEMORY,
    ) -> None:
        if lost_memory < 0:
            raise ValueError(f"lost_memory must be >= 0, got {lost_memory}")
        self.instance_id = instance_id
        self.clock = clock
        self._lost_memory = lost_memory
        self._by_lease: dict[str, LeaseRecord] = {}
        self._by_device: dict[str, str] = {}
        self._lost: OrderedDict[str, str] = OrderedDict()  # lease id -> why it ended

    def __len__(self) -> int:
        return len(self._by_lease)

    def __contains__(self, lease_id: object) -> bool:
        return lease_id in self._by_lease

    def holder(self, device_id: str) -> LeaseRecord | None:
        """The lease on `device_id`, if any."""
        lease_id = self._by_device.get(device_id)
        return None if lease_id is None else self._by_lease[lease_id]

    def grant(self, device_id: str, client_id: str, ttl_s: float) -> LeaseRecord:
        if ttl_s <= 0:
            raise ValueError(f"ttl_s must be > 0, got {ttl_s}")
        held = self._by_device.get(device_id)
        if held is not None:
            raise DeviceAlreadyLeasedError(device_id, held)
        record = LeaseRecord(
            lease_id=secrets.token_hex(12),
            device_id=device_id,
            client_id=client_id,
            expires_at=self.clock() + ttl_s,
        )
        self._by_lease[record.lease_id] = record
        self._by_device[device_id] = record.lease_id
        return record

    def get(self, lease_id: str) -> LeaseRecord:
        """The live lease, or a typed error: `device_lost` (retryable) for a lease whose device
        was lost, `lease_not_found` for one that expired, was released or never existed."""
        record = self._by_lease.get(lease_id)
        if record is not None:
            return record
        lost = self.lost_reason(lease_id)
        if lost is not None:
            raise ServiceError(ErrorCode.DEVICE_LOST, lost, retryable=True)
        raise ServiceError(
            ErrorCode.LEASE_NOT_FOUND,
            f"lease {lease_id} is not held on {self.instance_id} (expired or released)",
        )

    def lost_reason(self, lease_id: str) -> str | None:
        """Why a lease ended with its device lost; None for any other lease."""
        return self._lost.get(lease_id)

    def renew(self, lease_id: str, ttl_s: float) -> LeaseRecord:
        if ttl_s <= 0:
            raise ValueError(f"ttl_s must be > 0, got {ttl_s}")
        record = self.get(lease_id)
        renewed = LeaseRecord(
            lease_id=record.lease_id,
            device_id=record.device_id,
            client_id=record.client_id,
            expires_at=self.clock() + ttl_s,
        )
        self._by_lease[lease_id] = renewed
        return renewed

    def end(self, lease_id: str) -> LeaseRecord | None:
        """End a live lease (release or expiry); None when it is not live. A lost lease's
        memory is dropped: its holder has given it back."""
        self._lost.pop(lease_id, None)
        record = self._by_lease.pop(lease_id, None)
        if record is not None:
            del self._by_device[record.device_id]
        return record

    def lose(self, device_id: str, reason: str) -> LeaseRecord | None:
        """End the lease on a device that was lost, remembering why for its holder."""
        record = self.holder(device_id)
        if record is None:
            return None
        self.end(record.lease_id)
        if self._lost_memory:
            self._lost[record.lease_id] = f"device {device_id} was lost: {reason}"
            while len(self._lost) > self._lost_memory:
                self._lost.popitem(last=False)
        return record

    def expired(self) -> list[LeaseRecord]:
        """Live leases past their TTL, on the table's clock."""
        now = self.clock()
        return [record for record in self._by_lease.values() if record.expires_at <= now]
