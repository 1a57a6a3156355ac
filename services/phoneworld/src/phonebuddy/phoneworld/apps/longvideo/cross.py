"""Cross-app templates of 追剧: a show a friend texts about, sharing to WeChat, an alarm for a
show's update day, the cast written into Notes, and a Messages → 追剧 → WeChat chain. The VIP
ones (paid through the wallet) are in `vip`."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.clock.base import CLOCK
from phonebuddy.phoneworld.apps.clock.tasks import (
    alarm_problems,
    fill_alarm_editor,
    one_new_alarm,
    open_clock,
)
from phonebuddy.phoneworld.apps.longvideo.base import LONGVIDEO
from phonebuddy.phoneworld.apps.longvideo.common import (
    aired,
    followed,
    history,
    not_followed,
    open_title,
    played,
    tap_episode,
    title_params,
    titles,
)
from phonebuddy.phoneworld.apps.longvideo.content import WEEKDAYS
from phonebuddy.phoneworld.apps.messages.tasks import add_incoming, address_book, open_thread
from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    friend_with_chat,
    sent_to_friend,
    share_sheet_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
WALLET = "com.pw.wallet"


def shared_to_friend(diff: StateDiff, params: Params) -> list[str]:
    texts, problems = sent_to_friend(diff, params)
    if texts and not any(contains_text(t, params["title"]) for t in texts):
        problems.append(f"sent {texts}, not the show {params['title']!r}")
    return problems


def share_to_friend(ui: OracleUI, params: Params) -> Iterator[Action]:
    """On a title's page: 分享, WeChat in the share sheet, the friend's chat, 发送."""
    yield from ui.scroll_to("share")
    yield ui.tap("share")
    yield from share_sheet_to_friend(ui, params["friend_id"])


def recommend_sms(title: str, episode: int | None) -> str:
    if episode is None:
        return f"最近在追《{title}》，超级好看，推荐你也看看！"
    return f"最近在追《{title}》，第{episode}集太精彩了，你也快去看！"


class _Recommended(TaskTemplate):
    """A friend's SMS names a show (and an episode)."""

    category = Category.CROSS_APP
    with_episode = True

    def sample(self, world: World, rng: random.Random) -> Params:
        seen = history(world)
        t = pick(rng, [t for t in not_followed(world)
                       if t["kind"] != "电影" and t["id"] not in seen])  # fmt: skip
        friend = pick(rng, address_book(world))
        params = {**title_params(t), "sender": friend["name"], "phone": friend["phone"]}
        if self.with_episode:
            params["episode"] = pick(rng, [e["n"] for e in aired(t, vip=False) if e["n"] > 1])
        return params

    def setup(self, it: Interaction, params: Params) -> None:
        sms = recommend_sms(params["title"], params.get("episode"))
        add_incoming(it, (params["phone"], params["sender"]), sms, ago=2400, key="show")

    def read_sms(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["sender"])
        if ui.find(text=recommend_sms(params["title"], params.get("episode"))) is None:
            raise OracleError("the recommendation is not in the thread")


