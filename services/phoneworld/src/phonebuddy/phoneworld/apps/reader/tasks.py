"""Task templates of the Reader app (读书): the single-app and question ones here, the
cross-app ones imported from `cross`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.reader.app import READER
from phonebuddy.phoneworld.apps.reader.common import (
    BOOKMARKS,
    SHELF,
    ReaderTemplate,
    added_to_shelf,
    book_params,
    books,
    find_in_store,
    off_shelf,
    open_shelf_book,
    shelved,
)
from phonebuddy.phoneworld.apps.reader.content import CATEGORIES, progress
from phonebuddy.phoneworld.apps.reader.cross import (
    AddFromSms,
    FreeOrNote,
    QuoteToNote,
    RecommendChain,
    ShareToSms,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    Duration,
    Expectation,
    Number,
    Text,
    Together,
)
from phonebuddy.phoneworld.tasks.base import Category, Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import A_TIME, StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI, texts
from phonebuddy.phoneworld.tasks.payments import WALLET, wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction


class AddToShelf(ReaderTemplate):
    id = "reader.add_to_shelf"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return book_params(pick(rng, off_shelf(world, free=True)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, author = params["title"], params["author"]
        return phrased(
            zh=[f"在读书App里把{author}的“{title}”加入书架", f"帮我把“{title}”这本书加到书架上",
                f"去书城找到“{title}”（{author}著），加入我的书架"],
            en=[f"In Reader, add '{title}' by {author} to my shelf",
                f"Please put the book '{title}' on my bookshelf",
                f"Find '{title}' by {author} in the book store and add it to my shelf"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return added_to_shelf(diff, params["book_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("读书")
        yield from find_in_store(ui, params["title"], params["book_id"])
        yield ui.tap("add_shelf")


class BuyBook(TaskTemplate):
    """A paid book is paid in the wallet (the payment redirect), then lands on the shelf."""

    id = "reader.buy_book"
    category = Category.CROSS_APP
    apps = (READER, WALLET)
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        book = pick(rng, off_shelf(world, free=False))
        return {**book_params(book), "price_cents": book["price"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, author = params["title"], params["author"]
        return phrased(
            zh=[f"在读书里买下{author}的“{title}”", f"帮我购买电子书“{title}”并付款",
                f"“{title}”是付费书，去书城把它买了"],
            en=[f"In Reader, buy '{title}' by {author}", f"Please buy the e-book '{title}' and pay",
                f"'{title}' is a paid book: buy it in the book store"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        bought, problems = one_added(diff, f"apps/{READER}/purchased", "purchase")
        if bought is not None and bought["id"] != params["book_id"]:
            problems.append(f"bought {bought['id']}, expected {params['book_id']}")
        problems += wallet_payment_problems(
            diff, amount_cents=params["price_cents"], reference=f"book:{params['book_id']}"
        )
        return problems + added_to_shelf(diff, params["book_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("读书")
        yield from find_in_store(ui, params["title"], params["book_id"])
        yield ui.tap("buy")
        yield ui.tap("pay")
        yield ui.tap("com.pw.wallet:id/pay_confirm")


class NextChapter(ReaderTemplate):
    id = "reader.next_chapter"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        book = pick(rng, shelved(world))
        return {**book_params(book), "chapters": len(book["chapters"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"继续读“{title}”，翻到下一章", f"打开书架上的“{title}”，读到下一章",
                f"在读书里把“{title}”往后翻一章"],
            en=[f"Continue reading '{title}' and go on to the next chapter",
                f"Open '{title}' from my shelf and move to its next chapter",
                f"In Reader, advance '{title}' by one chapter"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{SHELF}[{params['book_id']}]"
        before = diff.value_before(path)
        chapter = before["chapter"] + 1
        return expect_changes(diff, path, {
            f"{path}/chapter": chapter, f"{path}/last_read": A_TIME,
            f"{path}/progress": progress(chapter, params["chapters"]),
        })  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shelf_book(ui, params["title"])
        yield ui.tap("read")
        yield from ui.scroll_to("next_chapter")
        yield ui.tap("next_chapter")


class Bookmark(ReaderTemplate):
    id = "reader.bookmark"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        book = pick(rng, shelved(world))
        return {**book_params(book), "chapter": book["entry"]["chapter"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"给“{title}”正在读的这一章加个书签", f"打开“{title}”，在当前章节添加书签",
                f"在读书里为“{title}”读到的那章做个书签"],
            en=[f"Bookmark the chapter of '{title}' I'm reading now",
                f"Open '{title}' and add a bookmark on the current chapter",
                f"In Reader, put a bookmark on the chapter of '{title}' where I left off"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mark, problems = one_added(diff, BOOKMARKS, "bookmark")
        wanted = (params["book_id"], params["chapter"])
        if mark is not None and (mark["book"], mark["chapter"]) != wanted:
            problems.append(
                f"bookmarked {mark['book']} chapter {mark['chapter']}, expected {wanted}"
            )
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shelf_book(ui, params["title"])
        yield ui.tap("read")
        yield ui.tap("bookmark")


class RemoveFromShelf(ReaderTemplate):
    id = "reader.remove"
    difficulty = 3

    def sample(self, world: World, rng: random.Random) -> Params:
        return book_params(pick(rng, shelved(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"把“{title}”从书架上移除", f"书架上的“{title}”不想看了，帮我移出书架",
                f"在读书里将“{title}”移出书架"],
            en=[f"Remove '{title}' from my bookshelf",
                f"I no longer want '{title}' on my shelf: remove it",
                f"In Reader, take '{title}' off the shelf"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [s["id"] for s in diff.removed(SHELF)]
        if removed != [params["book_id"]]:
            return [f"removed {removed}, expected only {params['book_id']}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("读书")
        yield from ui.scroll_to(f"remove_{params['book_id']}")
        yield ui.tap(f"remove_{params['book_id']}")
        yield ui.tap("confirm_remove")


class WeekMinutes(ReaderTemplate):
    """Aggregation: the week's reading minutes, summed over the days."""

    id = "reader.week_minutes"
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's own week of reading, a day's minutes as the app's content draws them
        minutes = [rng.randrange(0, 90) for _ in world.content(READER)["minutes"]]
        return {"minutes": minutes, "total": sum(minutes)}

    def setup(self, it: Interaction, params: Params) -> None:
        it.data["minutes"] = list(params["minutes"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我这周一共读了多少分钟书？", "算一下读书App里本周的阅读总时长（分钟）",
                "这一周每天的阅读时间加起来是多少分钟？"],
            en=["How many minutes in total did I read this week?",
                "Add up this week's reading time in Reader, in minutes",
                "What do my daily reading minutes this week sum to?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Duration(sum(diff.value_before(f"apps/{READER}/minutes")))

    def wrong_answer(self, params: Params) -> str:
        return f"{params['total'] + 7}分钟"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("读书")
        yield ui.tap("tab_me")
        total = 0
        for day in range(7):
            yield from ui.scroll_to(f"day_{day}")
            total += int(next(t for t in ui.texts_in(f"day_{day}") if t.endswith("分钟"))[:-2])
        yield Answer(text=f"{total}分钟")


class CompareProgress(ReaderTemplate):
    """Comparison: which of two shelf books is read further, and by how many points."""

    id = "reader.compare_progress"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # Titles with numerals ("三国", "一个人") would read as numbers in the answer.
        pool = [b for b in shelved(world) if not set(b["title"]) & set("一二三四五六七八九十")]
        first, second = pick(rng, pool, 2)
        # this task's own reading positions: the chapters each book is open at
        while True:
            chapters = [rng.randrange(len(b["chapters"])) for b in (first, second)]
            shown = [progress(c, len(b["chapters"]))
                     for c, b in zip(chapters, (first, second), strict=True)]  # fmt: skip
            if shown[0] != shown[1]:
                break
        return {"first": first["title"], "second": second["title"],
                "ids": [first["id"], second["id"]], "chapters": chapters,
                "progress": shown}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        for book_id, chapter, shown in zip(params["ids"], params["chapters"], params["progress"],
                                           strict=True):  # fmt: skip
            entry = next(s for s in it.data["shelf"] if s["id"] == book_id)
            entry.update(chapter=chapter, progress=shown)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        return phrased(
            zh=[f"书架上的“{a}”和“{b}”哪本读得更多？进度差多少个百分点？",
                f"比较一下“{a}”和“{b}”的阅读进度：哪本更靠前，相差几个百分点",
                f"“{a}”与“{b}”，我哪本读的进度高，高出多少%？"],
            en=[f"Of '{a}' and '{b}' on my shelf, which have I read more of, and by how many "
                "percentage points?",
                f"Compare my progress in '{a}' and '{b}': which is further along, and by how much",
                f"Between '{a}' and '{b}', which has the higher reading progress, and how many "
                "points higher?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        a, b = (diff.value_before(f"{SHELF}[{i}]")["progress"] for i in params["ids"])
        ahead, behind = (
            (params["first"], params["second"]) if a > b else (params["second"], params["first"])
        )
        return Together(Text((ahead,), others=(behind,), what="book"), Number(abs(a - b), unit="%"))

    def wrong_answer(self, params: Params) -> str:
        a, b = params["progress"]
        return f"“{params['second'] if a > b else params['first']}”，多{abs(a - b)}%"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("读书")
        yield ui.tap("sort_progress")
        found = {}
        for book_id in params["ids"]:
            yield from ui.scroll_to(f"shelf_{book_id}")
            said = next(t for t in ui.texts_in(f"shelf_{book_id}") if "已读" in t)
            found[book_id] = int(said.split("已读")[1].rstrip("%"))
        a, b = (found[i] for i in params["ids"])
        ahead = params["first"] if a > b else params["second"]
        yield Answer(text=f"“{ahead}”，多{abs(a - b)}%")


class AddSeveral(ReaderTemplate):
    """Long horizon: four free books searched for and shelved one after another."""

    id = "reader.add_four"
    difficulty = 22

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, off_shelf(world, free=True), 4)
        return {"ids": [b["id"] for b in chosen], "titles": [b["title"] for b in chosen]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = "、".join(f"“{t}”" for t in params["titles"])
        en = ", ".join(f"'{t}'" for t in params["titles"])
        return phrased(
            zh=[f"把这四本书都加入读书的书架：{zh}", f"帮我在书城找到{zh}，全部加到书架上",
                f"书架上添上这几本：{zh}"],
            en=[f"Add these four books to my Reader shelf: {en}",
                f"Find {en} in the book store and put them all on my shelf",
                f"Put these books on my shelf: {en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = sorted(s["id"] for s in diff.added(SHELF))
        if added != sorted(params["ids"]):
            return [f"shelved {added}, expected {sorted(params['ids'])}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("读书")
        yield ui.tap("tab_store")
        for i, (book_id, title) in enumerate(zip(params["ids"], params["titles"], strict=True)):
            if i:
                yield ui.back()
            if ui.find("clear_search") is not None:
                yield ui.tap("clear_search")
            yield from ui.type_into("search", title)
            yield ui.tap(f"book_{book_id}")
            yield ui.tap("add_shelf")


class LowestRatedAuthor(ReaderTemplate):
    """Scroll and compare: the author of the lowest-rated book of a category (the store lists
    books best-rated first, so the answer lies at the end of the list)."""

    id = "reader.lowest_rated_author"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        category = rng.choice(CATEGORIES)
        inside = sorted((b for b in books(world) if b["category"] == category),
                        key=lambda b: b["rating"])  # fmt: skip
        return {"category": category, "author": inside[0]["author"],
                "others": [b["author"] for b in inside[1:]]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        category = params["category"]
        return phrased(
            zh=[f"读书书城里“{category}”类评分最低的那本书是谁写的？",
                f"查一下书城“{category}”分类中评分最低的书的作者",
                f"在读书的“{category}”类书里，评分垫底的那本作者是谁？"],
            en=[f"Who wrote the lowest-rated book in the '{category}' category of Reader's store?",
                f"Look up the author of the lowest-rated '{category}' book in the store",
                f"Among Reader's '{category}' books, who is the author of the worst-rated one?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Text((params["author"],), others=params["others"], what="author")

    def wrong_answer(self, params: Params) -> str:
        return str(params["others"][0])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("读书")
        yield ui.tap("tab_store")
        yield ui.tap(f"cat_{params['category']}")
        prefix = f"{READER}:id/book_"
        rated: dict[str, tuple[float, str]] = {}
        while True:
            for node in ui.device.ui_tree().walk():
                if node.resource_id.startswith(prefix):
                    line = next(t for t in texts(node) if "评分" in t)
                    rated[node.resource_id] = (float(line.split("评分")[1]), line.split("｜")[0])
            if ui.device.scroll_room("content")[1] <= 0:
                break
            yield ui.page_down()
        yield Answer(text=min(rated.values())[1])


TEMPLATES: tuple[TaskTemplate, ...] = (
    AddToShelf(),
    BuyBook(),
    NextChapter(),
    Bookmark(),
    RemoveFromShelf(),
    WeekMinutes(),
    CompareProgress(),
    AddFromSms(),
    RecommendChain(),
    ShareToSms(),
    QuoteToNote(),
    FreeOrNote(),
    AddSeveral(),
    LowestRatedAuthor(),
)
