"""The Translator app: exact phrasebook lookups in the chosen direction, 暂无结果 for anything
else, history, favourites from the result card, the phrasebook and the 收藏夹 tab, copying."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.translator.app import EN_ZH, NO_RESULT, TRANSLATOR, ZH_EN
from phonebuddy.phoneworld.device import Device
from phonebuddy.protocol import CallTool


class Driver(testing.Driver):
    def open_translator(self) -> None:
        self.open("翻译")

    def data(self) -> Any:
        return self.app_state(TRANSLATOR)

    def translate(self, text: str) -> None:
        self.type_into("input", text)
        self.tap("translate")

    def favorites(self) -> list[tuple[str, str, str]]:
        return [(f["source"], f["target"], f["direction"]) for f in self.data()["favorites"]]


def test_a_phrase_is_looked_up_and_logged_in_history(device: Device) -> None:
    d = Driver(device)
    d.open_translator()
    assert d.text("source_lang") == "中文"
    assert d.text("target_lang") == "英文"
    d.translate("早上好")
    assert d.text("result_text") == "Good morning"
    assert d.text("result_source") == "早上好"
    first = d.data()["history"][0]
    assert (first["source"], first["target"], first["direction"]) == ("早上好", "Good morning",
                                                                       ZH_EN)  # fmt: skip
    assert d.visible(f"history_{first['id']}")


def test_closing_punctuation_and_case_do_not_matter_but_the_direction_does(
    device: Device,
) -> None:
    d = Driver(device)
    d.open_translator()
    d.translate("where is the restroom?")
    assert d.visible("no_result")
    assert not d.visible("result_text")
    assert not d.visible("favorite")
    assert not d.visible("copy")
    d.tap("switch")
    assert d.text("source_lang") == "英文"
    assert d.data()["direction"] == EN_ZH
    d.tap("translate")  # the text is still in the field
    assert d.text("result_text") == "洗手间在哪儿"


def test_text_outside_the_phrasebook_shows_no_result_and_empty_input_is_refused(
    device: Device,
) -> None:
    d = Driver(device)
    d.open_translator()
    d.refuse("translate")  # nothing typed
    d.type_into("input", "   ")
    assert "nothing to translate" in d.refuse("translate")
    d.translate("量子力学")
    assert d.text("no_result") == NO_RESULT
    assert d.data()["history"][0]["target"] == ""
    before = d.favorites()
    assert d.device.act(CallTool(name="translate", arguments={"text": "你好"})).note == "Hello"
    assert d.device.act(CallTool(name="translate", arguments={"text": "??"})).note == NO_RESULT
    assert d.favorites() == before


def test_favourite_from_the_result_toggles_and_copy_fills_the_clipboard(device: Device) -> None:
    d = Driver(device)
    d.open_translator()
    d.translate("我迷路了")
    d.tap("favorite")
    assert d.favorites()[0] == ("我迷路了", "I am lost", ZH_EN)
    assert d.text("favorite") == "已收藏"
    d.tap("copy")
    assert d.device.state["os"]["clipboard"] == "I am lost"
    d.tap("favorite")  # 已收藏 -> removed again
    assert ("我迷路了", "I am lost", ZH_EN) not in d.favorites()
    assert d.text("favorite") == "收藏"


def test_the_favourites_tab_removes_one_entry(device: Device) -> None:
    d = Driver(device)
    d.open_translator()
    d.tap("tab_favorites")
    favorites = d.data()["favorites"]
    assert len(favorites) == 4
    gone = favorites[1]
    assert d.text(f"fav_source_{gone['id']}") == gone["source"]
    d.tap(f"remove_{gone['id']}")
    assert [f["id"] for f in d.data()["favorites"]] == [
        f["id"] for f in favorites if f["id"] != gone["id"]
    ]
    assert not d.visible(f"fav_{gone['id']}")
    for f in list(d.data()["favorites"]):
        d.tap(f"remove_{f['id']}")
    assert d.visible("empty")


def test_history_entries_reopen_and_the_history_can_be_cleared(device: Device) -> None:
    d = Driver(device)
    d.open_translator()
    entry = d.data()["history"][0]
    d.tap(f"history_{entry['id']}")
    assert d.text("result_text") == entry["target"]
    d.tap("clear_history")
    assert d.data()["history"] == []
    assert not d.visible("clear_history")
    d.translate("谢谢你的帮助")
    d.tap("clear_history")
    assert d.data()["history"] == []


def test_the_phrasebook_lists_every_phrase_and_saves_one_in_the_current_direction(
    device: Device,
) -> None:
    d = Driver(device)
    d.scroll_first = True
    d.open_translator()
    d.tap("switch")  # 英→中
    d.tap("tab_phrases")
    d.tap("phrase_p32")  # apple
    assert (d.text("phrase_source"), d.text("phrase_target")) == ("apple", "苹果")
    d.tap("phrase_favorite")
    assert d.favorites()[0] == ("apple", "苹果", EN_ZH)
    d.tap("phrase_favorite")
    assert ("apple", "苹果", EN_ZH) not in d.favorites()
