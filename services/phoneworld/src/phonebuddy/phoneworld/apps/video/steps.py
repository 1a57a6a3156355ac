"""What the templates of 短视频 share: content look-ups, verifier checks and oracle steps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.video.content import VIDEO, link
from phonebuddy.phoneworld.tasks.answers import Expectation, Text
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

ROOT = f"apps/{VIDEO}"
VIDEOS = f"{ROOT}/videos"
FOLLOWING = f"{ROOT}/following"


def videos(world: World) -> list[Any]:
    return list(world.content(VIDEO)["videos"])


def creators(world: World) -> list[Any]:
    return list(world.content(VIDEO)["creators"])


def creator(world: World, creator_id: str) -> Any:
    return next(c for c in creators(world) if c["id"] == creator_id)


def works(world: World, creator_id: str) -> list[Any]:
    """A creator's videos, newest first (as the profile lists them)."""
    return sorted((v for v in videos(world) if v["creator"] == creator_id), key=lambda v: v["ago"])


def not_followed(world: World) -> list[Any]:
    """The creators not followed after a reset."""
    return [c for c in creators(world) if c["id"] not in world.content(VIDEO)["following"]]


def video_params(video: Any) -> Params:
    return {"video_id": video["id"], "caption": video["caption"]}


def video_path(video_id: str) -> str:
    return f"{VIDEOS}[{video_id}]"


def all_links(world: World) -> list[str]:
    return [link(v["id"]) for v in videos(world)]


def link_expectation(video_id: str, links: list[str]) -> Expectation:
    return Text([link(video_id)], others=[x for x in links if x != link(video_id)], what="link")


def liked(video_id: str, likes: int) -> dict[str, Any]:
    path = video_path(video_id)
    return {f"{path}/liked": True, f"{path}/likes": likes + 1}


def collected(video_id: str, collects: int) -> dict[str, Any]:
    path = video_path(video_id)
    return {f"{path}/collected": True, f"{path}/collects": collects + 1}


def followed_only(diff: StateDiff, creator_id: str) -> list[str]:
    """The one change in the following list: `creator_id` added (claimed)."""
    diff.touched(FOLLOWING)
    before, after = diff.value_before(FOLLOWING), diff.value_after(FOLLOWING)
    if sorted(after) != sorted([*before, creator_id]):
        return [f"following is {after}, expected {before} plus {creator_id}"]
    return []


def videos_changed(diff: StateDiff, expected: dict[str, Any]) -> list[str]:
    return expect_changes(diff, VIDEOS, expected)


class VideoTemplate(TaskTemplate):
    """A template of 短视频 alone."""

    category = Category.SINGLE_APP
    apps = (VIDEO,)


# -- oracle steps ------------------------------------------------------------------------------


def open_app(ui: OracleUI) -> Iterator[Action]:
    """Open 短视频 on its home screen (it reopens where it was left)."""
    yield ui.open("短视频")
    for _ in range(8):
        if ui.visible("tab_rec"):
            return
        yield ui.back()
    raise OracleError("could not get back to the feed")


def search(ui: OracleUI, query: str, tab: str = "videos") -> Iterator[Action]:
    yield from open_app(ui)
    yield ui.tap("search")
    if tab != "videos":
        yield ui.tap(f"tab_{tab}")
    yield from ui.type_into("query", query)


def open_video(ui: OracleUI, caption: str) -> Iterator[Action]:
    """Search the caption and open the video of that caption."""
    yield from search(ui, caption)
    yield ui.tap(text=caption)


def open_profile(ui: OracleUI, name: str) -> Iterator[Action]:
    yield from search(ui, name, "users")
    yield ui.tap(text=name)


def followers_on_screen(ui: OracleUI, id: str) -> int:
    """The count in '粉丝 N' inside the widget `id`."""
    for text in texts(ui.node(id)):
        if text.startswith("粉丝 "):
            return int(text.split()[1])
    raise OracleError(f"no follower count in {id}")


def profile_rows(ui: OracleUI) -> list[tuple[str, int, int]]:
    """The profile's videos on screen, top first: (caption, views, likes)."""
    nodes = [n for n in ui.device.ui_tree().walk() if ":id/work_" in n.resource_id]
    rows = []
    for node in sorted(nodes, key=lambda n: n.bounds.top):
        shown = [t for t in texts(node) if t != "▶"]
        views = next(t for t in shown if "播放 " in t).rpartition("播放 ")[2]
        hearts = next(t for t in shown if t.startswith("♥"))
        rows.append((shown[0], int(views), int(hearts.lstrip("♥"))))
    return rows


def copy_link(ui: OracleUI) -> Iterator[Action]:
    """On a video: 分享, then 复制链接."""
    yield ui.tap("share")
    yield ui.tap("copy_link")
