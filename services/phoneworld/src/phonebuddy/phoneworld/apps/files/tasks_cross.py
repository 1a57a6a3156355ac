"""Cross-app templates of 文件管理 (Files): a file renamed or restored as an SMS asks, the
largest PDF's name texted, a mail's renaming request carried through Files to an SMS, a mail's
attachment saved into a folder, a file's path kept in a note."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.files.content import (
    FILES,
    extension,
)
from phonebuddy.phoneworld.apps.files.steps import (
    FILE_LIST,
    MAIL,
    changed,
    file_params,
    files_before,
    first_of_kind,
    in_folder,
    live_before,
    open_file,
    open_folder,
    pick,
    rename_to,
    seeded,
    shown_files,
    trash_in_setup,
)
from phonebuddy.phoneworld.apps.files.tasks_common import (
    ATTACHMENT_MAILS,
    MESSAGES,
    NOTE_TITLES,
    NOTES,
    SENDERS,
    new_name,
)
from phonebuddy.phoneworld.apps.gallery.steps import SHARE_TO
from phonebuddy.phoneworld.apps.mail.steps import MAILS as MAIL_LIST
from phonebuddy.phoneworld.apps.mail.steps import PEOPLE, add_mail, check_sent_mail, open_mail
from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Text
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.base import pick as choose
from phonebuddy.phoneworld.tasks.cross_app.steps import copy_text, paste_into, paste_into_new_note
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import NOTES_LIST, WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


class RenameFromSms(TaskTemplate):
    """Messages → Files: a contact's SMS names a file and its new name."""

    id = "files.rename_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, FILES)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        file = choose(rng, [f for f in in_folder(world, "文档") + in_folder(world, "下载")])
        person = choose(rng, address_book(world))
        return {**file_params(file), "new": new_name(rng, file["name"]), "person": person["name"],
                "phone": person["phone"]}  # fmt: skip

    @staticmethod
    def sms(params: Params) -> str:
        return (f"帮个忙：你手机{params['folder']}文件夹里的“{params['name']}”改名为"
                f"“{params['new']}”吧，方便统一归档。")  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["person"]), self.sms(params), ago=900,
                     key="rename")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        person = params["person"]
        return phrased(
            zh=[f"{person}发短信让我给手机里的一个文件改名，照他说的在文件管理里改好",
                f"看看{person}的短信，按里面的要求把文件重命名",
                f"{person}短信里说了要改哪个文件的名字、改成什么，帮我去文件管理里改一下"],
            en=[f"{person} texted me asking to rename a file on my phone: do it in Files as asked",
                f"Read {person}'s SMS and rename the file the way it says",
                f"{person}'s text says which file to rename and to what: rename it in Files"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return changed(diff, params["file_id"], name=params["new"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["person"])
        if ui.find(text=self.sms(params)) is None:
            raise OracleError("the SMS is not in the thread")
        yield from open_file(ui, params["folder"], params["file_id"])
        yield from rename_to(ui, params["new"])


class RestoreFromSms(TaskTemplate):
    """Messages → Files: the file a contact asks back is restored from the 回收站."""

    id = "files.restore_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, FILES)
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        gone = choose(rng, in_folder(world, "文档") + in_folder(world, "微信"), 3)
        person = choose(rng, address_book(world))
        return {**file_params(gone[0]), "also": [f["id"] for f in gone[1:]],
                "person": person["name"], "phone": person["phone"]}  # fmt: skip

    @staticmethod
    def sms(params: Params) -> str:
        return f"“{params['name']}”还要用呢，你是不是删了？帮忙从回收站恢复一下吧。"

    def setup(self, it: Interaction, params: Params) -> None:
        trash_in_setup(it, [params["file_id"], *params["also"]])
        add_incoming(it, (params["phone"], params["person"]), self.sms(params), ago=600,
                     key="restore")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        person = params["person"]
        return phrased(
            zh=[f"{person}短信里说的那个文件被我删了，帮我从回收站恢复",
                f"看一下{person}发的短信，把他要的文件从文件管理的回收站里恢复回来",
                f"{person}还要用一个被删掉的文件，名字在短信里，去回收站把它恢复"],
            en=[f"I deleted the file {person} mentions in their SMS: restore it from the trash",
                f"Read {person}'s text and restore the file they need from the Files trash",
                f"{person} still needs a deleted file, named in their SMS: restore it from the "
                "trash"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return changed(diff, params["file_id"], trashed_at=None)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["person"])
        if ui.find(text=self.sms(params)) is None:
            raise OracleError("the SMS is not in the thread")
        yield ui.open("文件管理")
        yield ui.tap("trash")
        yield from ui.scroll_to(f"restore_{params['file_id']}")
        yield ui.tap(f"restore_{params['file_id']}")
        yield ui.tap("confirm_restore")


class LargestPdfToSms(WritesValue):
    """Files → Messages: the name of the largest PDF in 下载, copied and texted."""

    id = "files.largest_pdf_to_sms"
    category = Category.CROSS_APP
    apps = (FILES, MESSAGES)
    difficulty = 15
    written = f"apps/{MESSAGES}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        person = choose(rng, address_book(world))
        return {"to": person["name"], "to_phone": person["phone"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        to = params["to"]
        return phrased(
            zh=[f"把下载文件夹里最大的那个PDF的文件名发短信告诉{to}",
                f"{to}想知道我下载里体积最大的PDF叫什么，短信发给他",
                f"找到下载中最大的PDF文件，把它的完整文件名用短信发给{to}"],
            en=[f"Text {to} the file name of the largest PDF in my Downloads folder",
                f"{to} wants to know what the biggest PDF in my Downloads is called: text it to "
                "them",
                f"Find the largest PDF file in Downloads and text its full name to {to}"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        pdfs = [f for f in live_before(diff, "下载") if extension(f["name"]) == "pdf"]
        top = max(pdfs, key=lambda f: f["size"])["name"]
        others = [f["name"] for f in pdfs if f["name"] != top]
        return Text((top, top.rpartition(".")[0]), others=others, what="file name")

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_folder(ui, "下载")
        yield ui.tap("sort_size")
        yield from first_of_kind(ui, "文档")
        while not any(extension(n) == "pdf" for _, n, _ in shown_files(ui)):
            yield ui.page_down()
        row_id = next(r for r, n, _ in shown_files(ui) if extension(n) == "pdf")
        yield from ui.scroll_to(f"file_{row_id}")
        yield ui.tap(f"file_{row_id}")
        yield from copy_text(ui, "name")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from paste_into(ui, "body")
        yield ui.tap("send")


class MailRenameSms(WritesValue):
    """Mail → Files → Messages: a mail asks for a file's new name and whom to tell by SMS."""

    id = "files.mail_rename_sms"
    category = Category.CROSS_APP
    apps = (MAIL, FILES, MESSAGES)
    difficulty = 23
    written = f"apps/{MESSAGES}/threads[*]/messages[*]/text"
    subject = "文件命名规范"

    def sample(self, world: World, rng: random.Random) -> Params:
        file = choose(rng, in_folder(world, "文档"))
        sender = rng.choice(SENDERS)
        person = choose(rng, address_book(world))
        return {**file_params(file), "new": new_name(rng, file["name"]), "sender": sender[0],
                "sender_address": sender[1], "to": person["name"],
                "to_phone": person["phone"]}  # fmt: skip

    def body(self, params: Params) -> str:
        return (f"林晓：\n\n按新的命名规范，请把你手机文档文件夹里的“{params['name']}”改名为"
                f"“{params['new']}”。改好后把新文件名短信发给{params['to']}，他来登记。\n\n"
                f"{params['sender']}")  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_mail(it, "rename", (params["sender"], params["sender_address"]), self.subject,
                 self.body(params), [], ago=1800)  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender = params["sender"]
        return phrased(
            zh=[f"按{sender}的邮件《文件命名规范》里的要求给文件改名，再按邮件说的发短信告诉对方",
                f"{sender}发了封《文件命名规范》的邮件，照着做：改文件名，然后短信通知邮件里提到的人",
                f"处理一下{sender}的邮件《文件命名规范》：文件管理里改名，改完把新名字短信发给指定的人"],
            en=[f"Do what {sender}'s mail '文件命名规范' asks: rename the file, then text "
                "the person it names",
                f"{sender} sent a mail '文件命名规范': follow it, rename the file and let the "
                "person it mentions know by SMS",
                f"Handle {sender}'s mail '文件命名规范': rename the file in Files, then SMS the "
                "new name to the person named"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        new = params["new"]
        others = {f["name"] for f in live_before(diff, "文档")} | {params["name"]}
        return Text((new, new.rpartition(".")[0]), others=sorted(others - {new}), what="file name")

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = changed(diff, params["file_id"], name=params["new"])
        sms = check_one_sms(diff, params["to_phone"])
        if sms:
            return problems + sms
        [(_, text)] = sent_messages(diff)
        return problems + self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", self.subject)
        if ui.find(contains=params["new"]) is None:
            raise OracleError("the mail does not show the new name")
        yield from open_file(ui, "文档", params["file_id"])
        yield from rename_to(ui, params["new"])
        yield from copy_text(ui, "name")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from paste_into(ui, "body")
        yield ui.tap("send")


class SaveAttachment(TaskTemplate):
    """Mail → Files: a mail's attachment saved into a folder (邮件附件 reads Mail's inbox)."""

    id = "files.save_attachment"
    category = Category.CROSS_APP
    apps = (MAIL, FILES)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        (name, subject, body), (other, other_subject, other_body) = choose(rng, ATTACHMENT_MAILS, 2)
        sender, decoy = choose(rng, SENDERS, 2)
        dest = rng.choice(("文档", "文档/工作", "下载", "微信/聊天文件"))
        return {"attachment": name, "subject": subject, "body": body, "sender": sender[0],
                "sender_address": sender[1], "dest": dest,
                "decoy": [decoy[0], decoy[1], other, other_subject, other_body]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        d_name, d_address, d_file, d_subject, d_body = params["decoy"]
        add_mail(it, "decoy", (d_name, d_address), d_subject, d_body, [d_file], ago=7200)
        add_mail(it, "attachment", (params["sender"], params["sender_address"]),
                 params["subject"], params["body"], [params["attachment"]], ago=1200)  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender, subject, dest = params["sender"], params["subject"], params["dest"]
        return phrased(
            zh=[f"把{sender}的邮件《{subject}》里的附件保存到文件管理的“{dest}”文件夹",
                f"{sender}发来的《{subject}》带了个附件，帮我存到“{dest}”里",
                f"邮件《{subject}》（{sender}发的）的附件，保存到手机的“{dest}”文件夹"],
            en=[f"Save the attachment of {sender}'s mail '{subject}' into the '{dest}' folder in "
                "Files",
                f"{sender}'s mail '{subject}' has an attachment: store it in '{dest}'",
                f"Save the attachment of the mail '{subject}' (from {sender}) to the '{dest}' "
                "folder on my phone"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        file, problems = one_added(diff, FILE_LIST, "file")
        wanted = (params["attachment"], params["dest"])
        if file is not None and (file["name"], file["folder"]) != wanted:
            problems.append(f"saved {file['folder']}/{file['name']}, expected "
                            f"{params['dest']}/{params['attachment']}")  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        if ui.find(contains=params["attachment"]) is None:
            raise OracleError("the mail shows no such attachment")
        yield ui.open("文件管理")
        yield ui.tap("folder_mail")
        yield from ui.scroll_to(text=params["attachment"])
        row = next(n for n in ui.device.ui_tree().walk()
                   if ":id/attachment_" in n.resource_id
                   and params["attachment"] in [c.text for c in n.walk()])  # fmt: skip
        yield ui.tap("save_" + row.resource_id.partition(":id/attachment_")[2])
        yield from pick(ui, params["dest"])


class MailFile(TaskTemplate):
    """Files → Mail through the share sheet: a document sent as a mail's attachment."""

    id = "files.mail_file"
    category = Category.CROSS_APP
    apps = (FILES, MAIL)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        file = choose(rng, in_folder(world, "文档") + in_folder(world, "下载"))
        name, address = rng.choice(PEOPLE)
        return {**file_params(file), "person": name, "to": address,
                "subject": f"文件：{file['name']}"}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, person, to, subject = (
            params["name"],
            params["person"],
            params["to"],
            params["subject"],
        )
        folder = params["folder"]
        return phrased(
            zh=[f"把“{folder}”里的文件“{name}”用邮件发给{person}（{to}），主题写“{subject}”",
                f"给{person}（{to}）发封邮件，附上文件管理“{folder}”文件夹里的“{name}”，主题"
                f"“{subject}”",
                f"从文件管理分享“{name}”（在“{folder}”里）到邮件，发到 {to}（{person}），主题填"
                f"“{subject}”"],
            en=[f"Mail the file '{name}' from the '{folder}' folder to {person} ({to}) with the "
                f"subject '{subject}'",
                f"Send {person} ({to}) a mail with '{name}' from the '{folder}' folder in Files "
                f"attached, subject '{subject}'",
                f"Share '{name}' (in '{folder}') from Files to Mail and send it to {to} "
                f"({person}), subject '{subject}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mail, problems = one_added(diff, MAIL_LIST, "mail")
        if mail is None:
            return problems
        problems = check_sent_mail(mail, to=params["to"], subject=params["subject"])
        if mail["attachments"] != [params["name"]]:
            problems.append(f"attachments are {mail['attachments']}, not {params['name']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_file(ui, params["folder"], params["file_id"])
        yield from ui.scroll_to("share")
        yield ui.tap("share")
        yield ui.tap(SHARE_TO.format("mail"))
        yield from ui.allow_permission()
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("subject", params["subject"])
        yield ui.tap("send")


class PathToNote(WritesValue):
    """Files → Notes: a file found by search, its path copied into a new note."""

    id = "files.path_to_note"
    category = Category.CROSS_APP
    apps = (FILES, NOTES)
    difficulty = 15
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        names = [f["name"] for f in seeded(world)]
        unique = [f for f in seeded(world) if names.count(f["name"]) == 1 and "/" in f["folder"]]
        return {**file_params(choose(rng, unique)), "title": rng.choice(NOTE_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, title = params["name"], params["title"]
        return phrased(
            zh=[f"在文件管理里搜一下“{name}”，把它的完整路径记到新备忘录“{title}”里",
                f"新建备忘录“{title}”，内容写上文件“{name}”在手机里的路径",
                f"我忘了“{name}”放在哪了，找到后把路径存进一条叫“{title}”的备忘录"],
            en=[f"Search Files for '{name}' and put its full path in a new note called '{title}'",
                f"Create a note '{title}' holding the path of the file '{name}' on my phone",
                f"I forgot where '{name}' is: find it and save its path in a note named '{title}'"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        folder, name = params["folder"], params["name"]
        others = sorted(
            {f"/内部存储/{f['folder']}" for f in files_before(diff)} - {f"/内部存储/{folder}"}
        )
        return Text((f"/内部存储/{folder}/{name}", f"{folder}/{name}", f"内部存储/{folder}/{name}"),
                    others=others, what="path")  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("文件管理")
        yield ui.tap("search")
        yield from ui.type_into("q", params["name"].rpartition(".")[0])
        yield from ui.scroll_to(f"file_{params['file_id']}")
        yield ui.tap(f"file_{params['file_id']}")
        yield from copy_text(ui, "path")
        yield from paste_into_new_note(ui, params["title"])
