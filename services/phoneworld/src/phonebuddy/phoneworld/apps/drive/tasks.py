"""Task templates of Cloud Drive: the single-app ones here (star, rename, new folder, trash,
restore, change a role, a reorganisation, "big: offline, else star"), the questions in
`questions`, the cross-app ones in `cross`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.drive.common import (
    FOLDERS,
    DriveTemplate,
    all_files,
    changed,
    file_params,
    file_path,
    find_file,
    folders,
    is_big,
    my_files,
    open_drive,
    open_folder,
    renamed,
    trail,
)
from phonebuddy.phoneworld.apps.drive.content import BIG_MB, ROLES, ROOT, slug
from phonebuddy.phoneworld.apps.drive.cross import CROSS_TEMPLATES
from phonebuddy.phoneworld.apps.drive.questions import QUESTIONS
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction

SUFFIXES = (" Final", " Old", " Backup", " Reviewed", " Shared Copy")
NEW_FOLDERS = ("Invoices", "Drafts", "Clients", "Contracts", "Receipts", "Scans", "Presentations",
               "Templates")  # fmt: skip


class StarFile(DriveTemplate):
    id = "drive.star"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return file_params(world, pick(rng, my_files(world, starred=False)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"在Cloud Drive里给“{name}”加星标", f"帮我把“{name}”标为星标文件",
                f"把文件“{name}”加到Cloud Drive的Starred里"],
            en=[f"Star '{name}' in Cloud Drive",
                f"Please mark the file '{name}' with a star",
                f"Add the file '{name}' to my Starred files in Cloud Drive"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return changed(diff, params["file_id"], starred=True)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from find_file(ui, params["file_id"], params["name"])
        yield ui.tap("starred")


class RenameFile(DriveTemplate):
    id = "drive.rename"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        file = pick(rng, my_files(world))
        stem, _, ext = file["name"].rpartition(".")
        return {**file_params(world, file), "new": f"{stem}{rng.choice(SUFFIXES)}.{ext}"}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, new = params["name"], params["new"]
        return phrased(
            zh=[f"把Cloud Drive里的“{name}”重命名为“{new}”", f"帮我把文件“{name}”改名成“{new}”",
                f"文件“{name}”的名字改为“{new}”"],
            en=[f"Rename '{name}' in Cloud Drive to '{new}'",
                f"Please change the name of the file '{name}' to '{new}'",
                f"I want '{name}' to be called '{new}': rename it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return renamed(diff, params["file_id"], params["new"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from find_file(ui, params["file_id"], params["name"])
        yield from rename_to(ui, params["new"])


def rename_to(ui: OracleUI, new: str) -> Iterator[Action]:
    """On a file's details: Rename, type the new name, OK."""
    yield from ui.scroll_to("rename")
    yield ui.tap("rename")
    yield from ui.type_into("new_name", new)
    yield ui.tap("rename_ok")


def new_folder_problems(diff: StateDiff, name: str, parent: str) -> tuple[str | None, list[str]]:
    """The id of the one folder added (claimed), and what is wrong with it."""
    folder, problems = one_added(diff, FOLDERS, "folder")
    if folder is None:
        return None, problems
    if (folder["name"], folder["parent"]) != (name, parent):
        problems.append(f"made {folder['name']!r} in {folder['parent']}, expected {name!r} in "
                        f"{parent}")  # fmt: skip
    return str(folder["id"]), problems


