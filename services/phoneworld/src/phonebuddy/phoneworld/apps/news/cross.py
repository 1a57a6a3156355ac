"""Cross-app templates of 头条新闻: a hotline saved in Contacts, a local event put in Calendar,
an article shared to a WeChat friend, a paragraph copied into Notes, a match score texted back
to a friend, a Messages → News → Notes chain, and "road closed: note the detour, else save"."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, one_new_event, open_calendar
from phonebuddy.phoneworld.apps.contacts.tasks import CONTACTS_LIST
from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
    write_in_conversation,
)
from phonebuddy.phoneworld.apps.news.base import NEWS
from phonebuddy.phoneworld.apps.news.common import (
    HISTORY,
    SAVED,
    article_params,
    articles,
    open_article,
    paragraph_with,
    unsaved,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    copy_text,
    friend_with_chat,
    paste_into_new_note,
    sent_to_friend,
    share_sheet_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
CONTACTS = "com.pw.contacts"
CALENDAR = "com.pw.calendar"
MESSENGER = "com.pw.messenger"
NOTE_TITLES = ("新闻摘抄", "今日要闻", "资讯收藏")


def digits(text: str) -> str:
    return re.sub(r"\D", "", text)


class _Cross(TaskTemplate):
    category = Category.CROSS_APP
    ignorable = (HISTORY,)  # reading an article records it


class HotlineToContact(_Cross):
    """News → Contacts: the hotline an article gives, saved under a name."""

    id = "news.hotline_contact"
    apps = (NEWS, CONTACTS)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        a = pick(rng, articles(world, hotline=True))
        return {**article_params(a), "hotline": a["hotline"], "name": a["title"][:4] + "热线"}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["name"]
        return phrased(
            zh=[f"把新闻《{t}》里的咨询电话存为联系人“{n}”",
                f"找到《{t}》这篇文章里留的电话，新建联系人“{n}”保存",
                f"《{t}》里有个热线号码，帮我存进通讯录，名字写“{n}”"],
            en=[f"Save the phone number in the article '{t}' as a contact '{n}'",
                f"Find the hotline given in '{t}' and store it in a new contact '{n}'",
                f"The article '{t}' lists a hotline: add it to my contacts under the name '{n}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(CONTACTS_LIST)
        if len(added) != 1:
            return [f"expected one new contact, found {len(added)}"]
        c, problems = added[0], []
        if c["name"].strip() != params["name"]:
            problems.append(f"the contact is named {c['name']!r}")
        if digits(c["phone"]) != digits(params["hotline"]):
            problems.append(f"the contact's number is {c['phone']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["title"], params["article_id"])
        para, text = paragraph_with(ui, "400-")
        yield from ui.scroll_to(para)
        number = re.findall(r"\d{3}-\d{3}-\d{4}", text)[0]
        yield ui.open("联系人")
        yield ui.tap("new_contact")
        yield from ui.type_into("name", params["name"])
        yield from ui.type_into("phone", digits(number))
        yield ui.tap("save")


class EventToCalendar(_Cross):
    """News → Calendar: a local event's date, start time and place made into an event."""

    id = "news.event_calendar"
    apps = (NEWS, CALENDAR)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        a = pick(rng, articles(world, event=True))
        return {**article_params(a), **a["event"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["name"]
        return phrased(
            zh=[f"按新闻《{t}》里说的时间，在日历里建一个日程“{n}”，日期、开始时间和地点照文章填",
                f"看看《{t}》里的活动什么时候在哪举行，新建日程“{n}”记下日期、开始时间和地点",
                f"我要去《{t}》说的活动：帮我在日历添加“{n}”，时间地点按文章写"],
            en=[f"Add a calendar event '{n}' with the date, start time and place given in the "
                f"article '{t}'",
                f"Check when and where the event in '{t}' takes place and create the event '{n}' "
                "with that date, start time and place",
                f"I'm going to the event in '{t}': put '{n}' in my calendar with the article's "
                "date, start time and place"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return one_new_event(diff, {k: params[k] for k in ("date", "start")}
                             | {"title": params["name"], "location": params["place"]})  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["title"], params["article_id"])
        para, text = paragraph_with(ui, "将于")
        yield from ui.scroll_to(para)
        m = re.search(r"(\d+)月(\d+)日 (\d\d:\d\d)在(.+)举行", text)
        assert m is not None
        day = f"2026-{int(m[1]):02d}-{int(m[2]):02d}"
        end = f"{int(m[3][:2]) + 2:02d}{m[3][2:]}"
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {"title": params["name"], "date": day, "start": m[3],
                                   "end": end, "location": m[4]})  # fmt: skip


class ShareToWechat(_Cross):
    """News → the share sheet → WeChat: an article sent to a friend."""

    id = "news.share_wechat"
    apps = (NEWS, MESSENGER)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**article_params(pick(rng, articles(world))), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, f = params["title"], params["friend"]
        return phrased(
            zh=[f"把头条新闻里的《{t}》分享到微信发给{f}",
                f"用分享功能把文章《{t}》通过微信发给{f}",
                f"{f}想看《{t}》这篇新闻，分享到微信给他"],
            en=[f"Share the News article '{t}' with {f} on WeChat",
                f"Use Share to send the article '{t}' to {f} via WeChat",
                f"{f} wants to read '{t}': share it to them on WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        texts, problems = sent_to_friend(diff, params)
        if texts and not any(contains_text(t, params["title"]) for t in texts):
            problems.append(f"sent {texts}, not the article {params['title']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["title"], params["article_id"])
        yield from ui.scroll_to("share")
        yield ui.tap("share")
        yield from share_sheet_to_friend(ui, params["friend_id"])


class ParagraphToNote(_Cross):
    """News → Notes (clipboard): an article's first paragraph copied into a new note."""

    id = "news.paragraph_note"
    apps = (NEWS, NOTES)
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        a = pick(rng, articles(world))
        return {**article_params(a), "text": a["paragraphs"][1], "note": rng.choice(NOTE_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["note"]
        return phrased(
            zh=[f"把新闻《{t}》正文的第二段复制到新备忘录“{n}”里",
                f"新建备忘录“{n}”，内容是《{t}》这篇文章的第二段",
                f"摘抄《{t}》的第二段到备忘录，标题写“{n}”"],
            en=[f"Copy the second paragraph of the article '{t}' into a new note '{n}'",
                f"Create a note '{n}' holding the second paragraph of '{t}'",
                f"Save the second paragraph of '{t}' in a note titled '{n}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["note"])
        if note is not None and note["body"].strip() != params["text"]:
            problems.append(f"the note says {note['body']!r}, expected the paragraph")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["title"], params["article_id"])
        yield from copy_text(ui, "para_1")
        yield from paste_into_new_note(ui, params["note"])


def score_sms(home: str, away: str) -> str:
    return f"昨晚{home}和{away}那场比赛你看了吗？最后比分是多少？"


def score_said(text: str, home: int, away: int) -> bool:
    return any(f"{home}{sep}{away}" in text.replace(" ", "") for sep in ("比", ":", "：", "-"))


class ScoreReply(_Cross):
    """Messages → News → Messages: a friend asks a match's score; the reply states it."""

    id = "news.score_reply"
    apps = (MESSAGES, NEWS)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        a = pick(rng, articles(world, score=True))
        friend = pick(rng, address_book(world))
        return {**article_params(a), **a["score"], "friend": friend["name"],
                "phone": friend["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["friend"]),
                     score_sms(params["home"], params["away"]), ago=1200, key="score")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f = params["friend"]
        return phrased(
            zh=[f"{f}发短信问一场比赛的比分，去头条新闻查到后短信回复他",
                f"看看{f}短信里问的是哪场比赛，在新闻里找到最终比分，回短信告诉他",
                f"帮我回复{f}的短信：他问的那场比赛比分是多少，去头条新闻查"],
            en=[f"{f} texted asking a match score: look it up in News and reply by SMS",
                f"Check which match {f} asks about by SMS, find the final score in News and text "
                "it back",
                f"Reply to {f}'s text with the final score of the match they ask about (it's in "
                "News)"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        if not score_said(text, params["home_goals"], params["away_goals"]):
            return [f"the reply {text!r} lacks the score"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["friend"])
        yield from open_article(ui, params["title"], params["article_id"])
        _, text = paragraph_with(ui, "比分")
        score = re.search(r"\d+比\d+", text)
        assert score is not None
        yield ui.open("信息")  # back to the friend's thread
        yield from write_in_conversation(ui, f"最后比分是{score[0]}")


def write_note(ui: OracleUI, title: str, body: str) -> Iterator[Action]:
    yield ui.open("备忘录")
    yield ui.tap("new_note")
    yield from ui.type_into("title", title)
    yield from ui.type_into("body", body)
    yield ui.tap("save")


class SmsChainNote(_Cross):
    """Messages → News → Notes, long: a friend texts about an event article; save the article,
    put the event in a note with its hotline, and text the friend back the event's date."""

    id = "news.sms_chain_note"
    apps = (MESSAGES, NEWS, NOTES)
    difficulty = 24
    note_title = "活动报名"

    def sample(self, world: World, rng: random.Random) -> Params:
        followed = set(world.content(NEWS)["followed"])
        a = pick(rng, [a for a in unsaved(world, event=True) if a["source"] not in followed])
        friend = pick(rng, address_book(world))
        return {**article_params(a), "hotline": a["hotline"], "date": a["event"]["date"],
                "source": a["source"],
                "friend": friend["name"], "phone": friend["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["friend"]),
                     f"头条新闻上那篇《{params['title']}》你看了吗？我们一起去吧！",
                     ago=900, key="event")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f, n = params["friend"], self.note_title
        return phrased(
            zh=[f"{f}短信里提到一篇新闻：在头条新闻收藏它并关注发布它的号，新建备忘录“{n}”写上文中的"
                f"报名咨询电话，再短信回复{f}活动日期",
                f"找到{f}短信说的那篇新闻，收藏并关注作者，把里面的咨询电话记到新备忘录“{n}”，"
                f"然后回短信告诉{f}活动是哪天",
                f"先看{f}的短信，收藏他说的新闻、关注它的来源；再建备忘录“{n}”记下文章里的电话；"
                f"最后短信回复{f}活动的日期"],
            en=[f"{f} texted about a news article: save it in News and follow its source, create "
                f"a note '{n}' with its hotline, and text {f} back the event's date",
                f"Find the article {f}'s SMS mentions, save it and follow its author, write its "
                f"phone number into a new note '{n}', then reply to {f} with the date of the event",
                f"Read {f}'s text, save the article it names and follow its source; make a note "
                f"'{n}' with the article's phone number; finally text {f} the event date"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        saved = [s["id"] for s in diff.added(SAVED)]
        problems = [] if saved == [params["article_id"]] else [f"saved {saved}"]
        followed = [f["id"] for f in diff.added(f"apps/{NEWS}/following")]
        if followed != [params["source"]]:
            problems.append(f"followed {followed}, expected {params['source']}")
        note, note_problems = one_new_note(diff, self.note_title)
        problems += note_problems
        if note is not None and digits(params["hotline"]) not in digits(note["body"]):
            problems.append(f"the note {note['body']!r} lacks the hotline")
        sms = check_one_sms(diff, params["phone"])
        if sms:
            return problems + sms
        [(_, text)] = sent_messages(diff)
        month, day = (int(x) for x in params["date"].split("-")[1:])
        if not any(d in text for d in (f"{month}月{day}日", f"{month}月{day}号",
                                       f"{month}/{day}", f"{month}-{day}")):  # fmt: skip
            problems.append(f"the reply {text!r} lacks the date")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["friend"])
        yield from open_article(ui, params["title"], params["article_id"])
        _, event = paragraph_with(ui, "将于")
        _, phone = paragraph_with(ui, "电话")
        date = event.split("将于")[1].split(" ")[0]
        number = re.findall(r"\d{3}-\d{3}-\d{4}", phone)[0]
        yield ui.tap("follow")
        yield from ui.scroll_to("favorite")
        yield ui.tap("favorite")
        yield from write_note(ui, self.note_title, number)
        yield ui.open("信息")  # back to the friend's thread
        yield from write_in_conversation(ui, f"活动在{date}，一起去！")


class RoadNoteOrSave(_Cross):
    """Conditional: a road closed → a note naming the detour; open → save the article."""

    id = "news.road_note_or_save"
    apps = (NEWS, NOTES)
    difficulty = 11
    note_title = "出行提醒"

    def sample(self, world: World, rng: random.Random) -> Params:
        a = pick(rng, unsaved(world, road=True))
        return {**article_params(a), **a["road"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, r, n = params["title"], params["road"], self.note_title
        return phrased(
            zh=[f"看看新闻《{t}》：如果{r}全封闭，就新建备忘录“{n}”写上要绕行的道路；否则收藏这篇文章",
                f"《{t}》里说{r}封不封路？封闭的话把绕行道路记到新备忘录“{n}”，不封闭就把文章收藏",
                f"如果《{t}》说{r}封闭施工，建一条“{n}”备忘录写绕行路线，不然就收藏该新闻"],
            en=[f"Read '{t}': if {r} is fully closed, create a note '{n}' naming the detour road; "
                "otherwise save the article",
                f"Does '{t}' say {r} is closed? If so, write the detour road in a new note '{n}'; "
                "if not, save the article",
                f"If '{t}' says {r} is closed, make a note '{n}' with the detour, else bookmark "
                "the article"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if not params["closed"]:
            saved = [s["id"] for s in diff.added(SAVED)]
            return [] if saved == [params["article_id"]] else [f"saved {saved}"]
        note, problems = one_new_note(diff, self.note_title)
        if note is not None and params["detour"] not in note["body"]:
            problems.append(f"the note {note['body']!r} lacks {params['detour']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["title"], params["article_id"])
        _, text = paragraph_with(ui, "封闭")
        if "全封闭" in text:
            yield from write_note(ui, self.note_title, text.split("绕行")[1].rstrip("。"))
        else:
            yield from ui.scroll_to("favorite")
            yield ui.tap("favorite")
