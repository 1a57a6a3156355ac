"""The lease table on a fake clock: grants, renewals, expiry at the TTL, lost devices."""

from __future__ import annotations

import re

import pytest

from phonebuddy.bus import ServiceError
from phonebuddy.env_endpoint import DeviceAlreadyLeasedError, LeaseTable
from phonebuddy.protocol import ErrorCode
from phonebuddy.protocol.env import LEASE_ID_PATTERN

from .conftest import FakeClock


@pytest.fixture
def table(clock: FakeClock) -> LeaseTable:
    return LeaseTable("inst", clock=clock)


def test_a_grant_is_found_by_lease_and_by_device(table: LeaseTable) -> None:
    record = table.grant("d0", "client", ttl_s=30)
    assert re.fullmatch(LEASE_ID_PATTERN, record.lease_id)
    assert table.get(record.lease_id) == record
    assert table.holder("d0") == record
    assert table.holder("d1") is None
    assert len(table) == 1
    assert record.lease_id in table


def test_lease_ids_are_unique(table: LeaseTable) -> None:
    ids = {table.grant(f"d{i}", "c", ttl_s=30).lease_id for i in range(200)}
    assert len(ids) == 200


def test_a_leased_device_cannot_be_granted_twice(table: LeaseTable) -> None:
    first = table.grant("d0", "a", ttl_s=30)
    with pytest.raises(DeviceAlreadyLeasedError) as raised:
        table.grant("d0", "b", ttl_s=30)
    assert raised.value.lease_id == first.lease_id
    assert table.holder("d0") == first


@pytest.mark.parametrize("ttl_s", [0, -1])
def test_a_ttl_must_be_positive(table: LeaseTable, ttl_s: float) -> None:
    with pytest.raises(ValueError, match="ttl_s must be > 0"):
        table.grant("d0", "c", ttl_s=ttl_s)
    record = table.grant("d0", "c", ttl_s=1)
    with pytest.raises(ValueError, match="ttl_s must be > 0"):
        table.renew(record.lease_id, ttl_s)


def test_a_lease_expires_at_its_ttl_and_not_before(table: LeaseTable, clock: FakeClock) -> None:
    record = table.grant("d0", "c", ttl_s=10)
    clock.advance(9.999)
    assert table.expired() == []
    clock.advance(0.001)
    assert table.expired() == [record]


def test_a_renewal_counts_the_ttl_from_now(table: LeaseTable, clock: FakeClock) -> None:
    record = table.grant("d0", "c", ttl_s=10)
    clock.advance(8)
    renewed = table.renew(record.lease_id, ttl_s=10)
    assert renewed.expires_at == clock.now + 10
    assert renewed.remaining_s(clock.now) == 10
    clock.advance(5)
    assert table.expired() == []  # the original TTL has passed, the renewed one has not
    clock.advance(5)
    assert [r.lease_id for r in table.expired()] == [record.lease_id]


def test_an_ended_lease_is_not_found_and_frees_its_device(table: LeaseTable) -> None:
    record = table.grant("d0", "c", ttl_s=10)
    assert table.end(record.lease_id) == record
    assert table.end(record.lease_id) is None
    assert table.holder("d0") is None
    with pytest.raises(ServiceError) as raised:
        table.get(record.lease_id)
    assert raised.value.code == ErrorCode.LEASE_NOT_FOUND
    assert "inst" in raised.value.message
    with pytest.raises(ServiceError) as raised:
        table.renew(record.lease_id, 10)
    assert raised.value.code == ErrorCode.LEASE_NOT_FOUND
    assert table.grant("d0", "next", ttl_s=10).client_id == "next"


def test_a_lost_device_ends_its_lease_and_its_holder_hears_why(table: LeaseTable) -> None:
    record = table.grant("d0", "c", ttl_s=10)
    assert table.lose("d0", "unplugged") == record
    assert table.lose("d0", "again") is None  # nothing held any more
    assert table.holder("d0") is None
    for _ in range(2):  # remembered, not consumed by asking
        with pytest.raises(ServiceError) as raised:
            table.get(record.lease_id)
        assert raised.value.code == ErrorCode.DEVICE_LOST
        assert raised.value.retryable
        assert raised.value.message == "device d0 was lost: unplugged"
    # Giving the lost lease back forgets it: the answer is then lease_not_found.
    assert table.end(record.lease_id) is None
    with pytest.raises(ServiceError) as raised:
        table.get(record.lease_id)
    assert raised.value.code == ErrorCode.LEASE_NOT_FOUND


def test_the_memory_of_lost_leases_is_bounded(clock: FakeClock) -> None:
    table = LeaseTable("inst", clock=clock, lost_memory=3)
    lost = []
    for i in range(5):
        lost.append(table.grant("d0", "c", ttl_s=10).lease_id)
        table.lose("d0", f"loss {i}")
    expected_codes = [ErrorCode.LEASE_NOT_FOUND] * 2 + [ErrorCode.DEVICE_LOST] * 3
    for lease_id, expected in zip(lost, expected_codes, strict=True):
        with pytest.raises(ServiceError) as raised:
            table.get(lease_id)
        assert raised.value.code == expected
    with pytest.raises(ValueError, match="lost_memory"):
        LeaseTable("inst", lost_memory=-1)


def test_losing_an_idle_device_remembers_nothing(table: LeaseTable) -> None:
    assert table.lose("d0", "gone") is None
    record = table.grant("d0", "c", ttl_s=10)
    assert table.get(record.lease_id) == record
