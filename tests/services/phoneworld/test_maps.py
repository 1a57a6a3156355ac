"""The Maps app (地图) through the action interface: search, a place's page and 收藏, routes by
mode and navigation into 足迹, 家/公司 addresses (empty refused), clearing the search history."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.maps.app import MAPS, route
from phonebuddy.phoneworld.device import Device


class Driver(testing.Driver):
    @property
    def maps(self) -> dict[str, Any]:
        return self.app_state(MAPS)  # type: ignore[no-any-return]

    def places(self) -> list[dict[str, Any]]:
        return list(self.device.world.content(MAPS)["places"])

    def open_place(self, place: dict[str, Any]) -> None:
        self.scroll_to(f"place_{place['id']}")
        self.tap(f"place_{place['id']}")
        assert self.text("name") == place["name"]


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("地图")
    return driver


def test_search_filters_the_places(user: Driver) -> None:
    place = user.places()[5]
    user.type_into("search", place["name"])
    assert user.visible(f"place_{place['id']}")
    assert not user.visible(f"place_{user.places()[0]['id']}")
    user.type_into("search", "不存在的地方")
    assert user.visible(text="没有找到相关地点")


def test_favourite_toggles_and_shows_in_the_favourites_tab(user: Driver) -> None:
    place = user.places()[2]
    user.open_place(place)
    user.tap("favourite")
    assert user.maps["favourites"] == [place["id"]]
    user.back()
    user.tap("tab_favourites")
    assert user.visible(f"place_{place['id']}")


def test_route_modes_and_navigation_record_a_trip(user: Driver) -> None:
    place = user.places()[4]
    user.open_place(place)
    user.tap("route")
    user.tap("tab_walk")
    km, minutes = route(place, "walk")
    assert user.text("duration") == f"{minutes}分钟"
    assert route(place, "drive")[1] != minutes or km < 1
    user.tap("start")
    assert user.maps["trips"][0]["mode"] == "walk"
    assert user.maps["trips"][0]["minutes"] == minutes


def test_work_address_is_saved_and_empty_refused(user: Driver) -> None:
    user.tap("work_address")
    user.refuse("save_address")
    assert user.maps["work"] == ""
    user.type_into("address", "杭州市文三路1号")
    user.tap("save_address")
    assert user.maps["work"] == "杭州市文三路1号"
