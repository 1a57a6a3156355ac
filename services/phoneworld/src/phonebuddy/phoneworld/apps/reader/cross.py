"""Cross-app templates of the Reader app (读书): a book a friend texts about, a book's title
and author texted to a contact, a quote copied into Notes, "free: shelve it, else note it in
想读", and a Messages → Reader → Notes chain."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.reader.app import READER
from phonebuddy.phoneworld.apps.reader.common import (
    MESSAGES,
    NOTES,
    QUOTE_TITLES,
    WANT,
    ReaderTemplate,
    added_to_shelf,
    book_params,
    books,
    find_in_store,
    off_shelf,
    open_shelf_book,
    shelved,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    Number,
    check_written,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import copy_text, paste_into_new_note
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


def recommend_sms(title: str, author: str) -> str:
    return f"最近在读{author}的“{title}”，特别好看，推荐你也看看！"


class Recommended(TaskTemplate):
    """A friend's SMS names a book: shared setup and reading of it."""

    def sample(self, world: World, rng: random.Random) -> Params:
        book = pick(rng, off_shelf(world, free=True))
        friend = pick(rng, address_book(world))
        return {**book_params(book), "friend": friend["name"], "phone": friend["phone"]}

    def setup(self, it: Interaction, params: Params) -> None:
        sms = recommend_sms(params["title"], params["author"])
        add_incoming(it, (params["phone"], params["friend"]), sms, ago=1800, key="book")