class SmsFollowPlay(_Recommended):
    """Messages → 追剧: the show a friend texts about followed, the episode named played."""

    id = "longvideo.sms_follow_play"
    apps = (MESSAGES, LONGVIDEO)
    difficulty = 12

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s = params["sender"]
        return phrased(
            zh=[f"{s}发短信给我推荐了一部剧，帮我在追剧里把它加入追剧，并播放短信里说的那一集",
                f"看看{s}短信里推荐的是哪部剧：加到我的追剧，再把他提到的那集放起来",
                f"把{s}在信息里推荐的剧加入追剧列表，然后播放短信中提到的那一集"],
            en=[f"{s} texted me a show recommendation: follow it in Long Video and play the "
                "episode the SMS mentions",
                f"Check which show {s} recommended by SMS, add it to my 追剧 list and play the "
                "episode they mention",
                f"Follow the show from {s}'s text message in Long Video, then start the episode "
                "the message names"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return followed(diff, params["title_id"]) + played(
            diff, params["title_id"], params["episode"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self.read_sms(ui, params)
        yield from open_title(ui, params["title"], params["title_id"])
        yield ui.tap("follow")
        yield from tap_episode(ui, params["episode"])


class ShareToWechat(TaskTemplate):
    """追剧 → the share sheet → WeChat: a show sent to a friend."""

    id = "longvideo.share_wechat"
    category = Category.CROSS_APP
    apps = (LONGVIDEO, MESSENGER)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**title_params(pick(rng, titles(world))), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, f = params["title"], params["friend"]
        return phrased(
            zh=[f"把追剧里的《{t}》分享给微信好友{f}", f"用追剧的分享功能把《{t}》发到微信给{f}",
                f"{f}想找部剧看，把《{t}》从追剧分享到微信发给他"],
            en=[f"Share '{t}' from Long Video with {f} on WeChat",
                f"Use Long Video's share button to send '{t}' to {f} over WeChat",
                f"{f} is looking for something to watch: share '{t}' from Long Video to them on "
                "WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return shared_to_friend(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        yield from share_to_friend(ui, params)


class UpdateDayAlarm(TaskTemplate):
    """追剧 → Clock: a weekly alarm at a show's update time, on its update day."""

    id = "longvideo.update_alarm"
    category = Category.CROSS_APP
    apps = (LONGVIDEO, CLOCK)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        t = pick(rng, [t for t in titles(world) if t["schedule"] is not None])
        hour, minute = (int(x) for x in t["schedule"]["time"].split(":"))
        return {**title_params(t), "weekday": t["schedule"]["weekday"], "hour": hour,
                "minute": minute}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"查一下《{t}》每周哪天几点更新，在时钟里建一个每周那天、那个时间响的闹钟，名称写“{t}”",
                f"帮我设个闹钟提醒追《{t}》：按追剧里写的更新日和更新时间每周重复，闹钟名“{t}”",
                f"《{t}》更新时提醒我：在时钟新建闹钟“{t}”，每周在它的更新日、更新时间响"],
            en=[f"Find out on which weekday and at what time '{t}' updates, and create an alarm "
                f"named '{t}' ringing then every week",
                f"Set an alarm '{t}' that repeats every week on the update day and at the update "
                f"time Long Video shows for '{t}'",
                f"Remind me when '{t}' updates: a weekly alarm called '{t}' on its update day at "
                "its update time"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        alarm, problems = one_new_alarm(diff)
        if alarm is None:
            return problems
        return alarm_problems(alarm, params["hour"], params["minute"], params["title"],
                              [params["weekday"]])  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        status = ui.text_of("status")
        weekday = next(i for i, day in enumerate(WEEKDAYS) if f"每{day}" in status)
        hour, minute = (int(x) for x in status.split(f"每{WEEKDAYS[weekday]} ")[1][:5].split(":"))
        yield from open_clock(ui)
        yield ui.tap("add_alarm")
        yield from fill_alarm_editor(ui, hour, minute, params["title"], [weekday])


class CastToNote(TaskTemplate):
    """追剧 → Notes: a title's cast written into a new note."""

    id = "longvideo.cast_to_note"
    category = Category.CROSS_APP
    apps = (LONGVIDEO, NOTES)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        t = pick(rng, [t for t in titles(world) if t["kind"] in ("电视剧", "电影")])
        return {**title_params(t), "cast": list(t["cast"]), "note": f"{t['title']}主演"}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, note = params["title"], params["note"]
        return phrased(
            zh=[f"把《{t}》的主演名单记到新备忘录“{note}”里",
                f"新建备忘录“{note}”，写上追剧里《{t}》的全部主演",
                f"查一下《{t}》都有哪些主演，记在标题为“{note}”的备忘录中"],
            en=[f"Write the main cast of '{t}' into a new note '{note}'",
                f"Create a note '{note}' listing every lead actor of '{t}' shown in Long Video",
                f"Look up who stars in '{t}' and save the names in a note titled '{note}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["note"])
        if note is not None:
            missing = [name for name in params["cast"] if name not in note["body"]]
            if missing:
                problems.append(f"the note {note['body']!r} lacks {missing}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        cast = ui.text_of("cast").split("：", 1)[1]
        yield ui.open("备忘录")
        yield ui.tap("new_note")
        yield from ui.type_into("title", params["note"])
        yield from ui.type_into("body", cast.replace(" / ", "、"))
        yield ui.tap("save")


class SmsToWechatChain(_Recommended):
    """Messages → 追剧 → WeChat: follow the show a friend texts about and pass it on."""

    id = "longvideo.sms_wechat_chain"
    apps = (MESSAGES, LONGVIDEO, MESSENGER)
    difficulty = 18
    with_episode = False

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**super().sample(world, rng), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, f = params["sender"], params["friend"]
        return phrased(
            zh=[f"{s}短信推荐了一部剧：在追剧里把它加入追剧，再用分享把它发给微信好友{f}",
                f"把{s}发短信推荐的那部剧加到我的追剧列表，然后从追剧分享到微信给{f}",
                f"先看{s}的短信推荐了哪部剧，追上它，再分享到微信发给{f}"],
            en=[f"{s} recommended a show by SMS: follow it in Long Video, then share it with {f} "
                "on WeChat",
                f"Add the show {s} texted me about to my 追剧 list, then share it from Long Video "
                f"to {f} on WeChat",
                f"Find the show in {s}'s text, follow it, and send it to {f} through WeChat with "
                "the share button"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return followed(diff, params["title_id"]) + shared_to_friend(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self.read_sms(ui, params)
        yield from open_title(ui, params["title"], params["title_id"])
        yield ui.tap("follow")
        yield from share_to_friend(ui, params)


CROSS_TEMPLATES: tuple[TaskTemplate, ...] = (
    SmsFollowPlay(),
    ShareToWechat(),
    UpdateDayAlarm(),
    CastToNote(),
    SmsToWechatChain(),
)
