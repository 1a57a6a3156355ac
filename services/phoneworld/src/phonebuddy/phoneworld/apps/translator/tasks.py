"""Task templates of the Translator app, including two that carry a translation to another app
(an SMS reply in Messages, a new note) by the copy button and the system clipboard."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.contacts.app import CONTACTS
from phonebuddy.phoneworld.apps.messages.tasks import (
    MESSAGES,
    add_incoming,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.translator.app import (
    EN_ZH,
    PHRASES,
    TRANSLATOR,
    ZH_EN,
    entry_record,
    key_of,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, normalize
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import paste_into, paste_into_new_note
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Swipe, from_pixels

NOTES = "com.pw.notes"
ROOT = f"apps/{TRANSLATOR}"
FAVORITES = f"{ROOT}/favorites"
LANGUAGE = {ZH_EN: ("英文", "English"), EN_ZH: ("中文", "Chinese")}
NOTE_TITLES = ("英语笔记", "旅行英语", "口语练习", "今日单词")


def phrases(world: World) -> tuple[Any, ...]:
    return tuple(world.content(TRANSLATOR)["phrases"])


def phrase_params(phrase: Any, direction: str) -> Params:
    """A phrase as a task names it: what is typed (`source`), its translation (`target`)."""
    record = entry_record(phrase, direction, "")
    return {"phrase_id": phrase["id"], "direction": direction, "source": record["source"],
            "target": record["target"]}  # fmt: skip


def same_entry(record: Any, params: Params) -> bool:
    """Whether a favourite holds the phrase of `params`, read in its direction."""
    return record["direction"] == params["direction"] and key_of(record["source"]) == key_of(
        params["source"]
    )


def drop_phrase(it: Interaction, params: Params) -> None:
    """Setup: the phrase neither in favourites nor in history (in any direction)."""
    data = it.app_data(TRANSLATOR)
    keys = {key_of(params["source"]), key_of(params["target"])}
    for name in ("favorites", "history"):
        data[name] = [r for r in data[name] if key_of(r["source"]) not in keys]


def ensure_favorite(it: Interaction, params: Params) -> None:
    """Setup: the phrase in favourites, in the direction of `params`."""
    data = it.app_data(TRANSLATOR)
    if not any(same_entry(f, params) for f in data["favorites"]):
        data["favorites"].insert(
            len(data["favorites"]) // 2,
            {"id": "fav-task", "source": params["source"], "target": params["target"],
             "direction": params["direction"]},
        )  # fmt: skip


# -- oracle steps --------------------------------------------------------------------------------


def open_translator(ui: OracleUI) -> Iterator[Action]:
    """The app on its 翻译 tab."""
    yield ui.open("翻译")
    if not ui.visible("translate"):
        yield ui.tap("tab_translate")


def translate(ui: OracleUI, text: str, direction: str) -> Iterator[Action]:
    """On the 翻译 tab: set the direction, type `text` and translate it."""
    wanted_source = "中文" if direction == ZH_EN else "英文"
    if ui.text_of("source_lang") != wanted_source:
        yield ui.tap("switch")
    yield from ui.type_into("input", text)
    yield ui.tap("translate")


def favorite_ids(ui: OracleUI) -> dict[str, str]:
    """Favourite id -> source text of the cards on screen."""
    prefix = f"{TRANSLATOR}:id/fav_source_"
    return {n.resource_id[len(prefix):]: n.text for n in ui.device.ui_tree().walk()
            if n.resource_id.startswith(prefix)}  # fmt: skip


def scan_favorites(ui: OracleUI, source: str | None = None) -> Iterator[Action | dict[str, str]]:
    """On the 收藏夹 tab: scroll down through the list; yields the swipes, and last every
    favourite seen (id -> source). Stops early at the card of `source` when given."""
    seen: dict[str, str] = {}
    for _ in range(30):
        seen.update(favorite_ids(ui))
        if source is not None and source in seen.values():
            break
        if ui.device.scroll_room("content")[1] == 0:
            break
        box = ui.node("content").bounds
        x, top, bottom = (box.left + box.right) // 2, box.top, box.bottom
        start, end = (x, bottom - (bottom - top) // 4), (x, top + (bottom - top) // 4)
        yield Swipe(coordinate=from_pixels(start, ui.device.screen),
                    coordinate2=from_pixels(end, ui.device.screen))  # fmt: skip
    yield seen


def _scan(ui: OracleUI, source: str | None, into: dict[str, str]) -> Iterator[Action]:
    for step in scan_favorites(ui, source):
        if isinstance(step, dict):
            into.update(step)
        else:
            yield step


# -- templates ------------------------------------------------------------------------------------


class TranslatorTemplate(TaskTemplate):
    """A template of the Translator app alone."""

    category = Category.SINGLE_APP
    apps = (TRANSLATOR,)


class AddFavorite(TranslatorTemplate):
    id = "translator.favorite_add"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        direction = rng.choice((ZH_EN, EN_ZH))
        return {**phrase_params(pick(rng, phrases(world)), direction),
                "start": rng.choice((ZH_EN, EN_ZH))}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        drop_phrase(it, params)
        it.app_data(TRANSLATOR)["direction"] = params["start"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        source, (zh, en) = params["source"], LANGUAGE[params["direction"]]
        return phrased(
            zh=[f"用翻译把“{source}”翻译成{zh}，并加入收藏夹",
                f"帮我把“{source}”译成{zh}，再把这条翻译收藏起来",
                f"我想收藏“{source}”的{zh}翻译：先翻译，再点收藏"],
            en=[f"Translate '{source}' into {en} in Translator and add it to favourites",
                f"Please translate '{source}' into {en}, then save the translation to favourites",
                f"I want the {en} translation of '{source}' in my favourites: translate it and "
                "tap favourite"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(FAVORITES)
        removed = diff.removed(FAVORITES)
        problems = [f"removed favourites {[r['source'] for r in removed]}"] if removed else []
        if len(added) != 1:
            return [*problems, f"expected one new favourite, found {len(added)}"]
        if not same_entry(added[0], params) or added[0]["target"] != params["target"]:
            problems.append(f"the new favourite is {added[0]!r}, expected {params['source']!r} "
                            f"→ {params['target']!r}")  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_translator(ui)
        yield from translate(ui, params["source"], params["direction"])
        yield ui.tap("favorite")


class RemoveFavorite(TranslatorTemplate):
    id = "translator.favorite_remove"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        return phrase_params(pick(rng, phrases(world)), rng.choice((ZH_EN, EN_ZH)))

    def setup(self, it: Interaction, params: Params) -> None:
        ensure_favorite(it, params)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        source = params["source"]
        return phrased(
            zh=[f"把“{source}”从翻译的收藏夹里移除", f"取消收藏“{source}”这条翻译",
                f"翻译收藏夹里的“{source}”不需要了，删掉它"],
            en=[f"Remove '{source}' from the favourites in Translator",
                f"Unfavourite the translation of '{source}'",
                f"I no longer need '{source}' in my Translator favourites; delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = diff.removed(FAVORITES)
        added = diff.added(FAVORITES)
        problems = [f"added favourites {[r['source'] for r in added]}"] if added else []
        if len(removed) != 1 or not same_entry(removed[0], params):
            problems.append(f"removed {[r['source'] for r in removed]}, expected only "
                            f"{params['source']!r}")  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_translator(ui)
        yield ui.tap("tab_favorites")
        seen: dict[str, str] = {}
        yield from _scan(ui, params["source"], seen)
        fav_id = next((i for i, s in seen.items() if s == params["source"]), None)
        if fav_id is None:
            raise OracleError(f"{params['source']!r} is not in favourites")
        yield from ui.scroll_to(f"remove_{fav_id}")
        yield ui.tap(f"remove_{fav_id}")


class AskEnglish(TranslatorTemplate):
    id = "translator.ask_english"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**phrase_params(pick(rng, phrases(world)), ZH_EN),
                "start": rng.choice((ZH_EN, EN_ZH))}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        drop_phrase(it, params)
        it.app_data(TRANSLATOR)["direction"] = params["start"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        source = params["source"]
        return phrased(
            zh=[f"“{source}”用英文怎么说？", f"帮我用翻译查一下“{source}”的英文",
                f"查查“{source}”翻译成英文是什么"],
            en=[f"How do you say '{source}' in English?",
                f"Look up the English for '{source}' in Translator",
                f"What is '{source}' in English?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        data = diff.before["apps"][TRANSLATOR]
        others = {f["target"] for f in data["favorites"] if f["direction"] == ZH_EN}
        others |= {p["en"] for p in PHRASES}
        others.discard(params["target"])
        return Text([params["target"]], others=sorted(others), what="English translation")

    def wrong_answer(self, params: Params) -> str:
        return next(p["en"] for p in PHRASES if p["en"] != params["target"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_translator(ui)
        yield from translate(ui, params["source"], ZH_EN)
        yield Answer(text=ui.text_of("result_text"))


class CountFavorites(TranslatorTemplate):
    id = "translator.count_favorites"
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = rng.sample(list(phrases(world)), k=rng.randrange(5, 12))
        return {"favorites": [[p["id"], rng.choice((ZH_EN, EN_ZH))] for p in chosen],
                "count": len(chosen)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        by_id = {p["id"]: p for p in PHRASES}
        it.app_data(TRANSLATOR)["favorites"] = [
            entry_record(by_id[pid], direction, f"fav-task-{i}")
            for i, (pid, direction) in enumerate(params["favorites"])
        ]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["翻译的收藏夹里一共有几条？", "数一下翻译App收藏夹里收藏了多少条",
                "我在翻译里收藏了多少条翻译？"],
            en=["How many entries are in the Translator favourites?",
                "Count the entries in the favourites of the Translator app",
                "How many translations have I saved to favourites in Translator?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(len(diff.value_before(FAVORITES)), unit="条")

    def wrong_answer(self, params: Params) -> str:
        return str(params["count"] + 1)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_translator(ui)
        yield ui.tap("tab_favorites")
        seen: dict[str, str] = {}
        yield from _scan(ui, None, seen)
        yield Answer(text=str(len(seen)))


class ToggleFavorite(TranslatorTemplate):
    """Conditional: remove the phrase when it is in favourites, else translate and add it."""

    id = "translator.favorite_toggle"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**phrase_params(pick(rng, phrases(world)), ZH_EN), "present": rng.random() < 0.5}

    def setup(self, it: Interaction, params: Params) -> None:
        drop_phrase(it, params)
        if params["present"]:
            ensure_favorite(it, params)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        source = params["source"]
        return phrased(
            zh=[f"如果翻译的收藏夹里已经有“{source}”，就把它移除；没有的话，把它翻译成英文并收藏",
                f"看看收藏夹里有没有“{source}”：有就取消收藏，没有就翻译成英文后加入收藏",
                f"“{source}”要是已经收藏了就删掉，否则翻成英文再收藏"],
            en=[f"If '{source}' is already in the Translator favourites, remove it; otherwise "
                "translate it into English and add it to favourites",
                f"Check the favourites for '{source}': unfavourite it if it is there, else "
                "translate it into English and save it",
                f"When '{source}' is already saved in favourites, delete it; if not, translate it "
                "into English and favourite it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        was_there = any(same_entry(f, params) for f in diff.value_before(FAVORITES))
        if was_there:
            return RemoveFavorite().verify(diff, params, answer)
        return AddFavorite().verify(diff, params, answer)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_translator(ui)
        yield ui.tap("tab_favorites")
        seen: dict[str, str] = {}
        yield from _scan(ui, params["source"], seen)
        fav_id = next((i for i, s in seen.items() if s == params["source"]), None)
        if fav_id is not None:
            yield from ui.scroll_to(f"remove_{fav_id}")
            yield ui.tap(f"remove_{fav_id}")
            return
        yield ui.tap("tab_translate")
        yield from translate(ui, params["source"], ZH_EN)
        yield ui.tap("favorite")


class ReplyInTranslation(TaskTemplate):
    """Messages → Translator → Messages: an English SMS is looked up, its Chinese copied with
    the copy button and pasted into the reply."""

    id = "translator.reply_translation"
    category = Category.CROSS_APP
    apps = (MESSAGES, TRANSLATOR)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, tuple(world.content(CONTACTS)["roster"]))
        sentences = [p for p in phrases(world) if p["category"] != "单词"]
        return {"name": person["name"], "phone": person["phone"],
                **phrase_params(pick(rng, sentences), EN_ZH)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], ""), params["source"], ago=180, key="translate")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"{name}刚发来一条英文短信，用翻译把它翻成中文，再把中文译文作为短信回复给{name}",
                f"帮我把{name}刚发的英文短信翻译成中文，然后直接把译文回复给对方",
                f"{name}发来的最新短信是英文的：翻译成中文后，把中文回复给{name}"],
            en=[f"{name} just texted me in English: translate it into Chinese with Translator and "
                f"reply to {name} with the Chinese translation",
                f"Please translate the English SMS {name} just sent into Chinese, then reply with "
                "that translation",
                f"The latest text from {name} is in English; translate it into Chinese and send "
                f"{name} the Chinese as a reply"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        (_, body), *_ = sent_messages(diff)
        if normalize(body) != normalize(params["target"]):
            problems.append(f"the SMS says {body!r}, expected {params['target']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["name"])
        english = ui.text_of("msg_task-translate")
        yield from open_translator(ui)
        yield from translate(ui, english, EN_ZH)
        yield ui.tap("copy")
        yield ui.open("信息")
        if not ui.visible("reply"):
            yield from open_thread(ui, params["name"])
        yield from paste_into(ui, "reply")
        yield ui.tap("send")


class EnglishToNote(TaskTemplate):
    """Translator → Notes: the English is copied with the copy button into a new note."""

    id = "translator.english_to_note"
    category = Category.CROSS_APP
    apps = (TRANSLATOR, NOTES)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**phrase_params(pick(rng, phrases(world)), ZH_EN), "title": rng.choice(NOTE_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        source, title = params["source"], params["title"]
        return phrased(
            zh=[f"用翻译查出“{source}”的英文，新建一条标题为“{title}”的备忘录，正文只写这句英文",
                f"把“{source}”翻译成英文，存进备忘录：标题“{title}”，内容就是英文译文",
                f"新建备忘录“{title}”，内容填“{source}”的英文翻译（用翻译App查）"],
            en=[f"Look up the English for '{source}' in Translator and create a note titled "
                f"'{title}' whose text is only that English",
                f"Translate '{source}' into English and save it in Notes: title '{title}', text "
                "the English translation",
                f"Create a note '{title}' holding the English translation of '{source}' (look it "
                "up in Translator)"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        if normalize(note["body"]) != normalize(params["target"]):
            problems.append(f"the note says {note['body']!r}, expected {params['target']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_translator(ui)
        yield from translate(ui, params["source"], ZH_EN)
        yield ui.tap("copy")
        yield from paste_into_new_note(ui, params["title"])


TEMPLATES: tuple[TaskTemplate, ...] = (
    AddFavorite(),
    RemoveFavorite(),
    AskEnglish(),
    CountFavorites(),
    ToggleFavorite(),
    ReplyInTranslation(),
    EnglishToNote(),
)
