"""Mail templates that read mails: filing by sender, questions (sender, meeting time, train,
unread count), and notes written from mails or a mail from a note."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE, ME_ADDRESS, WEEKDAYS, Mailbox
from phonebuddy.phoneworld.apps.mail.content import CONTACTS, SERVICES
from phonebuddy.phoneworld.apps.mail.steps import (
    DATE_TIME,
    FOLDERS,
    MAILS,
    MEETING_PLACE,
    MONTHS_EN,
    NOTES_LIST,
    NOTES_PACKAGE,
    PEOPLE,
    check_sent_mail,
    compose,
    inbox_mails,
    mail_params,
    new_note,
    open_mail,
    search_mail,
    seeded_mails,
)
from phonebuddy.phoneworld.apps.mail.tasks_single import MailTemplate
from phonebuddy.phoneworld.apps.notes.app import SEED_NOTES
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    ClockTime,
    Date,
    Expectation,
    Number,
    Text,
    Together,
    train_number,
)
from phonebuddy.phoneworld.tasks.base import Params, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

SENDER_FOLDERS = {"铁路12306": "出行", "京东": "网购", "人力资源部": "公司通知", "少数派": "订阅"}


def restate(it: Interaction, params: Params, replacements: Mapping[str, str]) -> None:
    """Give the seeded mail this task's own facts (params' `facts`): its record on the phone
    carries the subject and body with each of `replacements` replaced, and the facts."""
    seeded = it.content["mails"][params["mail_id"]]
    subject, body = seeded["subject"], seeded["body"]
    for old, new in replacements.items():
        subject, body = subject.replace(old, new), body.replace(old, new)
    for record in it.data["mails"]:
        if record["id"] == params["mail_id"]:
            record.update(subject=subject, body=body, facts=dict(params["facts"]))


def facts_before(diff: StateDiff, params: Params) -> Mapping[str, Any]:
    record = next(r for r in diff.before["apps"][MAIL_PACKAGE]["mails"]
                  if r["id"] == params["mail_id"])  # fmt: skip
    return record["facts"]  # type: ignore[no-any-return]


class FileSenderMails(MailTemplate):
    id = "mail.file_sender"
    difficulty = 20

    def sample(self, world: World, rng: random.Random) -> Params:
        sender = rng.choice(sorted(SENDER_FOLDERS))
        # Newest first, as the inbox lists them, so the oracle only ever scrolls down.
        mails = sorted(
            inbox_mails(world, lambda m: m["from_name"] == sender),
            key=lambda m: m["time"],
            reverse=True,
        )
        return {
            "sender": sender,
            "folder_name": SENDER_FOLDERS[sender],
            "mails": [{"id": m["id"], "subject": m["subject"]} for m in mails],
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        folder, sender = params["folder_name"], params["sender"]
        return phrased(
            zh=[f"在邮箱里新建一个叫“{folder}”的文件夹，把收件箱里{sender}发来的邮件全部移进去",
                f"把收件箱里{sender}发来的邮件都移到一个新建的“{folder}”文件夹",
                f"帮我整理一下邮箱：建个“{folder}”文件夹，收件箱里{sender}的邮件全放进去"],
            en=[f"Create a mail folder named '{folder}' and move every mail from {sender} in the "
                "inbox into it",
                f"Move every inbox mail from {sender} into a new mail folder called '{folder}'",
                f"Tidy up my mail: make a folder '{folder}' and put all the mails from {sender} "
                "in the inbox there"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        folder, problems = one_added(diff, FOLDERS, "folder")
        if folder is None:
            return problems + expect_changes(diff, MAILS, {})
        if folder["name"] != params["folder_name"]:
            problems.append(f"the folder is named {folder['name']!r}")
        moves = {f"{MAILS}[{m['id']}]/folder": folder["id"] for m in params["mails"]}
        return problems + expect_changes(diff, MAILS, moves)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from ui.open_app("邮件")
        yield ui.tap("new_folder")
        yield from ui.type_into("folder_name", params["folder_name"])
        yield ui.tap("create_folder")
        yield ui.tap("folder_inbox")
        for mail in params["mails"]:
            yield from ui.scroll_to(text=mail["subject"])
            yield ui.tap(text=mail["subject"])
            yield ui.tap("move")
            yield ui.tap(text=params["folder_name"])


# -- question-answer templates ------------------------------------------------------------------


class AskSender(MailTemplate):
    id = "mail.ask_sender"
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        mail = rng.choice(inbox_mails(world, lambda m: self.names_one_mail(world, m)))
        # this task's own day (1 to 20 days ago) and minute of the day the mail came
        days_ago, minute = rng.randrange(1, 21), rng.randrange(8 * 60, 22 * 60)
        return {**mail_params(mail), "topic": mail["facts"]["topic"], "days_ago": days_ago,
                "minute": minute}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        midnight = it.clock - (it.clock + 8 * 3600) % 86400  # Beijing time
        for record in it.data["mails"]:
            if record["id"] == params["mail_id"]:
                record["time"] = midnight - params["days_ago"] * 86400 + params["minute"] * 60

    @staticmethod
    def names_one_mail(world: World, mail: Mapping[str, Any]) -> bool:
        """The topic finds this mail and no other received one, so the question is clear."""
        topic = mail["facts"].get("topic")
        if topic is None:
            return False
        received = [m for m in seeded_mails(world) if m["from_addr"] != ME_ADDRESS]
        box = Mailbox({"mails": received, "read": {}, "folders": []}, {"mails": {}})
        return [m["id"] for m in box.search(topic)] == [mail["id"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        topic = params["topic"]
        return phrased(
            zh=[f"邮箱里关于“{topic}”的那封邮件是谁发给我的？哪天发的？",
                f"那封讲“{topic}”的邮件，发件人是谁，是几月几号收到的？",
                f"查一下邮箱，关于“{topic}”的邮件是谁发来的，日期是哪天"],
            en=[f"Who sent me the mail about '{topic}', and on which day?",
                f"Who is the sender of the mail about '{topic}', and on what date did it arrive?",
                f"Check my mailbox: who is the mail about '{topic}' from, and what day was it "
                "sent?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        senders = [*(c[:2] for c in CONTACTS), *SERVICES.values()]
        others = [form for sender in senders for form in sender]
        record = next(r for r in diff.before["apps"][MAIL_PACKAGE]["mails"]
                      if r["id"] == params["mail_id"])  # fmt: skip
        sent = local_time(record["time"])
        name = Text([params["sender"], params["sender_address"]], others=others, what="sender")
        return Together(name, Date(sent.month, sent.day))

    def wrong_answer(self, params: Params) -> str:
        return next(name for name, address in PEOPLE if address != params["sender_address"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from search_mail(ui, params["topic"], params["subject"])
        sent = re.search(r"(\d{1,2})月(\d{1,2})日", ui.text_of("time"))
        if sent is None:
            raise OracleError("the mail shows no date")
        yield Answer(text=f"{ui.text_of('sender_name')}，{sent.group(1)}月{sent.group(2)}日")


class AskMeetingTime(MailTemplate):
    id = "mail.ask_meeting"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        mail = rng.choice(inbox_mails(world, lambda m: m["facts"].get("kind") == "meeting"))
        # this task's own day and time of the meeting (a day after every device's clock)
        day, hour, minute = rng.randrange(16, 31), rng.randrange(8, 19), rng.randrange(0, 60, 5)
        seeded = mail["facts"]
        facts = {**seeded, "day": day, "hour": hour, "minute": minute}
        return {**mail_params(mail), "facts": facts,
                "seeded": [seeded["day"], seeded["hour"], seeded["minute"]]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        (day, hour, minute), f = params["seeded"], params["facts"]
        weekday = WEEKDAYS[dt.date(2026, 4, day).weekday()]
        new_weekday = WEEKDAYS[dt.date(2026, 4, f["day"]).weekday()]
        old = f"4月{day}日（周{weekday}）{hour:02d}:{minute:02d}"
        new = f"4月{f['day']}日（周{new_weekday}）{f['hour']:02d}:{f['minute']:02d}"
        restate(it, params, {old: new})

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        topic, subject = params["facts"]["topic"], params["subject"]
        return phrased(
            zh=[f"邮件《{subject}》里说的{topic}是哪天几点开始？",
                f"《{subject}》这封邮件提到的{topic}，是哪一天、几点开始？",
                f"帮我看下邮件《{subject}》，{topic}定在哪天几点开始"],
            en=[f"On which day and at what time does the {topic} in the mail '{subject}' start?",
                f"When does the {topic} from the mail '{subject}' start? Give the day and the time",
                f"Check the mail '{subject}': what day and time does the {topic} start?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        f = facts_before(diff, params)
        return Together(Date(f["month"], f["day"]), ClockTime(f["hour"], f["minute"]))

    def wrong_answer(self, params: Params) -> str:
        f = params["facts"]
        return f"{f['month']}月{f['day']}日 {(f['hour'] + 1) % 24:02d}:{f['minute']:02d}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        found = DATE_TIME.search(ui.text_of("mail_body"))
        if found is None:
            raise OracleError("no date and time in the mail")
        month, day, hour, minute = found.groups()
        yield Answer(text=f"{month}月{day}日 {hour}:{minute}")


class AskTrain(MailTemplate):
    id = "mail.ask_train"
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        mail = rng.choice(inbox_mails(world, lambda m: m["facts"].get("kind") == "train"))
        # this task's own train and departure time on that day
        seeded = mail["facts"]
        train = f"{rng.choice('GD')}{rng.randrange(1, 10000)}"
        hour, minute = rng.randrange(6, 22), rng.randrange(60)
        subject = mail["subject"].replace(seeded["train"], train)
        return {**mail_params(mail), "subject": subject,
                "facts": {**seeded, "train": train, "hour": hour, "minute": minute},
                "seeded": [seeded["train"], seeded["hour"], seeded["minute"]]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        (train, hour, minute), f = params["seeded"], params["facts"]
        leaves = f"{f['hour']:02d}:{f['minute']:02d} 开"
        restate(it, params, {f"{train} 次列车": f"{f['train']} 次列车",
                             f" {train}": f" {f['train']}",
                             f"{hour:02d}:{minute:02d} 开": leaves})  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f = params["facts"]
        month, day, origin, to = f["month"], f["day"], f["origin"], f["destination"]
        month_en = MONTHS_EN[month]
        return phrased(
            zh=[f"查一下邮件：我{month}月{day}日从{origin}到{to}的火车是哪个车次、几点发车？",
                f"我{month}月{day}日从{origin}去{to}坐哪趟火车？几点开？帮我在邮件里查查",
                f"翻一下邮件，看看我{month}月{day}日{origin}到{to}的火车车次和发车时间"],
            en=[f"Check my mail: which train do I take from {origin} to {to} on {month_en} {day}, "
                "and when does it leave?",
                f"Which train am I on from {origin} to {to} on {month_en} {day}, and what time "
                "does it depart? It is in my mail",
                f"Look in my mail for my {month_en} {day} train from {origin} to {to}: the train "
                "number and the departure time"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        f = facts_before(diff, params)
        return Together(train_number(f["train"]), ClockTime(f["hour"], f["minute"]))

    def wrong_answer(self, params: Params) -> str:
        f = params["facts"]
        return f"{f['train']}，{(f['hour'] + 1) % 24:02d}:{f['minute']:02d} 发车"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from search_mail(ui, params["facts"]["destination"], params["subject"])
        body = ui.text_of("mail_body")
        found = re.search(r"([GDCKZT]\d+) 次列车.*?(\d{2}:\d{2}) 开", body, re.S)
        if found is None:
            raise OracleError("no train in the mail")
        yield Answer(text=f"{found.group(1)}，{found.group(2)} 发车")


class CountUnread(MailTemplate):
    id = "mail.count_unread"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return {}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我的收件箱里现在有几封未读邮件？", "收件箱还有多少封邮件没读？",
                "看看收件箱里未读的邮件有几封"],
            en=["How many unread mails are in my inbox?", "Count the unread mails in my inbox",
                "How many mails in my inbox have I not read yet?"],
        )  # fmt: skip

    @staticmethod
    def unread_at_start(diff: StateDiff) -> int:
        data = diff.before["apps"][MAIL_PACKAGE]
        inbox = [r["id"] for r in data["mails"] if r["folder"] == "inbox"]
        return sum(1 for mail_id in inbox if not data["read"].get(mail_id, True))

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(self.unread_at_start(diff), unit="封")

    def wrong_answer(self, params: Params) -> str:
        return "99"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from ui.open_app("邮件")
        inbox = ui.find("folder_inbox")
        if inbox is None:
            raise OracleError("the inbox is not on screen")
        counts = [child.text for child in inbox.children if child.text.isdigit()]
        yield Answer(text=counts[0] if counts else "0")


# -- cross-app templates (Mail and Notes) --------------------------------------------------------


class AddressToNote(WritesValue):
    id = "mail.address_to_note"
    category = Category.CROSS_APP
    apps = (MAIL_PACKAGE, NOTES_PACKAGE)
    difficulty = 12
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        mails = inbox_mails(world, lambda m: m["facts"].get("kind") == "address")
        mail = rng.choice(mails)
        facts = mail["facts"]
        return {
            **mail_params(mail),
            "address": facts["address"],
            "title": f"{facts['recipient']}的地址",
            "addresses": [m["facts"]["address"] for m in mails],  # every one the inbox holds
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender, subject, title = params["sender"], params["subject"], params["title"]
        # en: "{sender}'s mail '{subject}' as a new note titled '{title}'" word for word in each
        # (see ReplyMail).
        return phrased(
            zh=[f"把{sender}的邮件《{subject}》里的收货地址记到备忘录里，标题写“{title}”",
                f"新建一条备忘录，标题“{title}”，内容是{sender}的邮件《{subject}》里的收货地址",
                f"帮我把{sender}发的《{subject}》里那个收货地址存到备忘录，标题就叫“{title}”"],
            en=[f"Save the delivery address from {sender}'s mail '{subject}' as a new note titled "
                f"'{title}'",
                f"Copy the delivery address in {sender}'s mail '{subject}' as a new note titled "
                f"'{title}'",
                f"Please keep the delivery address of {sender}'s mail '{subject}' as a new note "
                f"titled '{title}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Text([params["address"]], others=params["addresses"], what="address")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        found = re.search(r"收货地址：(.+)", ui.text_of("mail_body"))
        if found is None:
            raise OracleError("no address in the mail")
        yield from new_note(ui, params["title"], found.group(1).strip())


class MeetingToNote(WritesValue):
    id = "mail.meeting_to_note"
    category = Category.CROSS_APP
    apps = (MAIL_PACKAGE, NOTES_PACKAGE)
    difficulty = 12
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        mails = inbox_mails(world, lambda m: m["facts"].get("kind") == "meeting")
        mail = rng.choice(mails)
        places = [m["facts"]["place"] for m in mails]  # every meeting's, the inbox holds
        return {**mail_params(mail), "facts": dict(mail["facts"]), "places": places}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        topic, subject = params["facts"]["topic"], params["subject"]
        return phrased(
            zh=[f"把邮件《{subject}》里{topic}的时间和地点记到备忘录，标题写“{topic}”",
                f"新建一条标题为“{topic}”的备忘录，记下邮件《{subject}》里{topic}的时间和地点",
                f"{topic}什么时候、在哪儿开？看一下邮件《{subject}》，记到标题为“{topic}”的备忘录里"],
            en=[f"Note down when and where the {topic} from the mail '{subject}' takes place, in a "
                f"new note titled '{topic}'",
                f"Create a note titled '{topic}' with the date, time and place of the {topic} in "
                f"the mail '{subject}'",
                f"When and where is the {topic} in the mail '{subject}'? Write it down in a new "
                f"note titled '{topic}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["facts"]["topic"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        f = params["facts"]
        return Together(Date(f["month"], f["day"]), ClockTime(f["hour"], f["minute"]),
                        Text([f["place"]], others=params["places"], what="place"))  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        body = ui.text_of("mail_body")
        when, where = DATE_TIME.search(body), MEETING_PLACE.search(body)
        if when is None or where is None:
            raise OracleError("no date, time or place in the mail")
        month, day, hour, minute = when.groups()
        place = where.group(1) or where.group(2)
        text = f"{month}月{day}日 {hour}:{minute}，{place}"
        yield from new_note(ui, params["facts"]["topic"], text)


class NoteToMail(WritesValue):
    id = "mail.note_to_mail"
    category = Category.CROSS_APP
    apps = (MAIL_PACKAGE, NOTES_PACKAGE)
    difficulty = 12
    written = f"{MAILS}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        title, body = rng.choice(SEED_NOTES)
        name, address = rng.choice(PEOPLE)
        return {"title": title, "body": body, "name": name, "to": address}

    def setup(self, it: Any, params: Params) -> None:
        notes = it.app_data(NOTES_PACKAGE)["notes"]
        if not any(n["title"] == params["title"] for n in notes):
            notes.append(
                {
                    "id": "note-task",
                    "title": params["title"],
                    "body": params["body"],
                    "pinned": False,
                }
            )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, name, to = params["title"], params["name"], params["to"]
        return phrased(
            zh=[f"把备忘录“{title}”的内容用邮件发给{name}（{to}），邮件主题就用备忘录的标题",
                f"给{name}（{to}）发封邮件，正文是备忘录“{title}”的内容，主题用这条备忘录的标题",
                f"帮我把“{title}”这条备忘录用邮件发到 {to}（{name}），主题写备忘录标题，"
                "正文写它的内容"],
            en=[f"Email the contents of the note '{title}' to {name} ({to}), with the note's title "
                "as the subject",
                f"Send {name} ({to}) a mail with the text of the note '{title}', using the note "
                "title as the subject",
                f"Mail the note '{title}' to {name} at {to}: the note title as the subject, its "
                "contents as the body"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mail, problems = one_added(diff, MAILS, "mail")
        if mail is None:
            return problems
        problems = check_sent_mail(mail, to=params["to"], subject=params["title"])
        return problems + self.writing_problems(diff, params, mail["body"], what="the mail")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        bodies = [n["body"] for n in diff.value_before(NOTES_LIST) if n["body"]]
        return Text([params["body"]], others=[*bodies, *(b for _, b in SEED_NOTES)],
                    what="note text")  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])
        body = ui.text_of("note_body")
        yield from ui.open_app("邮件")
        yield from compose(ui, params["to"], params["title"], body)
