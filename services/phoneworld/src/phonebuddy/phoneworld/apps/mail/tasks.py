"""Task templates of the Mail app, and cross-app ones between Mail and Notes."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE, ME_ADDRESS, Mailbox, parse_recipients
from phonebuddy.phoneworld.apps.mail.content import CONTACTS, SERVICES
from phonebuddy.phoneworld.apps.notes.app import SEED_NOTES
from phonebuddy.phoneworld.tasks.answers import (
    ClockTime,
    Date,
    Expectation,
    Number,
    Text,
    Together,
    normalize,
    train_number,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

NOTES_PACKAGE = "com.pw.notes"
NOTES_LIST = f"apps/{NOTES_PACKAGE}/notes"
MAILS = f"apps/{MAIL_PACKAGE}/mails"
FOLDERS = f"apps/{MAIL_PACKAGE}/folders"
SERVICE_ADDRESSES = frozenset(address for _, address in SERVICES.values())
PEOPLE = tuple((name, address) for name, address, _ in CONTACTS if name != "人力资源部")
MONTHS_EN = (
    "",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
DATE_TIME = re.compile(r"(\d{1,2})月(\d{1,2})日.*?(\d{1,2}):(\d{2})", re.S)
MEETING_PLACE = re.compile(r"在(.+?)召开|地点：(.+?)。")


# -- verifying helpers (shared with the Gallery templates) ---------------------------------------


def check_sent_mail(
    mail: Mapping[str, Any], *, to: str, subject: str | None = None, body: str | None = None
) -> list[str]:
    problems = []
    if mail["folder"] != "sent":
        problems.append(f"the new mail is in {mail['folder']!r}, not sent")
    if parse_recipients(mail["to"]) != [to.lower()]:
        problems.append(f"sent to {mail['to']!r}, expected {to!r}")
    if subject is not None and mail["subject"].strip() != subject:
        problems.append(f"subject is {mail['subject']!r}, expected {subject!r}")
    if body is not None and normalize(body) not in normalize(mail["body"]):
        problems.append(f"body {mail['body']!r} does not contain {body!r}")
    return problems


# -- oracle helpers -----------------------------------------------------------------------------


def open_mail(ui: OracleUI, folder: str, subject: str) -> Iterator[Action]:
    yield from ui.open_app("邮件")
    yield ui.tap(f"folder_{folder}")
    yield from ui.scroll_to(text=subject)
    yield ui.tap(text=subject)


def search_mail(ui: OracleUI, keyword: str, subject: str) -> Iterator[Action]:
    yield from ui.open_app("邮件")
    yield ui.tap("search_bar")
    yield from ui.type_into("q", keyword)
    yield from ui.scroll_to(text=subject)
    yield ui.tap(text=subject)


def compose(ui: OracleUI, to: str, subject: str, body: str) -> Iterator[Action]:
    """From anywhere in Mail's home: write and send a new mail."""
    yield ui.tap("compose")
    yield from ui.type_into("to", to)
    yield from ui.type_into("subject", subject)
    yield from ui.type_into("body", body)
    yield ui.tap("send")


def new_note(ui: OracleUI, title: str, body: str) -> Iterator[Action]:
    yield ui.open("备忘录")
    yield ui.tap("new_note")
    yield from ui.type_into("title", title)
    yield from ui.type_into("body", body)
    yield ui.tap("save")


# -- sampling helpers ---------------------------------------------------------------------------


def seeded_mails(world: World) -> list[Mapping[str, Any]]:
    return list(world.content(MAIL_PACKAGE)["mails"].values())


def inbox_mails(
    world: World, accept: Callable[[Mapping[str, Any]], bool]
) -> list[Mapping[str, Any]]:
    return [m for m in seeded_mails(world) if m["folder"] == "inbox" and accept(m)]


def from_person(mail: Mapping[str, Any]) -> bool:
    return mail["from_addr"] not in SERVICE_ADDRESSES


def mail_params(mail: Mapping[str, Any]) -> Params:
    return {
        "mail_id": mail["id"],
        "subject": mail["subject"],
        "sender": mail["from_name"],
        "sender_address": mail["from_addr"],
    }


def other_person(rng: random.Random, *avoid: str) -> tuple[str, str]:
    return rng.choice([p for p in PEOPLE if p[1] not in avoid])


# -- single-app templates -----------------------------------------------------------------------

MESSAGES = (
    ("周五聚餐", "周五晚上 7 点在公司楼下的川菜馆聚餐，记得来！"),
    ("周报", "本周完成了会员接口联调，下周开始压测。"),
    ("借书", "上次说的《置身事内》我看完了，明天带给你。"),
    ("文件已收到", "文件已收到，我今天内看完给你反馈。"),
    ("出差安排", "我下周二到周四在杭州出差，有事请打我电话。"),
    ("生日快乐", "生日快乐！祝你新的一岁万事顺意。"),
)
REPLIES = ("收到，谢谢！", "好的，我会准时参加。", "没问题，我这周内处理。", "谢谢提醒，已安排。")


