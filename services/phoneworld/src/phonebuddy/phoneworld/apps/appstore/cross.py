"""Cross-app templates of 应用市场: an app a WeChat friend recommends installed, a paid app
bought through the wallet, an app's version and size texted, a changelog line copied into
Notes, the apps listed in a note installed (long), "paid: 愿望单, free: install" for an app a
friend texts about (conditional), and a Messages → 应用市场 → WeChat chain."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.appstore.base import APPSTORE
from phonebuddy.phoneworld.apps.appstore.common import (
    PURCHASED,
    WISHLIST,
    app_params,
    catalogue,
    installed_only,
    not_installed,
    open_app_page,
)
from phonebuddy.phoneworld.apps.messages.tasks import (
    MESSAGES,
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER, friend_says, open_private_chat
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Number, check_written
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    copy_text,
    friend_with_chat,
    paste_into_new_note,
    sent_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import WALLET, wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

NOTES = "com.pw.notes"
LOG_TITLES = ("更新日志", "版本说明", "新功能")
LIST_TITLE = "要装的App"


def app_named(ui: OracleUI, name: str) -> str:
    """The catalogue id of the app called `name` (what searching for it finds)."""
    found = next((a for a in catalogue(ui.device.world) if a["name"] == name), None)
    if found is None:
        raise OracleError(f"应用市场 has no app {name!r}")
    return str(found["id"])


def quoted(ui: OracleUI, marker: str) -> str:
    """The “…” name in the text on screen holding `marker`."""
    said = next((n.text for n in ui.find_all() if marker in n.text), "")
    named = re.search(r"“(.+?)”", said)
    if named is None:
        raise OracleError(f"nothing on screen names an app after {marker!r}")
    return named[1]


def states(text: str, value: object) -> bool:
    """Whether `text` holds `value` as a whole number ('56.3' is not in '156.3' or '56.35')."""
    return re.search(rf"(?<![\d.]){re.escape(str(value))}(?![\d.]*\d)", text) is not None


def recommend_sms(name: str) -> str:
    return f"推荐你装个“{name}”，我用着挺好，应用市场里就能搜到"


class Recommended(TaskTemplate):
    """A person's SMS names an app: its setup."""

    category = Category.CROSS_APP

    def sms_sample(self, world: World, rng: random.Random, free: bool | None) -> Params:
        person = pick(rng, address_book(world))
        app = pick(rng, not_installed(world, free=free))
        return {**app_params(app), "person": person["name"], "phone": person["phone"],
                "free": app["price"] == 0}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["person"]), recommend_sms(params["name"]),
                     ago=1200, key="appstore")  # fmt: skip


