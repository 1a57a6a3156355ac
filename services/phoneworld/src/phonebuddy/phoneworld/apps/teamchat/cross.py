"""Cross-app templates of Huddle: a meeting posted in #launch put in Calendar, a member's phone
number saved in Contacts, a deploy code from #oncall texted by SMS, and a link from a mail
posted in a channel."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.calendar.app import CALENDAR
from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, one_new_event, open_calendar
from phonebuddy.phoneworld.apps.contacts.app import CONTACTS
from phonebuddy.phoneworld.apps.contacts.tasks import check_new_contact
from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE
from phonebuddy.phoneworld.apps.mail.steps import add_mail, open_mail
from phonebuddy.phoneworld.apps.messages.app import MESSAGES
from phonebuddy.phoneworld.apps.messages.tasks import address_book, check_one_sms, sent_messages
from phonebuddy.phoneworld.apps.teamchat.base import TEAMCHAT
from phonebuddy.phoneworld.apps.teamchat.common import (
    add_message,
    one_post,
    open_channel,
    open_home,
    others,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

FIRST_DAY = dt.date(2026, 3, 17)
MEETING = re.compile(r"on (\w+ \d+), (\d\d:\d\d)-(\d\d:\d\d)")
LINK = re.compile(r"https://\S+[\w/]")
MEETINGS = ("Launch review", "Go/no-go meeting", "Press briefing", "Launch retro",
            "Pricing sign-off")  # fmt: skip
SENDERS = (("Jack Wilson", "jack.wilson@northwind.io"), ("Priya Shah", "priya.shah@northwind.io"),
           ("Sofia Novak", "sofia.novak@northwind.io"))  # fmt: skip


def meeting_params(rng: random.Random) -> Params:
    day = FIRST_DAY + dt.timedelta(days=rng.randrange(0, 44))
    start = rng.randrange(18, 34) * 30
    end = start + rng.choice((30, 60, 90))
    return {"date": day.isoformat(), "start": f"{start // 60:02d}:{start % 60:02d}",
            "end": f"{end // 60:02d}:{end % 60:02d}"}  # fmt: skip


def meeting_text(params: Params) -> str:
    day = dt.date.fromisoformat(params["date"])
    when = f"{day.strftime('%B')} {day.day}, {params['start']}-{params['end']}"
    return f"{params['title']} is on {when}. Join: {params['link']}"


def link(rng: random.Random, host: str) -> str:
    token = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz") for _ in range(9))
    return f"https://{host}/{token[:3]}-{token[3:6]}-{token[6:]}"


def read_meeting(text: str) -> Params:
    """The date (ISO), start and end of a meeting text `meeting_text` wrote."""
    found = MEETING.search(text)
    if found is None:
        raise OracleError(f"no meeting in {text!r}")
    day = dt.datetime.strptime(f"{found[1]} 2026", "%B %d %Y").date()
    return {"date": day.isoformat(), "start": found[2], "end": found[3]}


class MeetingToCalendar(TaskTemplate):
    """Huddle → Calendar: the meeting a colleague posts in #launch, added as an event."""

    id = "teamchat.meeting_to_calendar"
    category = Category.CROSS_APP
    apps = (TEAMCHAT, CALENDAR)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        poster = pick(rng, others(world))
        return {**meeting_params(rng), "title": rng.choice(MEETINGS), "poster": poster["name"],
                "poster_id": poster["id"], "link": link(rng, "meet.northwind.io")}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_message(it, "m-task-meeting", "launch", params["poster_id"], meeting_text(params))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, t = params["poster"], params["title"]
        return phrased(
            zh=[f"{p}在Huddle的#launch里发了“{t}”的时间，帮我在日历里建一个同名日程，日期和起止时间照消息填",
                f"按#launch中{p}发的消息，把“{t}”加到日历，标题用会议名，日期、开始和结束时间与消息一致",
                f"把{p}在#launch公布的“{t}”记进日历，标题就用这个会议名，日期和时间照消息"],
            en=[f"{p} posted the time of the '{t}' in Huddle's #launch; add it to my calendar "
                f"under the same title, with the date and times from the message",
                f"Using {p}'s message in #launch, put '{t}' on my calendar, titled with the "
                "meeting name, with the date, start and end as posted",
                f"Add the '{t}' that {p} announced in #launch to Calendar under that name, on "
                "the date and times given"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return one_new_event(diff, {k: params[k] for k in ("title", "date", "start", "end")})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_channel(ui, "launch")
        yield from ui.scroll_to("text_m-task-meeting")
        when = read_meeting(ui.text_of("text_m-task-meeting"))
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {"title": params["title"], **when})


class PhoneToContacts(TaskTemplate):
    """Huddle → Contacts: a member's phone number from their profile saved as a contact."""

    id = "teamchat.phone_to_contacts"
    category = Category.CROSS_APP
    apps = (TEAMCHAT, CONTACTS)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        member = pick(rng, others(world))
        return {"member_id": member["id"], "name": member["name"], "phone": member["phone"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["name"]
        return phrased(
            zh=[f"把Huddle里{n}资料页上的手机号存进联系人，名字写“{n}”",
                f"在Huddle查到{n}的电话，新建联系人“{n}”保存这个号码",
                f"帮我把同事{n}的手机号（在Huddle的成员资料里）保存为联系人“{n}”"],
            en=[f"Save the phone number on {n}'s Huddle profile as a new contact named '{n}'",
                f"Look up {n}'s phone in Huddle and store it in Contacts as '{n}'",
                f"Create a contact '{n}' with the phone number from {n}'s member profile in "
                "Huddle"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_contact(diff, name=params["name"], phone=params["phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield from ui.scroll_to("members")
        yield ui.tap("members")
        yield from ui.scroll_to(f"member_{params['member_id']}")
        yield ui.tap(f"member_{params['member_id']}")
        phone = ui.text_of("profile_phone").removeprefix("Phone: ").replace(" ", "")
        yield ui.open("联系人")
        yield ui.tap("new_contact")
        yield from ui.type_into("name", params["name"])
        yield from ui.type_into("phone", phone)
        yield ui.tap("save")


class DeployCodeSms(TaskTemplate):
    """Huddle → Messages: the release deploy code posted in #oncall texted to a contact."""

    id = "teamchat.deploy_code_sms"
    category = Category.CROSS_APP
    apps = (TEAMCHAT, MESSAGES)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        poster = pick(rng, others(world))
        person = pick(rng, address_book(world))
        return {"poster": poster["name"], "poster_id": poster["id"],
                "code": str(rng.randrange(100000, 999999)), "to": person["name"],
                "to_phone": person["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_message(it, "m-task-code", "oncall", params["poster_id"],
                    f"Release deploy code: {params['code']}. Share it with the release manager.",
                    hm="08:50")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, to = params["poster"], params["to"]
        return phrased(
            zh=[f"{p}在Huddle的#oncall里发了发布部署码，用短信把这个码发给{to}",
                f"把#oncall中{p}贴出的release deploy code短信告诉{to}",
                f"查一下{p}在#oncall发的部署码，然后发短信给{to}"],
            en=[f"{p} posted the release deploy code in Huddle's #oncall; text that code to {to}",
                f"Send {to} an SMS with the release deploy code {p} shared in #oncall",
                f"Look up the deploy code {p} posted in #oncall and text it to {to}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return [] if params["code"] in text else [f"the SMS {text!r} lacks {params['code']}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_channel(ui, "oncall")
        yield from ui.scroll_to("text_m-task-code")
        code = re.search(r"\d{6}", ui.text_of("text_m-task-code"))
        if code is None:
            raise OracleError("no code in the message")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("body", f"Deploy code: {code[0]}")
        yield ui.tap("send")


class MailLinkToChannel(TaskTemplate):
    """Mail → Huddle: the link a colleague mails, posted in the channel the mail names."""

    id = "teamchat.mail_link_to_channel"
    category = Category.CROSS_APP
    apps = (MAIL_PACKAGE, TEAMCHAT)
    difficulty = 11
    subjects = (("Design review recording", "design"), ("Incident postmortem doc", "oncall"),
                ("Press kit draft", "launch"), ("Hiring plan spreadsheet", "hiring"))  # fmt: skip

    def sample(self, world: World, rng: random.Random) -> Params:
        (name, address), (subject, channel) = rng.choice(SENDERS), rng.choice(self.subjects)
        return {"sender": name, "address": address, "subject": subject, "channel": channel,
                "link": link(rng, "docs.northwind.io")}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        body = (
            f"Hi Alex,\n\nHere is the link: {params['link']}\nCould you post it in "
            f"#{params['channel']} on Huddle?\n\nThanks!"
        )
        add_mail(it, "link", (params["sender"], params["address"]), params["subject"], body)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, subject, c = params["sender"], params["subject"], params["channel"]
        return phrased(
            zh=[f"把{s}的邮件《{subject}》里的链接发到Huddle的#{c}频道",
                f"{s}发来邮件《{subject}》，帮我把其中的链接贴到#{c}",
                f"打开邮件《{subject}》（{s}发的），把链接分享到Huddle的#{c}"],
            en=[f"Post the link from {s}'s mail '{subject}' in Huddle's #{c}",
                f"{s} mailed me '{subject}': share its link in the #{c} channel",
                f"Open the mail '{subject}' from {s} and post the link it holds in #{c} on "
                "Huddle"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        msg, problems = one_post(diff, params["channel"])
        if msg is not None and params["link"] not in msg["text"]:
            problems.append(f"the post {msg['text']!r} lacks the link {params['link']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        found = LINK.search(ui.text_of("mail_body"))
        if found is None:
            raise OracleError("no link in the mail")
        yield from open_channel(ui, params["channel"])
        yield from ui.type_into("composer", found[0])
        yield ui.tap("send")
