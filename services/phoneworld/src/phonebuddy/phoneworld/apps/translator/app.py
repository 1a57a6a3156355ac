"""The Translator app (有道-like): a phrasebook dictionary looked up exactly (no machine
translation: text it does not hold shows 暂无结果), a 中→英 / 英→中 switch, history, favourites."""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Column,
    IconButton,
    ListItem,
    Page,
    Row,
    Tabs,
    Text,
    TextField,
)

TRANSLATOR = "com.pw.translator"
ZH_EN = "zh-en"
EN_ZH = "en-zh"
DIRECTIONS = {ZH_EN: ("中文", "英文"), EN_ZH: ("英文", "中文")}
NO_RESULT = "暂无结果"
HISTORY_LIMIT = 20

# (category, Chinese, English): every Chinese and every English text is unique; no digits and
# no apostrophes (task wordings quote them with '…').
PHRASEBOOK = (
    ("问候", "你好", "Hello"),
    ("问候", "早上好", "Good morning"),
    ("问候", "晚安", "Good night"),
    ("问候", "谢谢你的帮助", "Thank you for your help"),
    ("问候", "很高兴认识你", "Nice to meet you"),
    ("问候", "好久不见", "Long time no see"),
    ("问候", "祝你生日快乐", "Happy birthday to you"),
    ("问候", "一路顺风", "Have a safe trip"),
    ("问候", "没关系", "It does not matter"),
    ("出行", "最近的地铁站在哪里", "Where is the nearest subway station"),
    ("出行", "请带我去机场", "Please take me to the airport"),
    ("出行", "我迷路了", "I am lost"),
    ("出行", "洗手间在哪儿", "Where is the restroom"),
    ("出行", "火车几点出发", "What time does the train leave"),
    ("出行", "我想订一个房间", "I would like to book a room"),
    ("出行", "请帮我叫一辆出租车", "Please call a taxi for me"),
    ("餐饮", "请给我菜单", "Could I have the menu please"),
    ("餐饮", "我对花生过敏", "I am allergic to peanuts"),
    ("餐饮", "买单", "Check please"),
    ("餐饮", "这道菜太辣了", "This dish is too spicy"),
    ("餐饮", "请给我一杯水", "A glass of water please"),
    ("餐饮", "我是素食者", "I am a vegetarian"),
    ("购物", "这个多少钱", "How much is this"),
    ("购物", "可以便宜一点吗", "Can you make it cheaper"),
    ("购物", "可以刷卡吗", "Can I pay by card"),
    ("购物", "我只是看看", "I am just looking"),
    ("购物", "有大一号的吗", "Do you have a larger size"),
    ("学习", "我明天有考试", "I have an exam tomorrow"),
    ("学习", "请再说一遍", "Please say that again"),
    ("学习", "这个单词怎么读", "How do you pronounce this word"),
    ("学习", "图书馆几点关门", "When does the library close"),
    ("学习", "我正在学英语", "I am learning English"),
    ("单词", "苹果", "apple"),
    ("单词", "图书馆", "library"),
    ("单词", "天气", "weather"),
    ("单词", "医院", "hospital"),
    ("单词", "护照", "passport"),
    ("单词", "行李", "luggage"),
    ("单词", "作业", "homework"),
    ("单词", "老师", "teacher"),
    ("单词", "朋友", "friend"),
    ("单词", "地图", "map"),
)

PHRASES = tuple(
    {"id": f"p{i}", "category": category, "zh": zh, "en": en}
    for i, (category, zh, en) in enumerate(PHRASEBOOK)
)
"""The phrasebook as the app's content holds it."""

_TRAILING = re.compile(r"[\s.?!。？！，,]+$")


def key_of(text: str) -> str:
    """Text as the dictionary looks it up: NFKC, trimmed, lower case, no closing punctuation."""
    text = unicodedata.normalize("NFKC", text).strip()
    return _TRAILING.sub("", re.sub(r"\s+", " ", text)).lower()


def lookup(phrases: Any, text: str, direction: str) -> str | None:
    """The translation of `text` read in `direction`, or None when the dictionary lacks it."""
    key = key_of(text)
    if not key:
        return None
    source, target = ("zh", "en") if direction == ZH_EN else ("en", "zh")
    for phrase in phrases:
        if key_of(phrase[source]) == key:
            return str(phrase[target])
    return None


def entry_record(phrase: Mapping[str, Any], direction: str, entry_id: str) -> dict[str, Any]:
    """A history or favourites record of a phrase, read in `direction`."""
    zh, en = str(phrase["zh"]), str(phrase["en"])
    source, target = (zh, en) if direction == ZH_EN else (en, zh)
    return {"id": entry_id, "source": source, "target": target, "direction": direction}


