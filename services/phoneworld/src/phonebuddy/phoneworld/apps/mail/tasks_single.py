"""Mail templates that act on mails: send, reply, forward, star, delete, move, restore."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE
from phonebuddy.phoneworld.apps.mail.steps import (
    MAILS,
    PEOPLE,
    check_sent_mail,
    compose,
    from_person,
    inbox_mails,
    mail_params,
    open_mail,
    other_person,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

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
