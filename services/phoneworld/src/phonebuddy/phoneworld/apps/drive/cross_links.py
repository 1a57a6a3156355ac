"""Cloud Drive's cross-app templates about links: a link texted or sent on WeChat, a Mail
→ Drive → Messages chain, and "over 10 MB: send the link, else archive it"; and the
setup and checking helpers the other cross-app templates share."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.drive.base import DRIVE
from phonebuddy.phoneworld.apps.drive.common import (
    MAIL,
    MESSAGES,
    MESSENGER,
    changed,
    file_params,
    find_file,
    is_big,
    my_files,
)
from phonebuddy.phoneworld.apps.drive.content import BIG_MB, link_url
from phonebuddy.phoneworld.apps.mail.steps import PEOPLE as MAIL_PEOPLE
from phonebuddy.phoneworld.apps.mail.steps import add_mail, open_mail
from phonebuddy.phoneworld.apps.messages.tasks import address_book, check_one_sms, sent_messages
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    copy_text,
    friend_with_chat,
    paste_into,
    sent_to_friend,
    share_sheet_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


def sms_with_link(diff: StateDiff, phone: str, link: str) -> list[str]:
    problems = check_one_sms(diff, phone)
    if problems:
        return problems
    [(_, text)] = sent_messages(diff)
    return [] if link in text else [f"the SMS {text!r} lacks the link {link}"]


def text_link(ui: OracleUI, to: str) -> Iterator[Action]:
    """With a link on the clipboard: a new SMS to `to` holding it."""
    yield ui.open("信息")
    yield ui.tap("compose")
    yield from ui.type_into("to", to)
    yield from paste_into(ui, "body")
    yield ui.tap("send")


def link_to_chat(ui: OracleUI, params: Params) -> Iterator[Action]:
    """On a file's Share page: Send link → WeChat → the friend's chat → send."""
    yield from ui.scroll_to("send_link")
    yield ui.tap("send_link")
    yield from share_sheet_to_friend(ui, params["friend_id"])


def link_in_chat(diff: StateDiff, params: Params) -> list[str]:
    texts, problems = sent_to_friend(diff, params)
    if texts and not any(contains_text(t, params["link"]) for t in texts):
        problems.append(f"sent {texts}, none holds the link {params['link']}")
    return problems


def file_with_link(world: World, file: Any) -> Params:
    return {**file_params(world, file), "link": link_url(file)}


class LinkBySms(TaskTemplate):
    """Drive → Messages: a file's link copied and pasted into an SMS."""

    id = "drive.link_by_sms"
    category = Category.CROSS_APP
    apps = (DRIVE, MESSAGES)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, address_book(world))
        return {**file_with_link(world, pick(rng, my_files(world))), "to": person["name"],
                "phone": person["phone"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, to = params["name"], params["to"]
        return phrased(
            zh=[f"复制Cloud Drive里“{name}”的链接，发短信给{to}",
                f"把“{name}”的文件链接用短信发给{to}",
                f"给{to}发条短信，内容是“{name}”在Cloud Drive的链接"],
            en=[f"Copy the Cloud Drive link of '{name}' and text it to {to}",
                f"Send {to} the link to the file '{name}' by SMS",
                f"Text {to} a message with the Cloud Drive link of '{name}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return sms_with_link(diff, params["phone"], params["link"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from find_file(ui, params["file_id"], params["name"])
        yield from ui.scroll_to("copy_link")
        yield ui.tap("copy_link")
        yield from text_link(ui, params["to"])


class LinkToWechat(TaskTemplate):
    """Drive → WeChat: the link opened to anyone, then sent to a friend through the share
    sheet."""

    id = "drive.link_to_wechat"
    category = Category.CROSS_APP
    apps = (DRIVE, MESSENGER)
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        file = pick(rng, my_files(world, link="restricted"))
        return {**file_with_link(world, file), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, friend = params["name"], params["friend"]
        return phrased(
            zh=[f"把“{name}”的链接权限改成Anyone with the link，然后通过微信把链接发给{friend}",
                f"让任何拿到链接的人都能打开“{name}”，再把它的链接微信发给{friend}",
                f"先把“{name}”设为Anyone with the link，再用微信给{friend}发链接"],
            en=[f"Set the link access of '{name}' to Anyone with the link, then send the link to "
                f"{friend} on WeChat",
                f"Let anyone with the link open '{name}', and send its link to {friend} over "
                "WeChat",
                f"Make '{name}' open to anyone with the link and WeChat the link to {friend}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return changed(diff, params["file_id"], link="anyone") + link_in_chat(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from find_file(ui, params["file_id"], params["name"])
        yield ui.tap("share")
        yield from ui.scroll_to("link_anyone")
        yield ui.tap("link_anyone")
        yield from link_to_chat(ui, params)


class MailChain(TaskTemplate):
    """Mail → Drive → Messages: a colleague asks by mail for a file's link to be opened to
    anyone and texted to a contact."""

    id = "drive.mail_chain"
    category = Category.CROSS_APP
    apps = (MAIL, DRIVE, MESSAGES)
    difficulty = 21
    subject = "帮忙发个文件链接"

    def sample(self, world: World, rng: random.Random) -> Params:
        file = pick(rng, my_files(world, link="restricted"))
        sender, address = pick(rng, MAIL_PEOPLE)
        person = pick(rng, [p for p in address_book(world) if p["name"] != sender])
        return {**file_with_link(world, file), "sender": sender, "address": address,
                "to": person["name"], "phone": person["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        body = (f"麻烦把Cloud Drive里“{params['name']}”的链接权限改成Anyone with the link，"
                f"然后把链接发短信给{params['to']}，他没有云盘账号。谢谢！")  # fmt: skip
        add_mail(it, "drive-link", (params["sender"], params["address"]), self.subject, body)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender = params["sender"]
        return phrased(
            zh=[f"{sender}发邮件让我发一个云盘文件的链接给别人，按邮件的要求办",
                f"看看{sender}的邮件，照里面说的处理链接并发短信",
                f"按{sender}邮件里的要求，把Cloud Drive文件链接设好后用短信发出去"],
            en=[f"{sender} emailed asking me to send someone a Cloud Drive file link: do as the "
                "mail asks",
                f"Read {sender}'s mail and set up and text the link as it says",
                f"Follow {sender}'s email: set the Cloud Drive file's link as asked and send it by "
                "SMS"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = changed(diff, params["file_id"], link="anyone")
        return problems + sms_with_link(diff, params["phone"], params["link"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", self.subject)
        yield from find_file(ui, params["file_id"], params["name"])
        yield ui.tap("share")
        yield from ui.scroll_to("link_anyone")
        yield ui.tap("link_anyone")
        yield from copy_text(ui, "link_url")
        yield from text_link(ui, params["to"])


class BigLinkOrArchive(TaskTemplate):
    """Conditional: a file over 10 MB has its link sent on WeChat, a smaller one is moved to
    Archive."""

    id = "drive.big_link_or_archive"
    category = Category.CROSS_APP
    apps = (DRIVE, MESSENGER)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = [f for f in my_files(world) if f["kind"] in ("pdf", "image")
                and f["parent"] != "fd-archive"]  # fmt: skip
        big = rng.random() < 0.5
        file = pick(rng, [f for f in pool if is_big(f) == big] or pool)
        return {**file_with_link(world, file), **friend_with_chat(world, rng), "big": is_big(file)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, friend = params["name"], params["friend"]
        return phrased(
            zh=[f"如果Cloud Drive里的“{name}”大于{BIG_MB} MB，就把它的链接微信发给{friend}；"
                "否则把它移到“Archive”文件夹",
                f"看“{name}”的大小：超过{BIG_MB} MB就通过微信发链接给{friend}，"
                "不超过就挪进“Archive”",
                f"“{name}”比{BIG_MB} MB大的话微信发链接给{friend}，不然移到“Archive”里"],
            en=[f"If '{name}' in Cloud Drive is larger than {BIG_MB} MB, send its link to "
                f"{friend} on WeChat; otherwise move it to the 'Archive' folder",
                f"Check the size of '{name}': over {BIG_MB} MB, WeChat its link to {friend}; "
                "otherwise move it into 'Archive'",
                f"Send {friend} the link of '{name}' on WeChat if it is bigger than {BIG_MB} MB, "
                "else move it to 'Archive'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["big"]:
            return link_in_chat(diff, params)
        return changed(diff, params["file_id"], parent="fd-archive")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from find_file(ui, params["file_id"], params["name"])
        number, unit = ui.texts_in("detail_size")[0].split()
        if unit == "MB" and float(number) > BIG_MB:
            yield ui.tap("share")
            yield from link_to_chat(ui, params)
        else:
            yield from ui.scroll_to("move")
            yield ui.tap("move")
            yield from ui.scroll_to("dest_fd-archive")
            yield ui.tap("dest_fd-archive")


LINK_TEMPLATES: tuple[TaskTemplate, ...] = (
    LinkBySms(),
    LinkToWechat(),
    MailChain(),
    BigLinkOrArchive(),
)
