"""Cloud Drive's questions: a folder's total size (summed over its files, scrolling), which of
two files was modified later (compared), how many people edit a file (counted)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.drive.common import (
    FILES,
    DriveTemplate,
    collect_rows,
    file_path,
    find_file,
    folders,
    mb,
    my_files,
    open_folder,
    parse_size,
    search_again,
    trail,
)
from phonebuddy.phoneworld.apps.drive.content import PEOPLE, ROLES
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction


def _stem(name: str) -> str:
    return name.rpartition(".")[0]


class FolderTotal(DriveTemplate):
    """Aggregation: the sizes of a folder's files (not its subfolders) added up, in MB."""

    id = "drive.folder_total"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        counts = {f["id"]: len(my_files(world, parent=f["id"])) for f in folders(world)}
        folder = pick(rng, [f for f in folders(world) if counts[f["id"]] >= 3])
        return {"folder_id": folder["id"], "folder": folder["name"],
                "trail": trail(world, folder["id"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        folder = params["folder"]
        return phrased(
            zh=[f"Cloud Drive的“{folder}”文件夹里的文件一共多大？用MB回答（不算子文件夹）",
                f"算一下“{folder}”文件夹中所有文件的总大小，单位MB，子文件夹不算",
                f"把“{folder}”里每个文件的大小加起来是多少MB？子文件夹里的不算"],
            en=[f"What is the total size of the files in the '{folder}' folder in Cloud Drive, in "
                "MB (not counting subfolders)?",
                f"Add up the sizes of all files in the '{folder}' folder, in MB, leaving out "
                "subfolders",
                f"How many MB do the files directly in '{folder}' take up altogether (subfolders "
                "excluded)?"],
        )  # fmt: skip

    def _total(self, diff: StateDiff, params: Params) -> float:
        files = diff.value_before(FILES)
        return mb(sum(f["size"] for f in files
                      if f["parent"] == params["folder_id"] and not f["trashed"]))  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        total = self._total(diff, params)
        return Number(total, round(total, 1), unit="MB")

    def wrong_answer(self, params: Params) -> str:
        return "0.5 MB"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_folder(ui, params["trail"])
        rows: dict[str, list[str]] = {}
        yield from collect_rows(ui, "file_", rows)
        total = sum(parse_size(texts[1]) for texts in rows.values())
        yield Answer(text=f"{round(total, 2):g} MB")


class ModifiedLater(DriveTemplate):
    """Comparison: which of two files was modified more recently."""

    id = "drive.modified_later"
    difficulty = 11
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        first, second = pick(rng, my_files(world), 2)
        return {"ids": [first["id"], second["id"]], "names": [first["name"], second["name"]]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["names"]
        return phrased(
            zh=[f"Cloud Drive里的“{a}”和“{b}”，哪个是最近修改的？",
                f"比较一下“{a}”与“{b}”的修改日期，哪个更晚？",
                f"“{a}”和“{b}”这两个文件，哪一个修改得更晚？"],
            en=[f"Of '{a}' and '{b}' in Cloud Drive, which was modified more recently?",
                f"Compare the modified dates of '{a}' and '{b}': which is later?",
                f"Which of the two files '{a}' and '{b}' was changed last?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        times = [diff.value_before(file_path(i))["modified"] for i in params["ids"]]
        later, earlier = params["names"] if times[0] > times[1] else params["names"][::-1]
        return Text((later, _stem(later)), others=(earlier, _stem(earlier)), what="file")

    def wrong_answer(self, params: Params) -> str:
        return f"{params['names'][0]} and {params['names'][1]}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        import datetime as dt

        seen = []
        for i, (file_id, name) in enumerate(zip(params["ids"], params["names"], strict=True)):
            if i:
                yield from search_again(ui, file_id, name)
            else:
                yield from find_file(ui, file_id, name)
            shown = ui.texts_in("detail_modified")[0]
            seen.append((dt.datetime.strptime(shown, "%b %d, %Y"), name))
        yield Answer(text=max(seen)[1])


# Colleagues a file may be shared with besides the contacts of PEOPLE (shown by email).
TEAM = tuple(f"{name}@brightlabs.io" for name in (
    "jordan.lee", "priya.shah", "daniel.wu", "chloe.martin", "ethan.zhang", "grace.liu",
    "henry.ford", "isabel.cruz", "jack.nguyen", "kate.miller", "leo.rossi", "nina.petrova",
    "oscar.diaz", "ruby.green", "tom.baker", "zoe.adams", "ava.thompson", "ben.carter",
    "carlos.ruiz", "hana.sato", "ivan.novak", "julia.weber",
))  # fmt: skip


class CountEditors(DriveTemplate):
    """Counting: the people with Editor access to a file, on its Share page (this task shares
    the file with a seeded team: 1 to 24 editors among up to 30 people)."""

    id = "drive.count_editors"
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        file = pick(rng, my_files(world))
        editors, others = rng.randint(1, 24), rng.randint(0, 6)
        people = rng.sample([email for _, email in PEOPLE] + list(TEAM), editors + others)
        roles = ["Editor"] * editors + [rng.choice(ROLES[:2]) for _ in range(others)]
        rng.shuffle(roles)
        shares = [{"id": email, "role": role} for email, role in zip(people, roles, strict=True)]
        return {"file_id": file["id"], "name": file["name"], "shares": shares}

    def setup(self, it: Interaction, params: Params) -> None:
        file = next(f for f in it.data["files"] if f["id"] == params["file_id"])
        file["shares"] = [dict(share) for share in params["shares"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"Cloud Drive里“{name}”有几个人是Editor权限？",
                f"数一下有多少人可以编辑（Editor）“{name}”",
                f"“{name}”共享给了多少个Editor？"],
            en=[f"How many people have Editor access to '{name}' in Cloud Drive?",
                f"Count the people who can edit (Editor) '{name}'",
                f"With how many Editors is '{name}' shared?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        shares = diff.value_before(file_path(params["file_id"]))["shares"]
        return Number(sum(1 for s in shares if s["role"] == "Editor"))

    def wrong_answer(self, params: Params) -> str:
        return str(len(params["shares"]) + 1)  # everyone with access, the owner too

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from find_file(ui, params["file_id"], params["name"])
        yield ui.tap("share")
        rows: dict[str, list[str]] = {}
        yield from collect_rows(ui, "person_", rows)
        yield Answer(text=str(sum(1 for texts in rows.values() if "Editor" in texts)))


QUESTIONS: tuple[TaskTemplate, ...] = (FolderTotal(), ModifiedLater(), CountEditors())