class NewFolder(DriveTemplate):
    id = "drive.new_folder"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        parent = pick(rng, [f for f in folders(world) if f["parent"] == ROOT])
        return {"parent": parent["id"], "parent_name": parent["name"],
                "trail": trail(world, parent["id"]),
                "new": rng.choice(NEW_FOLDERS)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        new, parent = params["new"], params["parent_name"]
        return phrased(
            zh=[f"在Cloud Drive的“{parent}”文件夹里新建一个叫“{new}”的文件夹",
                f"帮我在“{parent}”下面建个文件夹“{new}”",
                f"“{parent}”里加一个新文件夹，名字叫“{new}”"],
            en=[f"In Cloud Drive, create a folder named '{new}' inside '{parent}'",
                f"Please make a new folder '{new}' in the '{parent}' folder",
                f"Add a folder called '{new}' under '{parent}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return new_folder_problems(diff, params["new"], params["parent"])[1]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_folder(ui, params["trail"])
        yield ui.tap("new_folder")
        yield from ui.type_into("folder_name", params["new"])
        yield ui.tap("create_folder")


class TrashFile(DriveTemplate):
    id = "drive.trash"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return file_params(world, pick(rng, my_files(world, starred=False)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"把Cloud Drive里的“{name}”移到回收站（Trash）",
                f"帮我删除文件“{name}”，放进Trash就行",
                f"“{name}”不要了，把它移到Cloud Drive的Trash里"],
            en=[f"Move '{name}' to the Trash in Cloud Drive", f"Please delete the file '{name}' "
                "(move it to the Trash)", f"I don't need '{name}' anymore: put it in the Trash"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return changed(diff, params["file_id"], trashed=True)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from find_file(ui, params["file_id"], params["name"])
        yield from ui.scroll_to("trash")
        yield ui.tap("trash")
        yield ui.tap("confirm_trash")


class RestoreFile(DriveTemplate):
    id = "drive.restore"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return file_params(world, pick(rng, [f for f in all_files(world) if f["trashed"]]))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"把“{name}”从Cloud Drive的Trash里恢复", f"我误删了“{name}”，帮我从回收站还原",
                f"去Trash里把文件“{name}”恢复回来"],
            en=[f"Restore '{name}' from the Trash in Cloud Drive",
                f"I deleted '{name}' by mistake: restore it from the Trash",
                f"Go to the Trash and bring the file '{name}' back"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return changed(diff, params["file_id"], trashed=False)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_drive(ui)
        yield ui.tap("tab_trash")
        yield from ui.scroll_to(f"trash_more_{params['file_id']}")
        yield ui.tap(f"trash_more_{params['file_id']}")
        yield ui.tap("restore")
        yield ui.tap("confirm_restore")


class ChangeRole(DriveTemplate):
    id = "drive.change_role"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        file = pick(rng, [f for f in my_files(world) if f["shares"]])
        share = pick(rng, file["shares"])
        role = rng.choice([r for r in ROLES if r != share["role"]])
        return {**file_params(world, file), "email": share["id"], "role": role}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, email, role = params["name"], params["email"], params["role"]
        return phrased(
            zh=[f"把{email}对“{name}”的权限改成{role}",
                f"在“{name}”的共享设置里，把{email}的角色设为{role}",
                f"让{email}在“{name}”上成为{role}"],
            en=[f"Change {email}'s access to '{name}' to {role}",
                f"In the sharing settings of '{name}', set {email}'s role to {role}",
                f"Make {email} a {role} on '{name}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        base = file_path(params["file_id"])
        return expect_changes(
            diff, base, {f"{base}/shares[{params['email']}]/role": params["role"]}
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from find_file(ui, params["file_id"], params["name"])
        yield ui.tap("share")
        person = f"person_{slug(params['email'])}"
        yield from ui.scroll_to(person)
        yield ui.tap(person)
        yield ui.tap(f"set_{params['role'].lower()}")


class Reorganize(DriveTemplate):
    """Long horizon: a new folder in My Drive, then four files from around the tree moved in."""

    id = "drive.reorganize"
    difficulty = 30

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, [f for f in my_files(world) if f["parent"] != ROOT], 4)
        return {"new": rng.choice(NEW_FOLDERS), "ids": [f["id"] for f in chosen],
                "names": [f["name"] for f in chosen]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        new = params["new"]
        zh = "、".join(f"“{n}”" for n in params["names"])
        en = ", ".join(f"'{n}'" for n in params["names"])
        return phrased(
            zh=[f"在Cloud Drive的My Drive里新建文件夹“{new}”，再把{zh}这四个文件都移进去",
                f"帮我整理一下Cloud Drive：建一个“{new}”文件夹（在My Drive下），把{zh}移到里面",
                f"把{zh}归到My Drive下一个新文件夹“{new}”里"],
            en=[f"In Cloud Drive, create a folder '{new}' in My Drive and move these four files "
                f"into it: {en}",
                f"Please tidy up my Cloud Drive: make a folder '{new}' under My Drive and move "
                f"{en} "
                "there",
                f"Gather {en} in a new My Drive folder called '{new}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        folder_id, problems = new_folder_problems(diff, params["new"], ROOT)
        for file_id in params["ids"]:
            if folder_id is None:
                diff.touched(file_path(file_id))
                continue
            problems += changed(diff, file_id, parent=folder_id)
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_drive(ui)
        yield ui.tap("new_folder")
        yield from ui.type_into("folder_name", params["new"])
        yield ui.tap("create_folder")
        yield ui.tap("search")
        for i, (file_id, name) in enumerate(zip(params["ids"], params["names"], strict=True)):
            if i:
                yield ui.back()
                yield ui.tap("clear_search")
            yield from ui.type_into("q", name)
            yield ui.tap(f"file_{file_id}")
            yield from ui.scroll_to("move")
            yield ui.tap("move")
            destination = f"My Drive / {params['new']}"
            yield from ui.scroll_to(text=destination)
            yield ui.tap(text=destination)


class BigOfflineOrStar(DriveTemplate):
    """Conditional: a file over 10 MB is made available offline, a smaller one starred."""

    id = "drive.big_offline_or_star"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = [f for f in my_files(world, starred=False, offline=False)
                if f["kind"] in ("pdf", "image")]  # fmt: skip
        big = rng.random() < 0.5
        file = pick(rng, [f for f in pool if is_big(f) == big] or pool)
        return {**file_params(world, file), "big": is_big(file)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"看看Cloud Drive里“{name}”有多大：超过{BIG_MB} MB就设为离线可用，否则给它加星标",
                f"如果“{name}”大于{BIG_MB} MB，打开它的Available offline；不然就把它标星",
                f"“{name}”要是比{BIG_MB} MB大，就让它离线可用，要是不大，就加到Starred"],
            en=[f"Check the size of '{name}' in Cloud Drive: if it is larger than {BIG_MB} MB make "
                "it available offline, otherwise star it",
                f"If '{name}' is bigger than {BIG_MB} MB, turn on Available offline for it; if "
                "not, star it",
                f"Make '{name}' available offline if it's over {BIG_MB} MB, else add it to "
                "Starred"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["big"]:
            return changed(diff, params["file_id"], offline=True)
        return changed(diff, params["file_id"], starred=True)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from find_file(ui, params["file_id"], params["name"])
        size = ui.texts_in("detail_size")[0]
        number, unit = size.split()
        big = unit == "MB" and float(number) > BIG_MB
        yield ui.tap("offline" if big else "starred")


TEMPLATES: tuple[TaskTemplate, ...] = (
    StarFile(),
    RenameFile(),
    NewFolder(),
    TrashFile(),
    RestoreFile(),
    ChangeRole(),
    Reorganize(),
    BigOfflineOrStar(),
    *QUESTIONS,
    *CROSS_TEMPLATES,
)
