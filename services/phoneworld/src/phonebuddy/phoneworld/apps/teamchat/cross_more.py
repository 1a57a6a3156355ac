"""More cross-app templates of Huddle: a figure from a note replied in a thread, a Mail →
Huddle → Calendar chain, and two conditional ones ("if they replied, save their number,
otherwise DM them"; "if #oncall's latest message has a deploy code, note it, otherwise ask")."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.calendar.app import CALENDAR
from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, one_new_event, open_calendar
from phonebuddy.phoneworld.apps.contacts.app import CONTACTS
from phonebuddy.phoneworld.apps.contacts.tasks import check_new_contact
from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE
from phonebuddy.phoneworld.apps.mail.steps import add_mail, open_mail
from phonebuddy.phoneworld.apps.teamchat.base import TEAMCHAT
from phonebuddy.phoneworld.apps.teamchat.common import (
    MESSAGES_PATH,
    add_message,
    locate,
    message_actions,
    one_post,
    open_channel,
    open_home,
    others,
    pick_message,
    same_text,
)
from phonebuddy.phoneworld.apps.teamchat.content import ME
from phonebuddy.phoneworld.apps.teamchat.cross import (
    LINK,
    SENDERS,
    link,
    meeting_params,
    meeting_text,
    read_meeting,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, check_written, digit_code
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

NOTES = "com.pw.notes"
NOTE_TITLES = ("Budget numbers", "Q2 figures", "Finance notes")
ASK = "Can someone review the new checkout mockups today?"
NUDGES = ("Could you review the checkout mockups?", "Any chance to look at the mockups today?")
CODE_NOTE = "Deploy code"
QUIET = "All quiet overnight, nothing queued yet"
ASK_DEPLOY = "Is a deploy planned today?"


def add_note(it: Interaction, title: str, body: str) -> None:
    it.app_data(NOTES)["notes"].insert(0, {"id": "note-task", "title": title, "body": body,
                                           "pinned": False})  # fmt: skip


def open_note(ui: OracleUI, title: str) -> Iterator[Action]:
    yield ui.open("备忘录")
    yield from ui.scroll_to(text=title)
    yield ui.tap(text=title)


class NoteFigureToThread(WritesValue):
    """Notes → Huddle: the approved budget from a note, replied in a message's thread."""

    id = "teamchat.note_to_thread"
    category = Category.CROSS_APP
    apps = (NOTES, TEAMCHAT)
    difficulty = 12
    written = f"{MESSAGES_PATH}[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        approved = rng.randrange(40, 400) * 100
        return {**pick_message(world, rng), "note": rng.choice(NOTE_TITLES),
                "approved": approved, "spent": approved - rng.randrange(5, 35) * 100}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_note(it, params["note"], f"Approved budget: ${params['approved']:,}\n"
                                     f"Spent so far: ${params['spent']:,}")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, t, c, n = params["author"], params["text"], params["channel"], params["note"]
        return phrased(
            zh=[f"在Huddle的#{c}里，在{a}的消息“{t}”的话题中回复备忘录“{n}”里的批准预算金额",
                f"把备忘录“{n}”记的批准预算（Approved budget）回复到#{c}中{a}那条“{t}”的话题里",
                f"查一下备忘录“{n}”中批准的预算，然后在#{c}里{a}发的“{t}”下面的话题回复这个数"],
            en=[f"In Huddle's #{c}, reply in the thread of {a}'s message '{t}' with the approved "
                f"budget from my note '{n}'",
                f"Take the approved budget written in the note '{n}' and post it as a thread "
                f"reply to {a}'s message '{t}' in #{c}",
                f"Look up the approved budget in my note '{n}', then answer {a}'s message '{t}' "
                f"in #{c} with it, in the thread"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(params["approved"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        msg, problems = one_post(diff, params["channel"], params["msg_id"])
        if msg is None:
            return problems
        return problems + self.writing_problems(diff, params, msg["text"], what="the reply")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_note(ui, params["note"])
        found = re.search(r"Approved budget: \$([\d,]+)", ui.text_of(f"{NOTES}:id/note_body"))
        if found is None:
            raise OracleError("the note has no approved budget")
        yield from locate(ui, params["channel"], params["msg_id"])
        yield from message_actions(ui, params["msg_id"])
        yield ui.tap("act_thread")
        yield from ui.type_into("reply", f"Approved budget is ${found[1]}")
        yield ui.tap("send")


class LaunchMailChain(TaskTemplate):
    """Long chain, Mail → Huddle → Calendar: a mail's join link posted in #launch and its
    meeting put in the calendar."""

    id = "teamchat.mail_chain"
    category = Category.CROSS_APP
    apps = (MAIL_PACKAGE, TEAMCHAT, CALENDAR)
    difficulty = 22
    title = "Go/no-go meeting"
    subject = "3.0 go/no-go"

    def sample(self, world: World, rng: random.Random) -> Params:
        name, address = rng.choice(SENDERS)
        return {**meeting_params(rng), "title": self.title, "sender": name, "address": address,
                "link": link(rng, "meet.northwind.io")}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        body = (
            f"Hi Alex,\n\n{meeting_text(params)}\nPlease share the join link in #launch "
            "and block the time in your calendar.\n\nThanks"
        )
        add_mail(it, "chain", (params["sender"], params["address"]), self.subject, body)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, subj, t = params["sender"], self.subject, self.title
        return phrased(
            zh=[f"按{s}的邮件《{subj}》办：把会议加入链接发到Huddle的#launch，再在日历里建日程“{t}”，日期和起止时间按邮件填",
                f"{s}发了邮件《{subj}》：先把里面的会议链接贴到#launch，然后在日历新建“{t}”（日期、时间照邮件）",
                f"打开邮件《{subj}》（{s}），链接发到Huddle的#launch，会议记进日历，标题“{t}”"],
            en=[f"Follow {s}'s mail '{subj}': post the join link in Huddle's #launch, then add "
                f"a calendar event '{t}' with the date and times from the mail",
                f"{s} sent the mail '{subj}'; share its meeting link in #launch and create '{t}' "
                "in Calendar on the date and times given",
                f"Open the mail '{subj}' from {s}, post the link in #launch on Huddle and put the "
                f"meeting on my calendar as '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        msg, problems = one_post(diff, "launch")
        if msg is not None and params["link"] not in msg["text"]:
            problems.append(f"the post {msg['text']!r} lacks the link {params['link']}")
        return problems + one_new_event(
            diff, {k: params[k] for k in ("title", "date", "start", "end")}
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", self.subject)
        body = ui.text_of("mail_body")
        found, when = LINK.search(body), read_meeting(body)
        if found is None:
            raise OracleError("no link in the mail")
        yield from open_channel(ui, "launch")
        yield from ui.type_into("composer", f"Join link for the go/no-go: {found[0]}")
        yield ui.tap("send")
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {"title": self.title, **when})


class RepliedOrDm(TaskTemplate):
    """Conditional: a colleague replied in my thread → save their phone in Contacts;
    otherwise nudge them by DM. Someone else replies either way."""

    id = "teamchat.replied_or_dm"
    category = Category.CROSS_APP
    apps = (TEAMCHAT, CONTACTS)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        member, other = pick(rng, others(world), 2)
        return {"member": member["name"], "member_id": member["id"], "phone": member["phone"],
                "other_id": other["id"], "replied": rng.random() < 0.5,
                "nudge": rng.choice(NUDGES)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_message(it, "m-task-ask", "design", ME, ASK, hm="08:10")
        add_message(it, "m-task-ask-r1", "design", params["other_id"], "I can look after lunch",
                    hm="08:20", parent="m-task-ask")  # fmt: skip
        if params["replied"]:
            add_message(
                it,
                "m-task-ask-r2",
                "design",
                params["member_id"],
                "Sure, call me when you are free",
                hm="08:30",
                parent="m-task-ask",
            )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        m, n = params["member"], params["nudge"]
        return phrased(
            zh=[f"我在Huddle的#design问了“{ASK}”。如果{m}在这条消息的话题里回复了，就把{m}的手机号存进联系人（名字“{m}”）；否则私信{m}：“{n}”",
                f"看看{m}有没有在#design里我那条“{ASK}”的话题中回复：回复了就新建联系人“{m}”存下其手机号，没回复就给{m}发私信“{n}”",
                f"检查#design中“{ASK}”的回复：{m}回了的话把其电话保存为联系人“{m}”，没回的话私信他“{n}”"],
            en=[f"I asked '{ASK}' in Huddle's #design. If {m} has replied in its thread, save "
                f"{m}'s phone number in Contacts as '{m}'; otherwise send {m} the DM '{n}'",
                f"Check whether {m} answered in the thread of my message '{ASK}' in #design: if "
                f"so, add a contact '{m}' with their phone number, if not, DM {m} '{n}'",
                f"Look at the replies to '{ASK}' in #design: if {m} replied, store their number "
                f"as the contact '{m}'; if {m} did not, DM them '{n}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["replied"]:
            return check_new_contact(diff, name=params["member"], phone=params["phone"])
        msg, problems = one_post(diff, f"dm-{params['member_id']}")
        if msg is not None and not same_text(msg["text"], params["nudge"]):
            problems.append(f"the DM says {msg['text']!r}, expected {params['nudge']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_channel(ui, "design")
        yield from ui.scroll_to("thread_m-task-ask")
        yield ui.tap("thread_m-task-ask")
        replied = any(n.text.startswith(params["member"] + "  ") for n in ui.find_all()
                      if ":id/meta_" in n.resource_id)  # fmt: skip
        yield from open_home(ui)
        yield from ui.scroll_to("members")
        yield ui.tap("members")
        yield from ui.scroll_to(f"member_{params['member_id']}")
        yield ui.tap(f"member_{params['member_id']}")
        if replied:
            phone = ui.text_of("profile_phone").removeprefix("Phone: ").replace(" ", "")
            yield ui.open("联系人")
            yield ui.tap("new_contact")
            yield from ui.type_into("name", params["member"])
            yield from ui.type_into("phone", phone)
            yield ui.tap("save")
        else:
            yield ui.tap("message_member")
            yield from ui.type_into("composer", params["nudge"])
            yield ui.tap("send")


class DeployOrAsk(TaskTemplate):
    """Conditional: #oncall's latest message holds a deploy code → note the code; otherwise
    ask in #oncall whether a deploy is planned."""

    id = "teamchat.deploy_or_ask"
    category = Category.CROSS_APP
    apps = (TEAMCHAT, NOTES)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        poster = pick(rng, others(world))
        return {"poster_id": poster["id"], "code": str(rng.randrange(100000, 999999)),
                "has_code": rng.random() < 0.5}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        text = (f"Deploy {params['code']} is queued for the release window"
                if params["has_code"] else QUIET)  # fmt: skip
        add_message(it, "m-task-latest", "oncall", params["poster_id"], text, hm="08:59")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=[f"看Huddle的#oncall最新一条消息：如果里面有部署码，就新建备忘录“{CODE_NOTE}”记下这个码；"
                f"否则在#oncall发“{ASK_DEPLOY}”",
                f"如果#oncall最后一条消息带有deploy code，把码存到新备忘录“{CODE_NOTE}”里，不然就在"
                f"#oncall问一句“{ASK_DEPLOY}”",
                f"检查#oncall的最新消息是否有部署码：有就记进备忘录（标题“{CODE_NOTE}”），没有就在频道里发“{ASK_DEPLOY}”"],
            en=[f"Check the latest message in Huddle's #oncall: if it has a deploy code, save the "
                f"code in a new note titled '{CODE_NOTE}'; otherwise post '{ASK_DEPLOY}' in "
                "#oncall",
                f"If the newest #oncall message carries a deploy code, write the code into a new "
                f"note '{CODE_NOTE}', else ask '{ASK_DEPLOY}' in #oncall",
                f"Does the last message in #oncall include a deploy code? If yes, note it under "
                f"'{CODE_NOTE}'; if no, post '{ASK_DEPLOY}' in the channel"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["has_code"]:
            note, problems = one_new_note(diff, CODE_NOTE)
            if note is None:
                return problems
            return problems + check_written(note["body"], digit_code(params["code"]),
                                            what="the note")  # fmt: skip
        msg, problems = one_post(diff, "oncall")
        if msg is not None and not same_text(msg["text"], ASK_DEPLOY):
            problems.append(f"posted {msg['text']!r}, expected {ASK_DEPLOY!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_channel(ui, "oncall")
        for _ in range(40):  # a conversation opens at its newest message; make sure
            if ui.device.scroll_room("content")[1] <= 0:
                break
            yield ui.page_down()
        shown = [n.text for n in ui.find_all() if ":id/text_" in n.resource_id]
        last = shown[-1] if shown else ""
        code = re.search(r"\d{6}", last)
        if code is None:
            yield from ui.type_into("composer", ASK_DEPLOY)
            yield ui.tap("send")
            return
        yield ui.open("备忘录")
        yield ui.tap("new_note")
        yield from ui.type_into("title", CODE_NOTE)
        yield from ui.type_into("body", code[0])
        yield ui.tap("save")