class Translator(App):
    package = TRANSLATOR
    label = Label(zh="翻译", en="Translator")
    domain = "education"
    theme = AppTheme(primary=(226, 41, 41))
    icon_text = "译"
    # The history and the chosen direction change whenever one translates; never a task's effect.
    ignorable = ("history", "direction")

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        sentences = [p for p in PHRASES if p["category"] != "单词"]
        return {"phrases": [dict(p) for p in PHRASES], "daily": rng.choice(sentences)["id"]}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        phrases = list(content["phrases"])
        chosen = rng.sample(phrases, k=8)
        history = [entry_record(p, ZH_EN, f"h-{i}") for i, p in enumerate(chosen[:4])]
        favorites = [
            entry_record(p, ZH_EN if i % 3 else EN_ZH, f"fav-{i}") for i, p in enumerate(chosen[4:])
        ]
        return {"direction": ZH_EN, "history": history, "favorites": favorites}

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def switch_direction(it: Interaction) -> None:
        it.data["direction"] = EN_ZH if it.data["direction"] == ZH_EN else ZH_EN
        it.set_ui("shown", None)

    def translate(self, it: Interaction, text: str) -> str | None:
        """Look `text` up in the current direction, show the result and log it in history."""
        if not text.strip():
            it.no_op("nothing to translate")
        direction = it.data["direction"]
        target = lookup(it.content["phrases"], text, direction)
        shown = {"source": text.strip(), "target": target, "direction": direction}
        it.set_ui("shown", shown)
        it.unfocus()
        history = [
            h
            for h in it.data["history"]
            if not (h["source"] == shown["source"] and h["direction"] == direction)
        ]
        record = {"id": it.new_id("h"), **shown, "target": target or ""}
        it.data["history"] = [record, *history][:HISTORY_LIMIT]
        return target

    def translate_input(self, it: Interaction) -> None:
        self.translate(it, it.field("input"))

    def show_history(self, it: Interaction, entry_id: str) -> None:
        entry = next((h for h in it.data["history"] if h["id"] == entry_id), None)
        if entry is None:
            it.no_op(f"no history entry {entry_id}")
        it.data["direction"] = entry["direction"]
        it.set_field("input", entry["source"])
        self.translate(it, entry["source"])

    @staticmethod
    def clear_history(it: Interaction) -> None:
        if not it.data["history"]:
            it.no_op("the history is empty")
        it.data["history"] = []
        it.toast("已清空历史记录")

    @staticmethod
    def favorite_of(data: Mapping[str, Any], source: str, direction: str) -> Any:
        return next((f for f in data["favorites"]
                     if f["source"] == source and f["direction"] == direction), None)  # fmt: skip

    def toggle_favorite(self, it: Interaction) -> None:
        shown = it.ui("shown")
        if not shown or not shown["target"]:
            it.no_op("no translation to add to favourites")
        existing = self.favorite_of(it.data, shown["source"], shown["direction"])
        if existing is not None:
            self.remove_favorite(it, existing["id"])
            return
        it.data["favorites"].insert(
            0,
            {
                "id": it.new_id("fav"),
                "source": shown["source"],
                "target": shown["target"],
                "direction": shown["direction"],
            },
        )
        it.toast("已加入收藏")

    @staticmethod
    def remove_favorite(it: Interaction, fav_id: str) -> None:
        before = len(it.data["favorites"])
        it.data["favorites"] = [f for f in it.data["favorites"] if f["id"] != fav_id]
        if len(it.data["favorites"]) == before:
            it.no_op(f"no favourite {fav_id}")
        it.toast("已取消收藏")

    @staticmethod
    def copy_result(it: Interaction) -> None:
        shown = it.ui("shown")
        if not shown or not shown["target"]:
            it.no_op("no translation to copy")
        it.copy(shown["target"])
        it.toast("已复制")

    @staticmethod
    def open_phrase(it: Interaction, phrase_id: str) -> None:
        it.push("phrase", phrase_id=phrase_id)

    def favorite_phrase(self, it: Interaction, phrase_id: str) -> None:
        phrase = next(p for p in it.content["phrases"] if p["id"] == phrase_id)
        direction = it.data["direction"]
        record = entry_record(phrase, direction, it.new_id("fav"))
        existing = self.favorite_of(it.data, record["source"], direction)
        if existing is not None:
            self.remove_favorite(it, existing["id"])
            return
        it.data["favorites"].insert(0, record)
        it.toast("已加入收藏")

    # -- screens --------------------------------------------------------------------------------
    def _tabs(self, v: View, selected: str) -> Tabs:
        def select(tab: str) -> Any:
            return lambda it: it.reset_to("home" if tab == "translate" else tab)

        items = [("translate", "翻译"), ("phrases", "常用语"), ("favorites", "收藏夹")]
        return Tabs(items, selected, select, style="bottom")

    def _direction_bar(self, v: View) -> Row:
        source, target = DIRECTIONS[v.data["direction"]]
        return Row(
            [
                Text(source, size=42, bold=True, align="center", id="source_lang"),
                Button("⇄", v.do(self.switch_direction), id="switch", style="secondary"),
                Text(target, size=42, bold=True, align="center", id="target_lang"),
            ]
        )

    @screen("home")
    def home(self, v: View) -> Page:
        shown = v.ui("shown")
        body: list[Any] = [
            self._direction_bar(v),
            TextField(
                "input",
                v.field("input"),
                "输入要翻译的文字",
                on_focus=v.focus("input"),
                on_submit=v.do(self.translate_input),
                multiline=True,
            ),
            Button("翻译", v.do(self.translate_input), id="translate"),
        ]
        if shown:
            body.append(self._result_card(v, shown))
        else:
            daily = next(p for p in v.content["phrases"] if p["id"] == v.content["daily"])
            body.append(
                Card(
                    [
                        Text("每日一句", size=34, color=theme.TEXT_SECONDARY),
                        Text(daily["en"], size=42, bold=True, id="daily_en"),
                        Text(daily["zh"], size=38, color=theme.TEXT_SECONDARY, id="daily_zh"),
                    ],
                    on_tap=v.do(self.open_phrase, daily["id"]),
                    id="daily",
                )
            )
        history = v.data["history"]
        if history:
            body.append(
                Row(
                    [
                        Text("历史记录", size=36, color=theme.TEXT_SECONDARY),
                        Button("清空", v.do(self.clear_history), id="clear_history", style="text"),
                    ]
                )
            )
        body += [
            ListItem(h["source"], subtitle=h["target"] or NO_RESULT,
                     on_tap=v.do(self.show_history, h["id"]), id=f"history_{h['id']}")
            for h in history
        ]  # fmt: skip
        return Page("有道翻译", body, bottom=self._tabs(v, "translate"), body_padding=36,
                    spacing=24)  # fmt: skip

    def _result_card(self, v: View, shown: Mapping[str, Any]) -> Card:
        if not shown["target"]:
            return Card(
                [
                    Text(shown["source"], size=38, color=theme.TEXT_SECONDARY, id="result_source"),
                    Text(NO_RESULT, size=44, color=theme.TEXT_SECONDARY, id="no_result"),
                ],
                id="result",
            )
        saved = self.favorite_of(v.data, shown["source"], shown["direction"]) is not None
        return Card(
            [
                Text(shown["source"], size=38, color=theme.TEXT_SECONDARY, id="result_source"),
                Text(shown["target"], size=48, bold=True, id="result_text"),
                Row(
                    [
                        Button(
                            "已收藏" if saved else "收藏",
                            v.do(self.toggle_favorite),
                            id="favorite",
                            style="secondary" if saved else "primary",
                        ),
                        Button("复制", v.do(self.copy_result), id="copy", style="secondary"),
                    ]
                ),
            ],
            id="result",
        )

    @screen("phrases")
    def phrases(self, v: View) -> Page:
        body: list[Any] = []
        category = None
        for p in v.content["phrases"]:
            if p["category"] != category:
                category = p["category"]
                body.append(Text(category, size=36, bold=True, color=theme.TEXT_SECONDARY,
                                 padding=12))  # fmt: skip
            body.append(ListItem(p["zh"], subtitle=p["en"], on_tap=v.do(self.open_phrase, p["id"]),
                                 id=f"phrase_{p['id']}"))  # fmt: skip
        return Page("常用语", body, bottom=self._tabs(v, "phrases"))

    @screen("phrase")
    def phrase(self, v: View) -> Page:
        p = next(p for p in v.content["phrases"] if p["id"] == v.params["phrase_id"])
        direction = v.data["direction"]
        source, target = (p["zh"], p["en"]) if direction == ZH_EN else (p["en"], p["zh"])
        saved = self.favorite_of(v.data, source, direction) is not None
        return Page(
            p["category"],
            [
                Text(source, size=44, id="phrase_source"),
                Text(target, size=50, bold=True, id="phrase_target"),
                Button(
                    "已收藏" if saved else "收藏",
                    v.do(self.favorite_phrase, p["id"]),
                    id="phrase_favorite",
                    style="secondary" if saved else "primary",
                ),
            ],
            on_back=v.back(),
            body_padding=48,
            spacing=30,
        )

    @screen("favorites")
    def favorites(self, v: View) -> Page:
        items: list[Any] = [
            Card(
                [
                    Row(
                        [
                            Column(
                                [
                                    Text(
                                        f["source"], size=42, bold=True, id=f"fav_source_{f['id']}"
                                    ),
                                    Text(
                                        f["target"],
                                        size=38,
                                        color=theme.TEXT_SECONDARY,
                                        id=f"fav_target_{f['id']}",
                                    ),
                                ],
                                spacing=8,
                            ),
                            IconButton(
                                "delete",
                                "取消收藏",
                                v.do(self.remove_favorite, f["id"]),
                                id=f"remove_{f['id']}",
                            ),
                        ]
                    )
                ],
                id=f"fav_{f['id']}",
            )
            for f in v.data["favorites"]
        ] or [Text("收藏夹是空的", color=theme.TEXT_SECONDARY, padding=40, id="empty")]
        return Page("收藏夹", items, bottom=self._tabs(v, "favorites"), body_padding=24,
                    spacing=20)  # fmt: skip

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "translate",
        "Look a phrase up in the phrasebook in the current direction (中→英 or 英→中).",
        {"text": str},
    )
    def translate_tool(self, it: Interaction, text: str) -> str:
        it.reset_to("home")
        target = self.translate(it, text)
        return target if target is not None else NO_RESULT
