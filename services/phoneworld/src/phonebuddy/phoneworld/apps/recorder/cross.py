"""Cross-app templates of 录音机: a meeting transcript's phone number saved in Contacts and its
time put in Calendar (alone, and chained), a transcript shared to Notes or to a WeChat friend, a
recording mailed to a contact's address, a memo recorded as an SMS asks, and "starred: share it,
else star it"."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.calendar.tasks import one_new_event
from phonebuddy.phoneworld.apps.contacts.tasks import check_new_contact, open_contact
from phonebuddy.phoneworld.apps.gallery.steps import SHARE_TO
from phonebuddy.phoneworld.apps.mail.steps import MAILS, check_sent_mail
from phonebuddy.phoneworld.apps.messages.tasks import add_incoming, address_book, open_thread
from phonebuddy.phoneworld.apps.recorder.base import RECORDER
from phonebuddy.phoneworld.apps.recorder.common import (
    live,
    meetings,
    memo_problems,
    open_rec,
    path,
    rec_params,
    record_memo,
)
from phonebuddy.phoneworld.apps.recorder.steps import (
    ASKED_MEMOS,
    CALENDAR,
    CONTACTS,
    MAIL,
    MESSAGES,
    MESSENGER,
    NOTES,
    add_event,
    event_expected,
    heard_contact,
    meeting_params,
    read_transcript,
    save_contact,
    send_to_friend,
    share_text,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    friend_with_chat,
    sent_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.expect import NOTES_LIST
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


class PhoneToContact(TaskTemplate):
    """Recorder → Contacts: the contact person a meeting transcript names, saved."""

    id = "recorder.phone_to_contact"
    category = Category.CROSS_APP
    apps = (RECORDER, CONTACTS)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        return meeting_params(pick(rng, meetings(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["name"]
        return phrased(
            zh=[f"录音“{n}”的文字里提到了对接人和手机号，帮我把这个人存到联系人",
                f"打开“{n}”这条录音转文字，把里面对接人的姓名和电话新建成联系人",
                f"把会议录音“{n}”中说到的对接人（姓名和手机号）保存到通讯录"],
            en=[f"The transcript of the recording '{n}' names a contact person with a phone "
                "number: save that person in Contacts",
                f"Transcribe the recording '{n}' and add its contact person's name and number as "
                "a new contact",
                f"Save the contact person mentioned in the meeting recording '{n}' (name and "
                "mobile) to my address book"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_contact(diff, name=params["person"], phone=params["phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from read_transcript(ui, params["name"], params["rec_id"])
        person, phone = heard_contact(ui)
        yield from save_contact(ui, person, phone)


class TimeToCalendar(TaskTemplate):
    """Recorder → Calendar: the appointment a meeting transcript fixes, put in the calendar."""

    id = "recorder.time_to_calendar"
    category = Category.CROSS_APP
    apps = (RECORDER, CALENDAR)
    difficulty = 16

    def sample(self, world: World, rng: random.Random) -> Params:
        return meeting_params(pick(rng, meetings(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, e = params["name"], params["event"]
        return phrased(
            zh=[f"录音“{n}”里定了一个日程的时间，在日历里新建日程“{e}”，时间按录音里说的",
                f"听一下“{n}”的转写文字，在日历新建日程“{e}”，日期和起止时间照录音里的来",
                f"按会议录音“{n}”中提到的安排，在日历上建一个叫“{e}”的日程"],
            en=[f"The recording '{n}' sets a time for an appointment: add the event '{e}' to my "
                "calendar at the time the recording gives",
                f"Read the transcript of '{n}' and create the calendar event '{e}' on the date "
                "and from/to times it says",
                f"Following the meeting recording '{n}', put an event called '{e}' on my "
                "calendar at the time mentioned"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return one_new_event(diff, event_expected(params))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from read_transcript(ui, params["name"], params["rec_id"])
        yield from add_event(ui, params)


class MeetingChain(TaskTemplate):
    """Long horizon, Recorder → Contacts → Calendar: save the contact person, then the event."""

    id = "recorder.meeting_chain"
    category = Category.CROSS_APP
    apps = (RECORDER, CONTACTS, CALENDAR)
    difficulty = 24

    def sample(self, world: World, rng: random.Random) -> Params:
        return meeting_params(pick(rng, meetings(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, e = params["name"], params["event"]
        return phrased(
            zh=[f"整理会议录音“{n}”：把里面的对接人和手机号存进联系人，再把“{e}”按录音里的时间加到日历",
                f"先看“{n}”的转写文字，新建对接人的联系人（姓名、手机号），然后在日历建日程“{e}”，时间照录音",
                f"根据录音“{n}”：对接人存到通讯录，日程“{e}”按录音里的日期和起止时间记到日历里"],
            en=[f"Process the meeting recording '{n}': save its contact person and mobile in "
                f"Contacts, then add '{e}' to the calendar at the time it gives",
                f"Read the transcript of '{n}', add the contact person (name, mobile) as a "
                f"contact, then create the calendar event '{e}' at the time said",
                f"From the recording '{n}': contact person into the address book, and the event "
                f"'{e}' with the date and times it gives into the calendar"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_contact(diff, name=params["person"], phone=params["phone"]) + (
            one_new_event(diff, event_expected(params))
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from read_transcript(ui, params["name"], params["rec_id"])
        person, phone = heard_contact(ui)
        yield from save_contact(ui, person, phone)
        yield from add_event(ui, params)


class TranscriptToNote(TaskTemplate):
    """Recorder → Notes: a transcript shared into a new note."""

    id = "recorder.transcript_to_note"
    category = Category.CROSS_APP
    apps = (RECORDER, NOTES)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        rec = pick(rng, live(world))
        return {**rec_params(rec), "text": rec["transcript"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["name"]
        return phrased(
            zh=[f"把录音“{n}”转成文字，分享到备忘录保存",
                f"“{n}”这条录音的文字内容存一份到备忘录里",
                f"将“{n}”的转写文字通过分享发到备忘录，新建一条备忘录"],
            en=[f"Transcribe the recording '{n}' and share the text to Notes",
                f"Save the text of the recording '{n}' as a note",
                f"Share the transcript of '{n}' to Notes as a new note"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_added(diff, NOTES_LIST, "note")
        text = diff.value_before(path(params["rec_id"]))["transcript"]
        if note is not None and not contains_text(note["body"], text):
            problems.append(f"the note {note['body']!r} is not the transcript")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_rec(ui, params["name"], params["rec_id"])
        yield from share_text(ui, "notes")
        yield ui.tap("save")


class TranscriptToWeChat(TaskTemplate):
    """Recorder → WeChat: a transcript shared to a friend's chat."""

    id = "recorder.transcript_to_wechat"
    category = Category.CROSS_APP
    apps = (RECORDER, MESSENGER)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**rec_params(pick(rng, live(world))), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, f = params["name"], params["friend"]
        return phrased(
            zh=[f"把录音“{n}”的文字分享到微信发给{f}", f"“{n}”转成文字后通过微信发给{f}",
                f"帮我把“{n}”这条录音的转写文字微信分享给{f}"],
            en=[f"Share the text of the recording '{n}' with {f} on WeChat",
                f"Transcribe '{n}' and send the text to {f} via WeChat",
                f"Please send {f} the transcript of the recording '{n}' on WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        sent, problems = sent_to_friend(diff, params)
        text = diff.value_before(path(params["rec_id"]))["transcript"]
        if sent and not any(contains_text(s, text) for s in sent):
            problems.append(f"sent {sent}, not the transcript")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_rec(ui, params["name"], params["rec_id"])
        yield from share_text(ui, "messenger")
        yield from send_to_friend(ui, params)


class MailToContact(TaskTemplate):
    """Contacts → Recorder → Mail: a recording file mailed to a contact's address."""

    id = "recorder.mail_to_contact"
    category = Category.CROSS_APP
    apps = (CONTACTS, RECORDER, MAIL)
    difficulty = 20

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, [c for c in address_book(world) if c["email"]])
        return {**rec_params(pick(rng, live(world))), "to": person["name"],
                "email": person["email"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, to = params["name"], params["to"]
        return phrased(
            zh=[f"把录音“{n}”的文件用邮件发给联系人{to}（邮箱在联系人里），主题写“{n}”",
                f"查一下{to}的邮箱，把“{n}”这条录音通过邮件发过去，主题“{n}”",
                f"给{to}发封邮件，附上录音“{n}”，主题就写“{n}”，地址用通讯录里的邮箱"],
            en=[f"Email the recording '{n}' as a file to my contact {to} (the address is in "
                f"Contacts), subject '{n}'",
                f"Look up {to}'s email and send them the recording '{n}' by mail, subject '{n}'",
                f"Send {to} a mail with the recording '{n}' attached, subject '{n}', to the "
                "address in my contacts"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mail, problems = one_added(diff, MAILS, "mail")
        if mail is None:
            return problems
        problems = check_sent_mail(mail, to=params["email"], subject=params["name"])
        if mail["attachments"] != [f"{params['name']}.m4a"]:
            problems.append(f"attachments are {mail['attachments']}, not the recording")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_contact(ui, params["to"])
        email = ui.text_of("email")
        yield from open_rec(ui, params["name"], params["rec_id"])
        yield ui.tap("share")
        yield ui.tap("share_file")
        yield ui.tap(SHARE_TO.format("mail"))
        yield from ui.allow_permission()
        yield from ui.type_into("to", email)
        yield from ui.type_into("subject", params["name"])
        yield ui.tap("send")


class MemoFromSms(TaskTemplate):
    """Messages → Recorder: an SMS asks for a memo of N seconds under a name."""

    id = "recorder.memo_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, RECORDER)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        sender = pick(rng, address_book(world))
        seconds = rng.choice((20, 30, 40, 60))
        return {"sender": sender["name"], "phone": sender["phone"], "seconds": seconds,
                "memo": rng.choice(ASKED_MEMOS)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        sms = (f"麻烦用手机录一段{params['seconds']}秒左右的语音，录音名称就叫“{params['memo']}”，"
               "录好告诉我。")  # fmt: skip
        add_incoming(it, (params["phone"], params["sender"]), sms, ago=900, key="memo")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s = params["sender"]
        return phrased(
            zh=[f"{s}发短信让我录一段音，按短信里说的时长和名称录好保存",
                f"看看{s}短信里要我录多长、叫什么名字的录音，照做",
                f"按{s}信息里的要求用录音机录音并命名"],
            en=[f"{s} texted asking for a recording: record it with the length and name the SMS "
                "gives",
                f"Check how long and under what name {s}'s SMS wants a recording, and make it",
                f"Record and name a memo in Recorder as {s}'s message asks"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return memo_problems(diff, params["seconds"], params["memo"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["sender"])
        said = next((n.text for n in ui.find_all() if "录一段" in n.text), None)
        if said is None:
            raise OracleError(f"no recording request from {params['sender']}")
        seconds = int(said.split("录一段")[1].split("秒")[0])
        name = said.split("“")[1].split("”")[0]
        yield from record_memo(ui, seconds, name)


class ShareOrStar(TaskTemplate):
    """Conditional: a starred recording's text goes to a WeChat friend; else it is starred."""

    id = "recorder.share_or_star"
    category = Category.CROSS_APP
    apps = (RECORDER, MESSENGER)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        starred = rng.random() < 0.5
        rec = pick(rng, [r for r in live(world) if r["starred"] == starred])
        return {**rec_params(rec), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, f = params["name"], params["friend"]
        return phrased(
            zh=[f"如果录音“{n}”已经标星，就把它的文字微信分享给{f}；没标星的话就给它标星",
                f"“{n}”有星标吗？有就把转写文字通过微信发给{f}，没有就标上星",
                f"看一下“{n}”：已标星则把文字分享给微信好友{f}，否则给它加星标"],
            en=[f"If the recording '{n}' is starred, share its text with {f} on WeChat; if not, "
                "star it",
                f"Is '{n}' starred? If so send its transcript to {f} via WeChat, otherwise star "
                "it",
                f"Check '{n}': starred means share the text with my WeChat friend {f}, "
                "unstarred means star it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        p = path(params["rec_id"])
        before = diff.value_before(p)
        if not before["starred"]:
            return expect_changes(diff, p, {f"{p}/starred": True})
        sent, problems = sent_to_friend(diff, params)
        if sent and not any(contains_text(s, before["transcript"]) for s in sent):
            problems.append(f"sent {sent}, not the transcript")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_rec(ui, params["name"], params["rec_id"])
        if ui.node("star").content_desc == "取消标星":
            yield from share_text(ui, "messenger")
            yield from send_to_friend(ui, params)
        else:
            yield ui.tap("star")
