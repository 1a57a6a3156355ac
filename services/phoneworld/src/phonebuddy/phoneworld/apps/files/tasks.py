"""Task templates of 文件管理 (Files): renaming, tidying 下载 by type, deleting the largest
video, sizes and dates asked about, the 回收站, a folder made if missing; and cross-app ones with
Messages, Mail and Notes (a name from an SMS or a mail, an attachment saved, a file's name or
path sent on)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.files.content import (
    APK,
    ARCHIVE,
    CATEGORIES,
    DOCUMENT,
    FILES,
    SIZES,
    VIDEO,
    category,
    extension,
    size_label,
)
from phonebuddy.phoneworld.apps.files.steps import (
    FILE_LIST,
    FOLDER_LIST,
    can_scroll_down,
    changed,
    file_params,
    files_before,
    first_of_kind,
    in_folder,
    live_before,
    open_folder,
    pick,
    seeded,
    shown_files,
    trash_in_setup,
    trashed,
)
from phonebuddy.phoneworld.apps.files.tasks_common import (
    FOLDER_NAMES,
    KIND_EN,
    TIDY,
    FilesTemplate,
    is_kind,
)
from phonebuddy.phoneworld.apps.files.tasks_cross import (
    LargestPdfToSms,
    MailFile,
    MailRenameSms,
    PathToNote,
    RenameFromSms,
    RestoreFromSms,
    SaveAttachment,
)
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    DataSize,
    Expectation,
    Number,
    Text,
    Together,
    numbers_in,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.base import pick as choose
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction

# -- single-app ---------------------------------------------------------------------------------


class TidyDownloads(FilesTemplate):
    """Long: every PDF, video and image of 下载 moved to its folder, type by type (multi-select
    and the folder picker)."""

    id = "files.tidy_downloads"
    difficulty = 27

    def sample(self, world: World, rng: random.Random) -> Params:
        moves = {f["id"]: dest for kind, _, _, dest in TIDY for f in in_folder(world, "下载")
                 if is_kind(f["name"], kind)}  # fmt: skip
        return {"moves": moves}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["整理一下下载文件夹：PDF文件都移到“文档”，视频都移到“视频”，图片都移到“图片”",
                "把下载里的所有PDF移动到“文档”、所有视频移动到“视频”、所有图片移动到“图片”",
                "下载太乱了，帮我按类型归类：PDF放“文档”，视频放“视频”，图片放“图片”"],
            en=["Tidy up the Downloads folder: move every PDF to '文档', every video to '视频' and "
                "every image to '图片'",
                "Move all PDFs in Downloads to '文档', all videos to '视频' and all images to "
                "'图片'",
                "Downloads is a mess: sort it by type, PDFs into '文档', videos into '视频', "
                "images into '图片'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = []
        for file in live_before(diff, "下载"):
            for kind, _, _, dest in TIDY:
                if is_kind(file["name"], kind):
                    problems += changed(diff, file["id"], folder=dest)
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_folder(ui, "下载")
        for kind, _, _, dest in TIDY:
            yield ui.tap("select")
            picked = 0
            while True:
                for row_id, name, _ in shown_files(ui):
                    if is_kind(name, kind) and not ui.find(f"file_{row_id}").selected:
                        yield from ui.scroll_to(f"file_{row_id}")
                        yield ui.tap(f"file_{row_id}")
                        picked += 1
                        break
                else:
                    if not can_scroll_down(ui):
                        break
                    yield ui.page_down()
            if not picked:
                yield ui.tap("select")
                continue
            yield ui.tap("batch_move")
            yield from pick(ui, dest)


class DeleteLargest(FilesTemplate):
    """The largest video (or archive, or APK) in 下载, found by sorting, deleted to 回收站."""

    id = "files.delete_largest"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        kinds = [k for k in (VIDEO, ARCHIVE, APK) if len(in_folder(world, "下载", k)) >= 2]
        return {"kind": rng.choice(kinds)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        kind, en = params["kind"], KIND_EN[params["kind"]]
        return phrased(
            zh=[f"把下载文件夹里最大的那个{kind}删掉", f"下载里的{kind}中哪个最占空间就删除哪个",
                f"手机空间不够了，帮我删除下载里体积最大的{kind}"],
            en=[f"Delete the largest {en} in the Downloads folder",
                f"Find the {en} in Downloads that takes the most space and delete it",
                f"My phone is running out of space: delete the biggest {en} in Downloads"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mine = [f for f in live_before(diff, "下载") if category(f["name"]) == params["kind"]]
        return trashed(diff, max(mine, key=lambda f: f["size"])["id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_folder(ui, "下载")
        yield ui.tap("sort_size")
        yield from first_of_kind(ui, params["kind"])
        row_id = next(r for r, name, _ in shown_files(ui) if category(name) == params["kind"])
        yield from ui.scroll_to(f"file_{row_id}")
        yield ui.long_press(f"file_{row_id}")  # select it, then 删除
        yield ui.tap("batch_delete")
        yield ui.tap("confirm_delete")


NEW_PDFS = ("扫描件", "电子发票", "行程单", "会议材料", "报销单", "说明书", "成绩单", "合同草案")


def shown_mb(kb: int) -> float:
    """A size as the list shows it, in MB."""
    return kb / 1024 if kb < 1024 else round(kb / 1024, 1)


class PdfTotal(FilesTemplate):
    """Aggregation over a scrolling list: the total size of the PDFs in 文档."""

    id = "files.pdf_total"
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        pdfs = {folder: [f for f in in_folder(world, folder) if extension(f["name"]) == "pdf"]
                for folder in ("文档", "下载")}  # fmt: skip
        folder = rng.choice([name for name, found in pdfs.items() if len(found) >= 3])
        # this task starts with a seeded few of them deleted (in the 回收站) and one or two
        # PDFs saved there lately
        gone = rng.sample(pdfs[folder], rng.randrange(len(pdfs[folder])))
        low, high = SIZES[DOCUMENT]
        new = []
        for i, stem in enumerate(rng.sample(NEW_PDFS, rng.randint(1, 2))):
            ago = rng.randrange(1, 10) * 86400 + rng.randrange(0, 86400 // 60) * 60
            day = local_time(EPOCH_START - ago)
            new.append({"id": f"f-new{i + 1}", "name": f"{stem}_{day:%m%d}.pdf",
                        "folder": folder, "size": rng.randrange(low, high),
                        "modified": EPOCH_START - ago, "starred": False,
                        "trashed_at": None})  # fmt: skip
        return {"folder": folder, "trashed": sorted(f["id"] for f in gone), "new": new}

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(FILES)["files"] += [dict(f) for f in params["new"]]
        trash_in_setup(it, params["trashed"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        d = params["folder"]
        return phrased(
            zh=[f"{d}文件夹里（不算子文件夹）所有PDF文件加起来一共多大？单位用MB",
                f"算一下{d}文件夹中PDF文件的总大小是多少MB（只算{d}本身，不含子文件夹）",
                f"{d}里直接放着的那些PDF，总共占了多少MB？"],
            en=[f"How big are all the PDFs in the {d} folder together (not its subfolders), in MB?",
                f"Add up the sizes of the PDF files in {d} (the folder itself, not its "
                "subfolders): how many MB?",
                f"How many MB do the PDFs lying directly in {d} take in total?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        pdfs = [f for f in live_before(diff, params["folder"]) if extension(f["name"]) == "pdf"]
        sizes = [f["size"] for f in pdfs]
        exact = sum(sizes) / 1024
        shown = sum(shown_mb(kb) for kb in sizes)
        return Number(round(exact, 1), round(exact, 2), round(shown, 1), unit="MB")

    def wrong_answer(self, params: Params) -> str:
        return "1.5MB"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_folder(ui, params["folder"])
        seen: dict[str, float] = {}
        while True:
            for row_id, name, rest in shown_files(ui):
                if extension(name) == "pdf" and rest:
                    size = rest[0].removeprefix("★ ").split("  ")[0]
                    value = numbers_in(size)[0]
                    seen[row_id] = value / 1024 if size.endswith("KB") else value
            if not can_scroll_down(ui):
                break
            yield ui.page_down()
        yield Answer(text=f"{sum(seen.values()):.1f} MB")


class CountSince(FilesTemplate):
    """How many files of 下载 were modified on or after a date, and which is the newest (sort
    by time, count while scrolling)."""

    id = "files.count_since"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        days = sorted({local_time(f["modified"]).date() for f in in_folder(world, "下载")})
        day = rng.choice(days[2:-2] or days)
        return {"month": day.month, "day": day.day}

    def since(self, params: Params) -> int:
        """The local midnight starting the date asked about."""
        start = local_time(EPOCH_START)
        day = start.replace(month=params["month"], day=params["day"], hour=0, minute=0)
        return int(day.timestamp())

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        m, d = params["month"], params["day"]
        return phrased(
            zh=[f"下载文件夹里有几个文件是{m}月{d}日当天或之后修改的？最新修改的是哪个文件？",
                f"数一数下载里修改时间在{m}月{d}日及以后的文件有多少个，并告诉我其中最新的文件名",
                f"从{m}月{d}日（含）开始，下载文件夹里被修改过的文件一共几个？最近改的是哪个？"],
            en=[f"How many files in Downloads were modified on or after {m}/{d}, and which one was "
                "modified last?",
                f"Count the files in the Downloads folder whose modified date is {m}/{d} or later, "
                "and name the newest of them",
                f"Since {m}/{d} (that day included), how many files in Downloads were modified? "
                "Which was modified most recently?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        since = self.since(params)
        files = live_before(diff, "下载")
        count = sum(f["modified"] >= since for f in files)
        newest = max(files, key=lambda f: f["modified"])["name"]
        others = [f["name"] for f in files if f["name"] != newest]
        named = Text((newest, newest.rpartition(".")[0]), others=others, what="file")
        return Together(Number(count, unit="个"), named)

    def wrong_answer(self, params: Params) -> str:
        return "0个"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_folder(ui, "下载")
        yield ui.tap("sort_time")
        since = (params["month"], params["day"])
        counted: set[str] = set()
        newest = shown_files(ui)[0][1]
        done = False
        while not done:
            for row_id, _, rest in shown_files(ui):
                date = rest[0].split("  ")[-1].split()[0].split("/")
                if (int(date[1]), int(date[2])) >= since:
                    counted.add(row_id)
                else:
                    done = True
            if done or not can_scroll_down(ui):
                break
            yield ui.page_down()
        yield Answer(text=f"{len(counted)}个，最新的是{newest}")


class FolderOrCreate(FilesTemplate):
    """Conditional: move a file into 文档/X if that folder exists, else make it first."""

    id = "files.folder_or_create"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        file = choose(rng, [f for f in in_folder(world, "下载") if category(f["name"]) == "文档"])
        return {**file_params(file), "target": rng.choice(FOLDER_NAMES),
                "exists": rng.random() < 0.5}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        if params["exists"]:
            folder = {"id": "dir-task", "path": f"文档/{params['target']}"}
            it.app_data(FILES)["folders"].append(folder)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, target = params["name"], params["target"]
        return phrased(
            zh=[f"看看文档里有没有叫“{target}”的文件夹：有就把下载里的“{name}”移进去，没有就先新建这个文件夹再移",
                f"把下载中的“{name}”移动到文档里的“{target}”文件夹；如果文档里还没有这个文件夹，先创建它",
                f"如果文档下已经有“{target}”文件夹，就把“{name}”从下载移进去；否则先建好这个文件夹再移"],
            en=[f"Check whether 文档 has a folder named '{target}': if it does, move '{name}' from "
                f"Downloads into it; if not, create that folder first and then move it",
                f"Move '{name}' from Downloads to the '{target}' folder of 文档; if 文档 has "
                f"no such folder yet, create it first",
                f"If there's already a '{target}' folder in 文档, move '{name}' from Downloads "
                f"into it; otherwise make that folder first, then move it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        dest = f"文档/{params['target']}"
        problems = []
        made = diff.added(FOLDER_LIST)
        had = any(d["path"] == dest for d in diff.before["apps"][FILES]["folders"])
        if had and made:
            problems.append(f"{dest} existed, yet {len(made)} folder(s) were created")
        if not had and [d["path"] for d in made] != [dest]:
            problems.append(f"expected the new folder {dest}, found {[d['path'] for d in made]}")
        return problems + changed(diff, params["file_id"], folder=dest)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        target = params["target"]
        yield from open_folder(ui, "文档")
        if ui.find(text=target) is None:
            yield ui.tap("new_folder")
            yield from ui.type_into("folder_name", target)
            yield ui.tap("create_folder")
        yield ui.back()
        yield from ui.scroll_to(text="下载")
        yield ui.tap(text="下载")
        yield from ui.scroll_to(f"file_{params['file_id']}")
        yield ui.tap(f"file_{params['file_id']}")
        yield from ui.scroll_to("move")
        yield ui.tap("move")
        yield from pick(ui, f"文档/{target}")


class CopyIntoNewFolder(FilesTemplate):
    """A new folder in 文档, two files from other folders copied into it."""

    id = "files.copy_into_new_folder"
    difficulty = 22

    def sample(self, world: World, rng: random.Random) -> Params:
        first = choose(rng, [f for f in in_folder(world, "下载") if category(f["name"]) == "文档"])
        second = choose(rng, [f for f in in_folder(world, "微信") if f["name"] != first["name"]])
        return {"target": rng.choice(FOLDER_NAMES), "first": file_params(first),
                "second": file_params(second)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        target, a, b = params["target"], params["first"]["name"], params["second"]["name"]
        return phrased(
            zh=[f"在文档里新建一个“{target}”文件夹，把下载里的“{a}”和微信里的“{b}”复制进去",
                f"帮我在文档下建文件夹“{target}”，然后把“{a}”（在下载）和“{b}”（在微信）各复制一份放进去",
                f"文档下新建“{target}”，再复制下载中的“{a}”、微信中的“{b}”到这个文件夹，原文件保留"],
            en=[f"Create a folder '{target}' in 文档 and copy '{a}' from Downloads and '{b}' from "
                f"微信 into it",
                f"Make the folder '{target}' under 文档, then put a copy of '{a}' (in "
                f"Downloads) and of '{b}' (in 微信) in it",
                f"Add a '{target}' folder under 文档 and copy Downloads' '{a}' and 微信's '{b}' "
                f"into it, keeping the originals"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        dest = f"文档/{params['target']}"
        folder, problems = one_added(diff, FOLDER_LIST, "folder")
        if folder is not None and folder["path"] != dest:
            problems.append(f"the new folder is {folder['path']}, expected {dest}")
        copies = diff.added(FILE_LIST)
        before = {f["id"]: f for f in files_before(diff)}
        wanted = sorted((before[params[k]["file_id"]]["name"], before[params[k]["file_id"]]["size"])
                        for k in ("first", "second"))  # fmt: skip
        got = sorted((c["name"], c["size"]) for c in copies if c["folder"] == dest)
        if got != wanted or len(copies) != 2:
            problems.append(f"expected copies {wanted} in {dest}, found {copies}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        target = params["target"]
        yield from open_folder(ui, "文档")
        yield ui.tap("new_folder")
        yield from ui.type_into("folder_name", target)
        yield ui.tap("create_folder")
        yield ui.back()
        for key in ("first", "second"):
            file = params[key]
            yield from ui.scroll_to(text=file["folder"])
            yield ui.tap(text=file["folder"])
            yield from ui.scroll_to(f"file_{file['file_id']}")
            yield ui.tap(f"file_{file['file_id']}")
            yield from ui.scroll_to("copy")
            yield ui.tap("copy")
            yield from pick(ui, f"文档/{target}")
            if key == "first":
                yield ui.back()  # the file's page -> its folder
                yield ui.back()  # -> 文件管理's folders


class EmptyTrash(FilesTemplate):
    """The 回收站 emptied, after its confirmation dialog."""

    id = "files.empty_trash"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"gone": [f["id"] for f in choose(rng, seeded(world), rng.randrange(2, 5))]}

    def setup(self, it: Interaction, params: Params) -> None:
        trash_in_setup(it, params["gone"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["把文件管理的回收站清空", "回收站里的文件都不要了，全部彻底删除",
                "帮我清空一下文件管理里的回收站，腾点空间"],
            en=["Empty the trash in Files", "I don't need anything in the trash: delete it all "
                "for good", "Please empty the Files trash to free some space"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        binned = sorted(f["id"] for f in files_before(diff) if f["trashed_at"] is not None)
        gone = sorted(f["id"] for f in diff.removed(FILE_LIST))
        return [] if gone == binned else [f"removed {gone}, expected the trash {binned}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("文件管理")
        yield ui.tap("trash")
        yield ui.tap("empty_trash")
        yield ui.tap("confirm_empty")


class CategoryUsage(FilesTemplate):
    """How much space one category of files takes (the storage page)."""

    id = "files.category_usage"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        kind, other = choose(rng, CATEGORIES, 2)
        total = sum(f["size"] for f in seeded(world) if category(f["name"]) == other)
        return {"kind": kind, "other_total": size_label(total)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        kind = params["kind"]
        en = {"文档": "documents", "图片": "images", "视频": "videos", "音频": "audio files",
              "压缩包": "archives", "安装包": "APK installers"}[kind]  # fmt: skip
        return phrased(
            zh=[f"手机里的{kind}一共占了多少存储空间？", f"查一下{kind}类文件总共多大",
                f"存储空间里{kind}用了多少？"],
            en=[f"How much storage do the {en} on my phone take in total?",
                f"Look up the total size of my {en}",
                f"In the storage overview, how much space do {en} use?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        live = [f for f in files_before(diff) if f["trashed_at"] is None]
        kb = sum(f["size"] for f in live if category(f["name"]) == params["kind"])
        return DataSize(kb)

    def wrong_answer(self, params: Params) -> str:
        return str(params["other_total"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("文件管理")
        yield ui.tap("storage")
        row = f"usage_{CATEGORIES.index(params['kind'])}"
        yield from ui.scroll_to(row)
        size = next(t for t in ui.texts_in(row) if t.endswith(("KB", "MB", "GB")))
        yield Answer(text=size)


TEMPLATES: tuple[TaskTemplate, ...] = (
    TidyDownloads(),
    DeleteLargest(),
    PdfTotal(),
    CountSince(),
    FolderOrCreate(),
    CopyIntoNewFolder(),
    EmptyTrash(),
    CategoryUsage(),
    RenameFromSms(),
    RestoreFromSms(),
    LargestPdfToSms(),
    MailRenameSms(),
    SaveAttachment(),
    PathToNote(),
    MailFile(),
)