def read_recommendation(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from open_thread(ui, params["friend"])
    if ui.find(text=recommend_sms(params["title"], params["author"])) is None:
        raise OracleError("the recommendation is not in the thread")


class AddFromSms(Recommended):
    """Messages → Reader: the book a friend recommends by SMS, found and shelved."""

    id = "reader.add_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, READER)
    difficulty = 9

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        friend = params["friend"]
        return phrased(
            zh=[f"{friend}发短信给我推荐了一本书，帮我在读书里把它加入书架",
                f"看看{friend}短信里推荐的是哪本书，加到我的书架上",
                f"把{friend}在信息里推荐的那本书放进读书App的书架"],
            en=[f"{friend} texted me a book recommendation; add that book to my shelf in Reader",
                f"Check which book {friend} recommended by SMS and put it on my shelf",
                f"Add the book {friend} recommended in Messages to my Reader bookshelf"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return added_to_shelf(diff, params["book_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from read_recommendation(ui, params)
        yield ui.open("读书")
        yield from find_in_store(ui, params["title"], params["book_id"])
        yield ui.tap("add_shelf")


class RecommendChain(Recommended):
    """Messages → Reader → Notes: shelve the recommended book, note its author and rating."""

    id = "reader.recommend_chain"
    category = Category.CROSS_APP
    apps = (MESSAGES, READER, NOTES)
    difficulty = 16
    note_title = "好书推荐"

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        friend, title = params["friend"], self.note_title
        return phrased(
            zh=[f"把{friend}短信推荐的书加入读书书架，再新建备忘录“{title}”，内容写上这本书的评分",
                f"{friend}发短信推荐了一本书：加到书架上，并把它在书城的评分记到新备忘录“{title}”里",
                f"先把{friend}信息里说的那本书放进书架，然后建一条叫“{title}”的备忘录记下它的评分"],
            en=[f"Add the book {friend} recommended by SMS to my Reader shelf, then create a note "
                f"'{title}' with the book's rating",
                f"{friend} texted me a book: shelve it, and save its store rating in a new note "
                f"'{title}'",
                f"Put the book from {friend}'s message on my shelf, then make a note called "
                f"'{title}' recording its rating"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = added_to_shelf(diff, params["book_id"])
        note, note_problems = one_new_note(diff, self.note_title)
        problems += note_problems
        if note is not None:
            problems += check_written(note["body"], Number(params["rating"]), what="the note",
                                      context=self.question_texts(params))  # fmt: skip
        return problems

    def sample(self, world: World, rng: random.Random) -> Params:
        params = super().sample(world, rng)
        book = next(b for b in books(world) if b["id"] == params["book_id"])
        return {**params, "rating": book["rating"]}

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from read_recommendation(ui, params)
        yield ui.open("读书")
        yield from find_in_store(ui, params["title"], params["book_id"])
        rating = ui.text_of("info").split("评分")[1].split("｜")[0]
        yield ui.tap("add_shelf")
        yield from write_note(ui, self.note_title, rating)


def write_note(ui: OracleUI, title: str, body: str) -> Iterator[Action]:
    yield ui.open("备忘录")
    yield ui.tap("new_note")
    yield from ui.type_into("title", title)
    yield from ui.type_into("body", body)
    yield ui.tap("save")


class ShareToSms(ReaderTemplate):
    """Reader → Messages: a book's title and author texted to a contact."""

    id = "reader.share_sms"
    category = Category.CROSS_APP
    apps = (READER, MESSAGES)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        book = pick(rng, shelved(world))
        person = pick(rng, address_book(world))
        return {**book_params(book), "to": person["name"], "to_phone": person["phone"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, to = params["title"], params["to"]
        return phrased(
            zh=[f"把书架上“{title}”的书名和作者发短信告诉{to}",
                f"{to}想知道我在读的“{title}”是谁写的，短信发给他书名和作者",
                f"给{to}发条短信，写上“{title}”这本书的书名和作者"],
            en=[f"Text {to} the title and author of '{title}' from my shelf",
                f"{to} wants to know who wrote '{title}': send them the title and author by SMS",
                f"Send {to} an SMS with the title and the author of the book '{title}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        missing = [v for v in (params["title"], params["author"]) if v not in text]
        return [f"the SMS {text!r} lacks {missing}"] if missing else []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shelf_book(ui, params["title"])
        title, author = ui.text_of("title"), ui.text_of("author")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("body", f"“{title}”，作者{author}")
        yield ui.tap("send")


class QuoteToNote(ReaderTemplate):
    """Reader → Notes: the first paragraph of the chapter being read, copied into a note."""

    id = "reader.quote_to_note"
    category = Category.CROSS_APP
    apps = (READER, NOTES)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        book = pick(rng, shelved(world))
        text = book["chapters"][book["entry"]["chapter"]]["paragraphs"][0]
        return {**book_params(book), "quote": text, "note": rng.choice(QUOTE_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, note = params["title"], params["note"]
        return phrased(
            zh=[f"把“{title}”当前章节的第一段复制到新备忘录“{note}”里",
                f"打开“{title}”正在读的那章，把第一段摘抄到备忘录，标题“{note}”",
                f"新建备忘录“{note}”，内容是“{title}”读到的这章的第一段"],
            en=[f"Copy the first paragraph of the current chapter of '{title}' into a new note "
                f"'{note}'",
                f"Open the chapter of '{title}' I'm reading and save its first paragraph in a note "
                f"titled '{note}'",
                f"Create a note '{note}' holding the first paragraph of the chapter of '{title}' "
                "I'm on"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["note"])
        if note is not None and note["body"].strip() != params["quote"]:
            problems.append(f"the note says {note['body']!r}, expected the paragraph")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shelf_book(ui, params["title"])
        yield ui.tap("read")
        yield from copy_text(ui, "para_0")
        yield from paste_into_new_note(ui, params["note"])


class FreeOrNote(TaskTemplate):
    """Conditional: a free book goes on the shelf, a paid one into a new note 想读."""

    id = "reader.free_or_note"
    category = Category.CROSS_APP
    apps = (READER, NOTES)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        book = pick(rng, off_shelf(world))
        return {**book_params(book), "free": book["price"] == 0}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"看看“{title}”是不是免费的：免费就加入书架，收费就新建备忘录“{WANT}”写上书名",
                f"如果“{title}”免费，帮我加到书架；否则记到一条叫“{WANT}”的新备忘录里",
                f"“{title}”免费的话放进书架，要付费的话新建备忘录“{WANT}”，内容写书名"],
            en=[f"Check whether '{title}' is free: if so add it to my shelf, otherwise create a "
                f"note '{WANT}' with its title",
                f"If '{title}' is free, put it on my shelf; if not, write it in a new note "
                f"called '{WANT}'",
                f"Shelve '{title}' if it costs nothing, else make a note '{WANT}' naming it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["free"]:
            return added_to_shelf(diff, params["book_id"])
        note, problems = one_new_note(diff, WANT)
        if note is not None and params["title"] not in note["body"]:
            problems.append(f"the note {note['body']!r} does not name {params['title']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("读书")
        yield from find_in_store(ui, params["title"], params["book_id"])
        if ui.text_of("price") == "免费":
            yield ui.tap("add_shelf")
        else:
            yield from write_note(ui, WANT, params["title"])
