"""Shared fixtures for PhoneWorld tests."""

from __future__ import annotations

import pytest

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World, default_world


@pytest.fixture(scope="session")
def world() -> World:
    return default_world(0)


@pytest.fixture
def device(world: World) -> Device:
    return Device(world)
