"""What the Gallery's task templates share: paths into its data, sampling photos and their
places, oracle steps (open the app past its cloud prompt, an album, a photo; read a photo's
place; rename in a dialog) and the base of its single-app templates."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from phonebuddy.phoneworld.apps.gallery.base import (
    CAMERA,
    FAVORITES,
    FAVORITES_NAME,
    GALLERY_PACKAGE,
    SEEDED_ALBUMS,
    TRIPS,
    WORK,
)
from phonebuddy.phoneworld.tasks.answers import Text
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

PHOTOS = f"apps/{GALLERY_PACKAGE}/photos"
ALBUMS = f"apps/{GALLERY_PACKAGE}/albums"
FILES = f"apps/{GALLERY_PACKAGE}/files"
ALBUM_NAMES = dict(SEEDED_ALBUMS) | {FAVORITES: FAVORITES_NAME}
SHARE_TO = "com.android.systemui:id/share_{}"

Photo = Mapping[str, Any]


# -- sampling helpers ---------------------------------------------------------------------------


def seeded_photos(world: World, accept: Callable[[Photo], bool] = lambda p: True) -> list[Photo]:
    return [p for p in world.content(GALLERY_PACKAGE)["photos"].values() if accept(p)]


def photo_params(photo: Photo) -> Params:
    return {"photo_id": photo["id"], "caption": photo["caption"], "album": photo["album"]}


def spot(place: str) -> str:
    """The specific part of a place: '杭州市·西湖' -> '西湖'."""
    return place.rpartition("·")[2]


def taken_at(place: str) -> Text:
    """A photo's place, whole or its spot ('杭州市·西湖', '西湖'), and no other photo's."""
    shots = [*CAMERA, *WORK, *(shot for _, _, trip in TRIPS for shot in trip)]
    others = [form for _, other in shots if other for form in (other, spot(other))]
    return Text([place, spot(place)], others=others, what="place")


def has_clear_place(world: World, photo: Photo) -> bool:
    """The photo has a place whose spot names no other place (so answers can't be confused)."""
    if not photo["place"]:
        return False
    others = {p["place"] for p in seeded_photos(world)} - {photo["place"], ""}
    return not any(spot(photo["place"]) in other for other in others)


# -- oracle helpers -----------------------------------------------------------------------------


def launch_gallery(ui: OracleUI) -> Iterator[Action]:
    yield from ui.open_app("相册")
    if ui.visible("cloud_later"):
        yield ui.tap("cloud_later")


def open_album(ui: OracleUI, album: str) -> Iterator[Action]:
    yield from launch_gallery(ui)
    yield ui.tap("tab_albums")
    yield from ui.scroll_to(f"album_{album}")
    yield ui.tap(f"album_{album}")


def open_photo(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from open_album(ui, params["album"])
    yield from ui.scroll_to(f"photo_{params['photo_id']}")
    yield ui.tap(f"photo_{params['photo_id']}")


def place_shown(ui: OracleUI) -> str:
    return ui.text_of("photo_place").removeprefix("地点：")


def rename_in_dialog(ui: OracleUI, field: str, name: str) -> Iterator[Action]:
    yield ui.tap(f"clear_{field}")
    yield from ui.type_into(field, name)
    yield ui.tap("confirm_rename")


# -- base template ------------------------------------------------------------------------------


class GalleryTemplate(TaskTemplate):
    """A template of the Gallery app alone."""

    category = Category.SINGLE_APP
    apps = (GALLERY_PACKAGE,)
