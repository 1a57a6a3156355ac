"""Task templates of the Gallery app alone (photos, albums, files, questions); the cross-app
ones with Notes and Mail are in `cross`, the steps they share in `steps`."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from phonebuddy.phoneworld.apps.gallery import cross
from phonebuddy.phoneworld.apps.gallery.base import FAVORITES, GALLERY_PACKAGE, SEEDED_ALBUMS
from phonebuddy.phoneworld.apps.gallery.steps import (
    ALBUM_NAMES,
    ALBUMS,
    FILES,
    PHOTOS,
    GalleryTemplate,
    has_clear_place,
    launch_gallery,
    open_album,
    open_photo,
    photo_params,
    place_shown,
    rename_in_dialog,
    seeded_photos,
    taken_at,
)
from phonebuddy.phoneworld.tasks.answers import Expectation, Number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import A_TIME, StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction

# -- single-app templates -----------------------------------------------------------------------


class FavoritePhoto(GalleryTemplate):
    id = "gallery.favorite"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        photos = seeded_photos(world, lambda p: not p["favorite"] and p["album"] != "screenshots")
        return photo_params(rng.choice(photos))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption = params["caption"]
        return phrased(
            zh=[f"把相册里的照片“{caption}”加入收藏", f"收藏照片“{caption}”",
                f"帮我把“{caption}”这张照片加到收藏里"],
            en=[f"Add the photo '{caption}' to favourites", f"Favourite the photo '{caption}'",
                f"Please put the photo '{caption}' in my favourites"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, PHOTOS, {f"{PHOTOS}[{params['photo_id']}]/favorite": True})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("favorite")


class DeletePhoto(GalleryTemplate):
    id = "gallery.delete"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return photo_params(rng.choice(seeded_photos(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption = params["caption"]
        return phrased(
            zh=[f"删除照片“{caption}”", f"把“{caption}”这张照片删掉",
                f"照片“{caption}”不要了，帮我删除"],
            en=[f"Delete the photo '{caption}'", f"Remove the photo '{caption}' from the gallery",
                f"I don't want the photo '{caption}' any more; delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, PHOTOS, {f"{PHOTOS}[{params['photo_id']}]/trashed_at": A_TIME})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("delete")
        yield ui.tap("confirm_delete")


class RestorePhoto(GalleryTemplate):
    id = "gallery.restore"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        target, *others = rng.sample(seeded_photos(world), 3)
        return {
            **photo_params(target),
            "also_deleted": [p["id"] for p in others],
            "days_ago": rng.randrange(1, 20),
        }

    def setup(self, it: Any, params: Params) -> None:
        deleted = {params["photo_id"], *params["also_deleted"]}
        for record in it.app_data(GALLERY_PACKAGE)["photos"]:
            if record["id"] in deleted:
                record["trashed_at"] = it.clock - params["days_ago"] * 86400

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption = params["caption"]
        return phrased(
            zh=[f"照片“{caption}”被我误删了，从最近删除里把它恢复回来",
                f"从最近删除里恢复照片“{caption}”",
                f"帮我把误删的照片“{caption}”找回来，它在最近删除里"],
            en=[f"I deleted the photo '{caption}' by mistake; restore it from Recently Deleted",
                f"Restore the photo '{caption}' from Recently Deleted",
                f"Please bring back the photo '{caption}' from Recently Deleted; deleting it was a "
                "mistake"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, PHOTOS, {f"{PHOTOS}[{params['photo_id']}]/trashed_at": None})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_album(ui, "trash")
        yield from ui.scroll_to(f"photo_{params['photo_id']}")
        yield ui.tap(f"photo_{params['photo_id']}")
        yield ui.tap("restore")


PHOTO_RENAMES = {
    "发票": "3月报销发票",
    "会议白板": "Q2规划白板",
    "名片": "赵磊名片",
    "合同首页": "租房合同首页",
    "项目排期": "Q2项目排期",
    "猫咪午睡": "橘猫午睡",
    "晚霞": "滨江晚霞",
    "外滩夜景": "外滩夜景2026",
    "工牌": "我的工牌",
    "生日蛋糕": "30岁生日蛋糕",
}


class RenamePhoto(GalleryTemplate):
    id = "gallery.rename"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        photo = rng.choice(seeded_photos(world, lambda p: p["caption"] in PHOTO_RENAMES))
        return {**photo_params(photo), "new_caption": PHOTO_RENAMES[photo["caption"]]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption, new = params["caption"], params["new_caption"]
        return phrased(
            zh=[f"把照片“{caption}”重命名为“{new}”", f"照片“{caption}”改名叫“{new}”",
                f"帮我把“{caption}”这张照片的名字改成“{new}”"],
            en=[f"Rename the photo '{caption}' to '{new}'",
                f"Change the name of the photo '{caption}' to '{new}'",
                f"The photo '{caption}' should be called '{new}': rename it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{PHOTOS}[{params['photo_id']}]/caption"
        return expect_changes(diff, PHOTOS, {path: params["new_caption"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("rename")
        yield from rename_in_dialog(ui, "caption", params["new_caption"])


class MovePhoto(GalleryTemplate):
    id = "gallery.move"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        photo = rng.choice(seeded_photos(world, lambda p: p["album"] != "travel"))
        target = rng.choice([a for a, _ in SEEDED_ALBUMS if a != photo["album"]])
        return {**photo_params(photo), "target": target, "target_name": ALBUM_NAMES[target]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption, album = params["caption"], params["target_name"]
        return phrased(
            zh=[f"把照片“{caption}”移动到“{album}”相册", f"照片“{caption}”挪到“{album}”相册里",
                f"帮我把“{caption}”这张照片放进“{album}”相册"],
            en=[f"Move the photo '{caption}' to the album '{album}'",
                f"Put the photo '{caption}' into the '{album}' album",
                f"Please file the photo '{caption}' under the album '{album}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{PHOTOS}[{params['photo_id']}]/album"
        return expect_changes(diff, PHOTOS, {path: params["target"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("move")
        yield ui.tap(f"move_to_{params['target']}")


class AlbumFromTrip(GalleryTemplate):
    id = "gallery.album_from_trip"
    difficulty = 19

    def sample(self, world: World, rng: random.Random) -> Params:
        trip = rng.choice(sorted({p["trip"] for p in seeded_photos(world) if p["trip"]}))
        # Newest first, as the photo picker shows them, so the oracle only scrolls down.
        photos = sorted(
            seeded_photos(world, lambda p: p["trip"] == trip), key=lambda p: p["time"], reverse=True
        )
        return {"name": trip, "photos": [{"id": p["id"], "caption": p["caption"]} for p in photos]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, captions = params["name"], [p["caption"] for p in params["photos"]]
        zh_list = "、".join(f"“{c}”" for c in captions)
        en_list = ", ".join(f"'{c}'" for c in captions)
        return phrased(
            zh=[f"在相册里新建一个叫“{name}”的相册，把{zh_list}这几张照片移进去",
                f"把{zh_list}这几张照片移到一个新建的“{name}”相册里",
                f"帮我整理一下相册：建个“{name}”相册，把{zh_list}都放进去"],
            en=[f"Create an album named '{name}' and move the photos {en_list} into it",
                f"Move the photos {en_list} into a new album called '{name}'",
                f"Please make a new album '{name}' and put the photos {en_list} in it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        album, problems = one_added(diff, ALBUMS, "album")
        if album is None:
            return problems + expect_changes(diff, PHOTOS, {})
        if album["name"] != params["name"]:
            problems.append(f"the album is named {album['name']!r}")
        moves = {f"{PHOTOS}[{p['id']}]/album": album["id"] for p in params["photos"]}
        return problems + expect_changes(diff, PHOTOS, moves)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from launch_gallery(ui)
        yield ui.tap("tab_albums")
        yield ui.tap("new_album")
        yield from ui.type_into("album_name", params["name"])
        yield ui.tap("create_album")
        yield ui.tap("add_photos_button")
        for photo in params["photos"]:
            yield from ui.scroll_to(f"photo_{photo['id']}")
            yield ui.tap(f"photo_{photo['id']}")
        yield ui.tap("pick_confirm")


FILE_RENAMES = {
    "租房合同_2026.pdf": "租房合同_徐汇.pdf",
    "周报_第11周.docx": "周报_林晓_第11周.docx",
    "简历_林晓.pdf": "林晓_产品经理简历.pdf",
    "杭州旅行攻略.docx": "杭州五一攻略.docx",
    "3月报销单.xlsx": "2026年3月报销单.xlsx",
    "体检报告_2025.pdf": "2025体检报告.pdf",
}


def file_params(
    world: World, rng: random.Random, accept: Callable[[Mapping[str, Any]], bool]
) -> Params:
    record = rng.choice([f for f in world.content(GALLERY_PACKAGE)["files"] if accept(f)])
    return {"file_id": record["id"], "name": record["name"], "folder": record["folder"]}


def open_file(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from launch_gallery(ui)
    yield ui.tap("tab_files")
    if params["folder"] != "download":  # 下载 is the folder shown first
        yield ui.tap(f"folder_{params['folder']}")
    yield from ui.scroll_to(f"file_{params['file_id']}")
    yield ui.tap(f"file_{params['file_id']}")


class RenameFile(GalleryTemplate):
    id = "gallery.rename_file"
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        params = file_params(world, rng, lambda f: f["name"] in FILE_RENAMES)
        return {**params, "new_name": FILE_RENAMES[params["name"]]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, new = params["name"], params["new_name"]
        return phrased(
            zh=[f"在相册的文件里，把“{name}”重命名为“{new}”",
                f"把相册文件里的“{name}”改名为“{new}”",
                f"帮我把文件“{name}”的名字改成“{new}”，它在相册的文件里"],
            en=[f"In the Gallery's files, rename '{name}' to '{new}'",
                f"Rename the file '{name}' in the Gallery to '{new}'",
                f"Please change the name of the Gallery file '{name}' to '{new}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{FILES}[{params['file_id']}]/name"
        return expect_changes(diff, FILES, {path: params["new_name"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_file(ui, params)
        yield ui.tap("file_rename")
        yield from rename_in_dialog(ui, "file_name", params["new_name"])


class DeleteFile(GalleryTemplate):
    id = "gallery.delete_file"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return file_params(world, rng, lambda f: True)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"删除文件“{name}”", f"把文件“{name}”删掉", f"文件“{name}”不需要了，帮我删除"],
            en=[f"Delete the file '{name}'", f"Remove the file '{name}'",
                f"I no longer need the file '{name}'; please delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [f["name"] for f in diff.removed(FILES)]
        if removed != [params["name"]]:
            return [f"deleted {removed}, expected only {params['name']!r}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_file(ui, params)
        yield ui.tap("file_delete")
        yield ui.tap("confirm_file_delete")


# -- question-answer templates ------------------------------------------------------------------


class CountAlbum(GalleryTemplate):
    id = "gallery.count_album"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        album = rng.choice([*dict(SEEDED_ALBUMS), FAVORITES])
        # this task's own album: a seeded 1 to 30 photos in it; the usual ones left out of it
        # were deleted (the count must be read from the device, not guessed)
        photos = seeded_photos(world, lambda p: True)
        chosen = rng.sample(photos, rng.randint(1, min(30, len(photos))))
        return {"album": album, "name": ALBUM_NAMES[album],
                "chosen": sorted(str(p["id"]) for p in chosen)}  # fmt: skip

    def setup(self, it: Any, params: Params) -> None:
        album = params["album"]
        for record in it.app_data(GALLERY_PACKAGE)["photos"]:
            inside = record["favorite"] if album == FAVORITES else record["album"] == album
            if record["id"] in params["chosen"]:
                record["trashed_at"] = None
                if album == FAVORITES:
                    record["favorite"] = True
                else:
                    record["album"] = album
            elif inside:
                record["trashed_at"] = it.clock - 86400

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"相册“{name}”里现在有多少张照片？", f"“{name}”相册里有几张照片？",
                f"帮我数一下“{name}”相册现在有多少张照片"],
            en=[f"How many photos are in the album '{name}'?",
                f"Count the photos in the '{name}' album",
                f"How many pictures does the album '{name}' hold right now?"],
        )  # fmt: skip

    @staticmethod
    def count_at_start(diff: StateDiff, album: str) -> int:
        live = [
            r for r in diff.before["apps"][GALLERY_PACKAGE]["photos"] if r["trashed_at"] is None
        ]
        if album == FAVORITES:
            return sum(1 for r in live if r["favorite"])
        return sum(1 for r in live if r["album"] == album)

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(self.count_at_start(diff, params["album"]), unit="张")

    def wrong_answer(self, params: Params) -> str:
        return "100"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_album(ui, params["album"])
        found = re.search(r"\d+", ui.text_of("photo_count"))
        if found is None:
            raise OracleError("no photo count on screen")
        yield Answer(text=found.group())


class AskPlace(GalleryTemplate):
    id = "gallery.ask_place"
    difficulty = 9
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        photo = rng.choice(seeded_photos(world, lambda p: has_clear_place(world, p)))
        return {**photo_params(photo), "place": photo["place"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption = params["caption"]
        return phrased(
            zh=[f"照片“{caption}”是在哪里拍的？", f"“{caption}”这张照片的拍摄地点是哪儿？",
                f"帮我看看照片“{caption}”是在什么地方拍的"],
            en=[f"Where was the photo '{caption}' taken?",
                f"In which place was the photo '{caption}' shot?",
                f"Check where the photo '{caption}' was taken"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return taken_at(params["place"])

    def wrong_answer(self, params: Params) -> str:
        return "上海市·人民广场" if "人民广场" not in params["place"] else "杭州市·西湖"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("details")
        yield Answer(text=place_shown(ui))


TEMPLATES: tuple[TaskTemplate, ...] = (
    FavoritePhoto(),
    DeletePhoto(),
    RestorePhoto(),
    RenamePhoto(),
    MovePhoto(),
    AlbumFromTrip(),
    RenameFile(),
    DeleteFile(),
    CountAlbum(),
    AskPlace(),
    *cross.TEMPLATES,
)