class InstallFromWechat(TaskTemplate):
    """WeChat → 应用市场: the app a friend recommends in a chat, installed."""

    id = "appstore.install_from_wechat"
    category = Category.CROSS_APP
    apps = (MESSENGER, APPSTORE)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**app_params(pick(rng, not_installed(world, free=True))),
                **friend_with_chat(world, rng)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        lines = ["最近发现一个超好用的App", f"叫“{params['name']}”，免费的，你也装一个试试"]
        friend_says(it, params["friend_id"], lines, key="appstore")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        friend = params["friend"]
        return phrased(
            zh=[f"{friend}在微信上给我推荐了一个App，帮我在应用市场装上",
                f"看看{friend}微信里推荐的是哪个应用，把它安装好",
                f"把{friend}刚在微信里说的那个App从应用市场下载安装"],
            en=[f"{friend} recommended an app on WeChat; install it from the App Store",
                f"Check which app {friend} recommended on WeChat and install it",
                f"Download and install from the App Store the app {friend} just mentioned on "
                "WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return installed_only(diff, {params["app_id"]: params["version"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        name = quoted(ui, "免费的")
        yield from open_app_page(ui, name, app_named(ui, name))
        yield ui.tap("install")


class BuyPaid(TaskTemplate):
    """应用市场 → the wallet's payment: a paid app bought, then installed."""

    id = "appstore.buy_paid"
    category = Category.CROSS_APP
    apps = (APPSTORE, WALLET)
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        app = pick(rng, not_installed(world, free=False))
        return {**app_params(app), "price_cents": app["price"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"在应用市场购买并安装“{name}”", f"“{name}”是付费应用，帮我买下来装上",
                f"用钱包付款买“{name}”，然后安装"],
            en=[f"Buy and install '{name}' in the App Store",
                f"'{name}' is a paid app: buy it and install it",
                f"Pay for '{name}' with the wallet, then install it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        bought, problems = one_added(diff, PURCHASED, "purchase")
        if bought is not None and bought != {"id": params["app_id"],
                                             "price": params["price_cents"]}:  # fmt: skip
            problems.append(f"bought {bought}, expected {params['app_id']}")
        problems += wallet_payment_problems(
            diff, amount_cents=params["price_cents"], reference=f"app:{params['app_id']}"
        )
        return problems + installed_only(diff, {params["app_id"]: params["version"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_app_page(ui, params["name"], params["app_id"])
        yield ui.tap("buy")
        yield ui.tap("pay")
        yield ui.tap(f"{WALLET}:id/pay_confirm")


class SizeBySms(TaskTemplate):
    """应用市场 → Messages: an app's latest version and size texted to a contact."""

    id = "appstore.size_by_sms"
    category = Category.CROSS_APP
    apps = (APPSTORE, MESSAGES)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        app = pick(rng, catalogue(world))
        person = pick(rng, address_book(world))
        return {**app_params(app), "size": app["size"], "to": person["name"],
                "to_phone": person["phone"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, to = params["name"], params["to"]
        return phrased(
            zh=[f"查一下“{name}”的最新版本号和安装包大小，发短信告诉{to}",
                f"{to}想装“{name}”，短信告诉他最新版本和大小",
                f"给{to}发条短信，写上“{name}”在应用市场的版本号和大小"],
            en=[f"Look up the latest version and size of '{name}' and text them to {to}",
                f"{to} wants to install '{name}': send them its latest version and size by SMS",
                f"Text {to} the version number and size of '{name}' in the App Store"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        missing = [str(v) for v in (params["version"], params["size"]) if not states(text, v)]
        return [f"the SMS {text!r} lacks {missing}"] if missing else []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_app_page(ui, params["name"], params["app_id"])
        version, size = ui.text_of("version"), ui.text_of("size")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("body", f"“{params['name']}”最新{version}，{size}")
        yield ui.tap("send")


class ChangelogToNote(TaskTemplate):
    """应用市场 → Notes: the first line of an app's 更新内容 copied into a new note."""

    id = "appstore.changelog_to_note"
    category = Category.CROSS_APP
    apps = (APPSTORE, NOTES)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        app = pick(rng, catalogue(world))
        return {**app_params(app), "line": app["changelog"][0], "note": rng.choice(LOG_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, note = params["name"], params["note"]
        return phrased(
            zh=[f"把“{name}”更新内容的第一条复制到新备忘录“{note}”里",
                f"打开“{name}”的详情页，把更新内容第一条摘到备忘录，标题“{note}”",
                f"新建备忘录“{note}”，内容是“{name}”更新内容里的第一条"],
            en=[f"Copy the first line of the changelog of '{name}' into a new note '{note}'",
                f"Open the page of '{name}' and save the first changelog line in a note titled "
                f"'{note}'",
                f"Create a note '{note}' holding the first item of the changelog of '{name}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["note"])
        if note is not None and note["body"].strip() != params["line"]:
            problems.append(f"the note says {note['body']!r}, expected {params['line']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_app_page(ui, params["name"], params["app_id"])
        yield from copy_text(ui, "log_0")
        yield from paste_into_new_note(ui, params["note"])


class InstallFromNote(TaskTemplate):
    """Long horizon, Notes → 应用市场: the four apps a note lists, installed one by one."""

    id = "appstore.install_from_note"
    category = Category.CROSS_APP
    apps = (NOTES, APPSTORE)
    difficulty = 28

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, not_installed(world, free=True), 4)
        return {"versions": {a["id"]: a["version"] for a in chosen},
                "names": [a["name"] for a in chosen]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        body = "换新手机后要装的：\n" + "\n".join(params["names"])
        it.app_data(NOTES)["notes"].insert(0, {"id": "note-task", "title": LIST_TITLE,
                                               "body": body, "pinned": False})  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = LIST_TITLE
        return phrased(
            zh=[f"备忘录“{t}”里列了几个应用，帮我在应用市场把它们都装上",
                f"按备忘录“{t}”的清单，把上面的App逐个安装",
                f"我在备忘录“{t}”里记了要装的应用，全部安装好"],
            en=[f"The note '{t}' lists some apps; install all of them from the App Store",
                f"Install every app on the list in the note '{t}', one by one",
                f"I wrote the apps I need in the note '{t}': install them all"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return installed_only(diff, params["versions"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=LIST_TITLE)
        yield ui.tap(text=LIST_TITLE)
        names = ui.text_of("note_body").splitlines()[1:]
        for name in names:
            yield from open_app_page(ui, name.strip(), app_named(ui, name.strip()))
            yield ui.tap("install")


class PaidWishOrInstall(Recommended):
    """Conditional, Messages → 应用市场: the app a friend texts about goes on the 愿望单 when
    it is paid, and is installed when it is free."""

    id = "appstore.paid_wish_or_install"
    apps = (MESSAGES, APPSTORE)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return self.sms_sample(world, rng, free=rng.random() < 0.5)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params["person"]
        return phrased(
            zh=[f"{p}短信推荐了一个App：如果是付费的就加入愿望单，免费的就直接安装",
                f"看看{p}短信里说的应用要不要钱，收费就放进愿望单，不收费就装上",
                f"{p}发短信推荐的那个应用，免费的话帮我安装，付费的话先加到愿望单"],
            en=[f"{p} texted me an app: if it is paid, add it to the wishlist; if free, install it",
                f"Check whether the app in {p}'s SMS costs money: paid goes on the wishlist, free "
                "gets installed",
                f"The app {p} recommended by SMS: install it if it is free, otherwise put it on "
                "the wishlist"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["free"]:
            return installed_only(diff, {params["app_id"]: params["version"]})
        added = [w["id"] for w in diff.added(WISHLIST)]
        return [] if added == [params["app_id"]] else [f"wished {added}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["person"])
        name = quoted(ui, "推荐你装个")
        yield from open_app_page(ui, name, app_named(ui, name))
        if ui.text_of("price") == "免费":
            yield ui.tap("install")
        else:
            yield ui.tap("wish")


class RecommendChain(Recommended):
    """Messages → 应用市场 → WeChat: the app a person texts about installed, and its rating
    told to a WeChat friend."""

    id = "appstore.recommend_chain"
    apps = (MESSAGES, APPSTORE, MESSENGER)
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        params = self.sms_sample(world, rng, free=True)
        rating = next(a["rating"] for a in catalogue(world) if a["id"] == params["app_id"])
        return {**params, **friend_with_chat(world, rng), "rating": rating}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, f = params["person"], params["friend"]
        return phrased(
            zh=[f"把{p}短信推荐的App装上，再在微信上告诉{f}这个应用的评分",
                f"{p}发短信推荐了一个应用：帮我安装，然后微信发给{f}它在应用市场的评分",
                f"先安装{p}短信里说的那个App，再把它的评分用微信发给{f}"],
            en=[f"Install the app {p} recommended by SMS, then tell {f} on WeChat its rating",
                f"{p} texted me an app: install it, then send {f} its App Store rating on WeChat",
                f"First install the app from {p}'s SMS, then WeChat {f} its rating"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = installed_only(diff, {params["app_id"]: params["version"]})
        texts, sent_problems = sent_to_friend(diff, params)
        problems += sent_problems
        if texts:
            problems += check_written(" ".join(texts), Number(params["rating"]),
                                      what="the WeChat message",
                                      context=self.question_texts(params))  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["person"])
        name = quoted(ui, "推荐你装个")
        yield from open_app_page(ui, name, app_named(ui, name))
        rating = ui.text_of("rating").split("分")[0]
        yield ui.tap("install")
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from ui.type_into("input", f"“{name}”评分{rating}分")
        yield ui.tap("send")