class MailTemplate(TaskTemplate):
    """A template of the Mail app alone."""

    category = Category.SINGLE_APP
    apps = (MAIL_PACKAGE,)


class SendMail(MailTemplate):
    id = "mail.send"
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        name, address = rng.choice(PEOPLE)
        subject, body = rng.choice(MESSAGES)
        return {"name": name, "to": address, "subject": subject, "body": body}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        name, to, subject, body = p["name"], p["to"], p["subject"], p["body"]
        return phrased(
            zh=[f"给{name}（{to}）发一封邮件，主题是“{subject}”，正文是“{body}”",
                f"帮我写封邮件发给{name}，地址 {to}，主题“{subject}”，正文“{body}”",
                f"发邮件到 {to}（{name}），主题填“{subject}”，内容写“{body}”"],
            en=[f"Email {name} at {to} with the subject '{subject}' and the text '{body}'",
                f"Please send {name} ({to}) a mail with the subject '{subject}' and the body "
                f"'{body}'",
                f"Write a mail to {to} ({name}): subject '{subject}', text '{body}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mail, problems = one_added(diff, MAILS, "mail")
        if mail is None:
            return problems
        return check_sent_mail(
            mail, to=params["to"], subject=params["subject"], body=params["body"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from ui.open_app("邮件")
        yield from compose(ui, params["to"], params["subject"], params["body"])


class ReplyMail(MailTemplate):
    id = "mail.reply"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        mail = rng.choice(inbox_mails(world, from_person))
        return {**mail_params(mail), "text": rng.choice(REPLIES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender, subject, text = params["sender"], params["subject"], params["text"]
        # The en wordings keep "{sender}'s mail '{subject}' with '{text}'" word for word: after
        # a Chinese name the apostrophe of 's reads as a quote mark to the values check.
        return phrased(
            zh=[f"回复{sender}的邮件《{subject}》，内容写“{text}”",
                f"帮我回一下{sender}发来的《{subject}》，就说“{text}”",
                f"{sender}那封《{subject}》的邮件，回复“{text}”"],
            en=[f"Reply to {sender}'s mail '{subject}' with '{text}'",
                f"Could you answer {sender}'s mail '{subject}' with '{text}'?",
                f"Write back to {sender}'s mail '{subject}' with '{text}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mail, problems = one_added(diff, MAILS, "mail")
        if mail is None:
            return problems
        problems = check_sent_mail(mail, to=params["sender_address"], body=params["text"])
        if mail["reply_to"] != params["mail_id"]:
            problems.append("the new mail is not a reply to that mail")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        yield ui.tap("reply")
        yield from ui.type_into("body", params["text"])
        yield ui.tap("send")


class ForwardMail(MailTemplate):
    id = "mail.forward"
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        kinds = ("train", "hotel", "order", "notice", "meeting")
        mail = rng.choice(inbox_mails(world, lambda m: m["facts"].get("kind") in kinds))
        name, address = other_person(rng, mail["from_addr"])
        return {**mail_params(mail), "name": name, "to": address}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        subject, name, to = params["subject"], params["name"], params["to"]
        return phrased(
            zh=[f"把邮件《{subject}》转发给{name}（{to}）",
                f"帮我把《{subject}》这封邮件转给{name}，邮箱是 {to}",
                f"{name}（{to}）也要看邮件《{subject}》，请转发过去"],
            en=[f"Forward the mail '{subject}' to {name} ({to})",
                f"Please pass the mail '{subject}' on to {name} at {to}",
                f"{name} ({to}) needs the mail '{subject}' too: forward it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mail, problems = one_added(diff, MAILS, "mail")
        if mail is None:
            return problems
        problems = check_sent_mail(mail, to=params["to"])
        if mail["forward_of"] != params["mail_id"]:
            problems.append("the new mail does not forward that mail")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        yield ui.tap("forward")
        yield from ui.type_into("to", params["to"])
        yield ui.tap("send")


class StarMail(MailTemplate):
    id = "mail.star"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return mail_params(rng.choice(inbox_mails(world, lambda m: not m["starred"])))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender, subject = params["sender"], params["subject"]
        return phrased(
            zh=[f"给{sender}发来的邮件《{subject}》加上星标", f"把{sender}的那封《{subject}》标星",
                f"帮我给《{subject}》这封邮件加星标，是{sender}发来的"],
            en=[f"Star the mail '{subject}' from {sender}",
                f"Please mark the mail '{subject}' from {sender} with a star",
                f"Find the mail '{subject}' that {sender} sent and star it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, MAILS, {f"{MAILS}[{params['mail_id']}]/starred": True})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        yield ui.tap("star")


class DeleteMail(MailTemplate):
    id = "mail.delete"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        kinds = ("newsletter", "promotion", "order")
        return mail_params(
            rng.choice(inbox_mails(world, lambda m: m["facts"].get("kind") in kinds))
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        subject = params["subject"]
        return phrased(
            zh=[f"删除邮件《{subject}》", f"把《{subject}》这封邮件删掉",
                f"邮件《{subject}》不需要了，帮我删除"],
            en=[f"Delete the mail '{subject}'", f"Get rid of the mail '{subject}'",
                f"I don't need the mail '{subject}' any more; delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, MAILS, {f"{MAILS}[{params['mail_id']}]/folder": "trash"})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        yield ui.tap("delete")


class MoveMail(MailTemplate):
    id = "mail.move"
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        targets = {
            "order": ("folder-bills", "账单"),
            "work": ("folder-work", "工作"),
            "meeting": ("folder-work", "工作"),
            "notice": ("folder-work", "工作"),
        }
        mail = rng.choice(inbox_mails(world, lambda m: m["facts"].get("kind") in targets))
        folder, name = targets[mail["facts"]["kind"]]
        return {**mail_params(mail), "folder": folder, "folder_name": name}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        subject, folder = params["subject"], params["folder_name"]
        return phrased(
            zh=[f"把邮件《{subject}》移动到“{folder}”文件夹",
                f"邮件《{subject}》放到“{folder}”文件夹里",
                f"帮我把《{subject}》这封邮件归到“{folder}”文件夹"],
            en=[f"Move the mail '{subject}' to the folder '{folder}'",
                f"Put the mail '{subject}' in the '{folder}' folder",
                f"Please file the mail '{subject}' under the folder '{folder}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{MAILS}[{params['mail_id']}]/folder"
        return expect_changes(diff, MAILS, {path: params["folder"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        yield ui.tap("move")
        yield ui.tap(f"move_to_{params['folder']}")


class RestoreMail(MailTemplate):
    id = "mail.restore"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        target, *others = rng.sample(inbox_mails(world, from_person), 3)
        # Two more deleted mails, so that 已删除 holds more than the one to restore.
        return {**mail_params(target), "also_deleted": [m["id"] for m in others]}

    def setup(self, it: Any, params: Params) -> None:
        deleted = {params["mail_id"], *params["also_deleted"]}
        for record in it.app_data(MAIL_PACKAGE)["mails"]:
            if record["id"] in deleted:
                record["folder"] = "trash"

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender, subject = params["sender"], params["subject"]
        # en: "{sender}'s mail '{subject}'" word for word in each (see ReplyMail).
        return phrased(
            zh=[f"我不小心删掉了{sender}的邮件《{subject}》，帮我恢复到收件箱",
                f"把{sender}的邮件《{subject}》从已删除里恢复到收件箱",
                f"帮我找回{sender}发的《{subject}》，放回收件箱，刚才误删了"],
            en=[f"I deleted {sender}'s mail '{subject}' by mistake; restore it to the inbox",
                f"Please restore {sender}'s mail '{subject}' to the inbox; I deleted it by mistake",
                f"Get {sender}'s mail '{subject}' back into the inbox, it was deleted by accident"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, MAILS, {f"{MAILS}[{params['mail_id']}]/folder": "inbox"})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "trash", params["subject"])
        yield ui.tap("restore")


SENDER_FOLDERS = {"铁路12306": "出行", "京东": "网购", "人力资源部": "公司通知", "少数派": "订阅"}


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
        return {**mail_params(mail), "topic": mail["facts"]["topic"]}

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
            zh=[f"邮箱里关于“{topic}”的那封邮件是谁发给我的？",
                f"那封讲“{topic}”的邮件，发件人是谁？",
                f"查一下邮箱，关于“{topic}”的邮件是谁发来的"],
            en=[f"Who sent me the mail about '{topic}'?",
                f"Who is the sender of the mail about '{topic}'?",
                f"Check my mailbox: who is the mail about '{topic}' from?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        senders = [*(c[:2] for c in CONTACTS), *SERVICES.values()]
        others = [form for sender in senders for form in sender]
        return Text([params["sender"], params["sender_address"]], others=others, what="sender")

    def wrong_answer(self, params: Params) -> str:
        return next(name for name, address in PEOPLE if address != params["sender_address"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from search_mail(ui, params["topic"], params["subject"])
        yield Answer(text=ui.text_of("sender_name"))


class AskMeetingTime(MailTemplate):
    id = "mail.ask_meeting"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        mail = rng.choice(inbox_mails(world, lambda m: m["facts"].get("kind") == "meeting"))
        return {**mail_params(mail), "facts": dict(mail["facts"])}

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
        f = params["facts"]
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
        return {**mail_params(mail), "facts": dict(mail["facts"])}

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
        f = params["facts"]
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


TEMPLATES: tuple[TaskTemplate, ...] = (
    SendMail(),
    ReplyMail(),
    ForwardMail(),
    StarMail(),
    DeleteMail(),
    MoveMail(),
    RestoreMail(),
    FileSenderMails(),
    AskSender(),
    AskMeetingTime(),
    AskTrain(),
    CountUnread(),
    AddressToNote(),
    MeetingToNote(),
    NoteToMail(),
)
