"""Task templates of the Messages app, including the cross-app ones that end in an SMS or start
from one (a contact's number sent by SMS, a 12306 code copied into Notes)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.contacts.app import CONTACTS, MESSAGES
from phonebuddy.phoneworld.apps.messages.app import CAINIAO, RAILWAY, TAOBAO, find_code
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, dashed_code, digit_code, phone_number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

NOTES = "com.pw.notes"
NOTES_LIST = f"apps/{NOTES}/notes"
THREADS = f"apps/{MESSAGES}/threads"

GREETINGS = (
    "晚上七点老地方见",
    "明天上午的会议取消了",
    "我已经到公司楼下了",
    "周末一起去看电影吧",
    "资料已经发到你邮箱了",
    "路上有点堵，晚到十分钟",
)
REPLIES = (
    ("今晚几点到家？", "大概八点"),
    ("周六的聚会你去吗？", "去，算我一个"),
    ("方案看完了吗？", "看完了，明天给你反馈"),
    ("明天一起吃午饭？", "好的，十二点见"),
    ("钥匙放哪儿了？", "在门口鞋柜上"),
)
CARRIER_QUERIES = (
    ("10086", "CXLL", "查询剩余流量", "check the remaining data"),
    ("10086", "CXYE", "查询话费余额", "check the balance"),
    ("10010", "CXLL", "查询剩余流量", "check the remaining data"),
    ("10000", "102", "查询话费余额", "check the balance"),
)
COURIERS = {"中通": "ZTO", "韵达": "Yunda", "申通": "STO", "极兔": "J&T", "京东": "JD"}


# -- shared by the communication templates ------------------------------------------------------


def address_book(world: World) -> tuple[Any, ...]:
    return tuple(world.content(CONTACTS)["roster"])


def two_people(world: World, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    first, second = pick(rng, address_book(world), 2)
    return dict(first), dict(second)


def sent_messages(diff: StateDiff) -> list[tuple[str, str]]:
    """Every SMS sent in the episode as (number, text), in new threads or existing ones
    (claimed)."""
    sent = [(t["address"], m["text"]) for t in diff.added(THREADS) for m in t["messages"]]
    for thread in diff.before["apps"][MESSAGES]["threads"]:
        for message in diff.added(f"{THREADS}[{thread['id']}]/messages"):
            sent.append((thread["address"], message["text"]))
    return sent


def check_one_sms(diff: StateDiff, number: str, text: str | None = None) -> list[str]:
    """Exactly one SMS was sent, to `number`, with `text` (when given)."""
    sent = sent_messages(diff)
    if len(sent) != 1:
        return [f"expected one SMS to {number}, found {len(sent)}: {sent}"]
    address, body = sent[0]
    problems = []
    if address != number:
        problems.append(f"the SMS went to {address}, expected {number}")
    if text is not None and body.strip() != text:
        problems.append(f"the SMS says {body!r}, expected {text!r}")
    return problems


def add_incoming(
    it: Interaction, sender: tuple[str, str], text: str, *, ago: int, key: str
) -> None:
    """Setup: an incoming SMS `ago` seconds before now, in the sender's thread (made if
    missing), left unread."""
    data = it.app_data(MESSAGES)
    address, name = sender
    thread = next((t for t in data["threads"] if t["address"] == address), None)
    if thread is None:
        thread = {"id": f"th-task-{key}", "address": address, "sender": name, "messages": []}
        data["threads"].append(thread)
    thread["messages"].append(
        {"id": f"task-{key}", "incoming": True, "text": text, "time": it.clock - ago}
    )
    data["unread"][thread["id"]] = data["unread"].get(thread["id"], 0) + 1


def open_thread(ui: OracleUI, title: str) -> Iterator[Action]:
    yield ui.open("信息")
    yield from ui.scroll_to(text=title)
    yield ui.tap(text=title)


def write_in_conversation(ui: OracleUI, text: str) -> Iterator[Action]:
    """After a "message" button: reply in the thread it opened, or fill in compose."""
    field = "reply" if ui.visible("reply") else "body"
    yield from ui.type_into(field, text)
    yield ui.tap("send")


def message_texts(ui: OracleUI) -> list[str]:
    """The messages shown in the open thread, oldest first."""
    return [n.text for n in ui.device.ui_tree().walk() if ":id/msg_" in n.resource_id]


def _distinct_codes(rng: random.Random, k: int) -> list[str]:
    return [str(n) for n in rng.sample(range(100000, 1000000), k)]


# -- templates ----------------------------------------------------------------------------------


class MessagesTemplate(TaskTemplate):
    """A template of the Messages app alone."""

    category = Category.SINGLE_APP
    apps = (MESSAGES,)


class SendSms(MessagesTemplate):
    id = "messages.send"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, address_book(world))
        return {"name": person["name"], "phone": person["phone"], "text": rng.choice(GREETINGS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, text = params["name"], params["text"]
        return phrased(
            zh=[f"给{name}发短信：“{text}”", f"帮我发条短信给{name}，内容是“{text}”",
                f"短信告诉{name}：“{text}”"],
            en=[f"Text {name}: '{text}'", f"Please send {name} an SMS saying '{text}'",
                f"Send a text message to {name} that reads '{text}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_one_sms(diff, params["phone"], params["text"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["name"])
        yield from ui.type_into("body", params["text"])
        yield ui.tap("send")


class SendToNumber(MessagesTemplate):
    id = "messages.send_to_number"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        number, code, purpose_zh, purpose_en = rng.choice(CARRIER_QUERIES)
        return {"number": number, "text": code, "purpose_zh": purpose_zh, "purpose_en": purpose_en}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        text, number = params["text"], params["number"]
        purpose_zh, purpose_en = params["purpose_zh"], params["purpose_en"]
        return phrased(
            zh=[f"发短信“{text}”到 {number}，{purpose_zh}",
                f"我想{purpose_zh}，给 {number} 发条短信“{text}”",
                f"帮我编辑短信“{text}”发送到 {number}，用来{purpose_zh}"],
            en=[f"Send the SMS '{text}' to {number} to {purpose_en}",
                f"I want to {purpose_en}: text '{text}' to {number}",
                f"Please send a message with '{text}' to {number} so I can {purpose_en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_one_sms(diff, params["number"], params["text"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["number"])
        yield from ui.type_into("body", params["text"])
        yield ui.tap("send")


class Reply(MessagesTemplate):
    id = "messages.reply"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, address_book(world))
        question, reply = rng.choice(REPLIES)
        return {
            "name": person["name"],
            "phone": person["phone"],
            "question": question,
            "reply": reply,
        }

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], ""), params["question"], ago=300, key="question")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, question, reply = params["name"], params["question"], params["reply"]
        return phrased(
            zh=[f"{name}刚发来短信问“{question}”，回复：“{reply}”",
                f"帮我回{name}的短信“{question}”，就说“{reply}”",
                f"回复{name}的短信：“{reply}”，对方刚问的是“{question}”"],
            en=[f"{name} just texted '{question}'. Reply '{reply}'",
                f"Please answer the text '{question}' from {name} with '{reply}'",
                f"Reply '{reply}' to {name}, who just asked by SMS: '{question}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_one_sms(diff, params["phone"], params["reply"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["name"])
        yield from ui.type_into("reply", params["reply"])
        yield ui.tap("send")


class DeleteThread(MessagesTemplate):
    id = "messages.delete_thread"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, address_book(world))
        return {"name": person["name"], "phone": person["phone"], "text": rng.choice(GREETINGS)}

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], ""), params["text"], ago=2 * 3600, key="chat")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"删除和{name}的短信会话", f"帮我把跟{name}的短信聊天记录整个删掉",
                f"在信息里删掉{name}的对话"],
            en=[f"Delete the SMS conversation with {name}",
                f"Please remove my whole text thread with {name}",
                f"In Messages, delete the conversation with {name}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [t["address"] for t in diff.removed(THREADS)]
        if removed != [params["phone"]]:
            return [f"deleted the threads with {removed}, expected only {params['phone']}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["name"])
        yield ui.tap("delete")
        yield ui.tap("confirm_delete")


class TaobaoCode(MessagesTemplate):
    id = "messages.taobao_code"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        code, older = _distinct_codes(rng, 2)
        return {"code": code, "older": older}

    def setup(self, it: Interaction, params: Params) -> None:
        for key, code, ago in (("older", params["older"], 50 * 60), ("code", params["code"], 120)):
            text = f"【淘宝】验证码{code}，用于手机号登录，5分钟内有效，请勿泄露给他人！"
            add_incoming(it, TAOBAO, text, ago=ago, key=key)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["淘宝最新发来的短信验证码是多少？", "帮我看一下淘宝刚发的验证码",
                "我在登录淘宝，最新那条短信里的验证码是什么？"],
            en=["What is the latest verification code Taobao sent by SMS?",
                "Check the newest Taobao verification code in my texts",
                "I'm logging in to Taobao: what's the code in its latest SMS?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return digit_code(params["code"])

    def wrong_answer(self, params: Params) -> str:
        return params["older"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, TAOBAO[1])
        codes = [code for code in map(find_code, message_texts(ui)) if code]
        yield Answer(text=codes[-1] if codes else "")


class PickupCode(MessagesTemplate):
    id = "messages.pickup_code"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        courier, other = rng.sample(sorted(COURIERS), 2)
        code, other_code = (
            f"{rng.randrange(1, 9)}-{rng.randrange(1, 6)}-{n}"
            for n in rng.sample(range(1000, 10000), 2)
        )
        return {"courier": courier, "code": code, "other": other, "other_code": other_code}

    def setup(self, it: Interaction, params: Params) -> None:
        for key, courier, code, ago in (
            ("other", params["other"], params["other_code"], 3 * 3600),
            ("parcel", params["courier"], params["code"], 40 * 60),
        ):
            text = (
                f"【菜鸟驿站】您的{courier}包裹已到小区东门菜鸟驿站，取件码{code}，"
                "请于今日19:00前领取。"
            )
            add_incoming(it, CAINIAO, text, ago=ago, key=key)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        courier, courier_en = params["courier"], COURIERS[params["courier"]]
        return phrased(
            zh=[f"我的{courier}快递到驿站了，取件码是多少？", f"查一下{courier}快递的取件码",
                f"我要去驿站拿{courier}的包裹，取件码是什么？"],
            en=[f"My {courier_en} parcel is at the pickup station. What is its pickup code?",
                f"Look up the pickup code for my {courier_en} parcel",
                f"I'm going to collect my {courier_en} package from the pickup station: "
                "what's the code?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return dashed_code(params["code"])

    def wrong_answer(self, params: Params) -> str:
        return params["other_code"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, CAINIAO[1])
        notices = [t for t in message_texts(ui) if f"您的{params['courier']}包裹" in t]
        match = re.search(r"取件码([\d-]+)", notices[-1]) if notices else None
        yield Answer(text=match.group(1) if match else "")


class ShareContactNumber(WritesValue):
    id = "messages.share_contact_number"
    category = Category.CROSS_APP
    apps = (CONTACTS, MESSAGES)
    difficulty = 12
    written = f"{THREADS}[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        shared, recipient = two_people(world, rng)
        return {
            "shared": shared["name"],
            "shared_phone": shared["phone"],
            "to": recipient["name"],
            "to_phone": recipient["phone"],
            "to_id": recipient["id"],
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shared, to = params["shared"], params["to"]
        return phrased(
            zh=[f"把{shared}的手机号码用短信发给{to}", f"{to}要{shared}的电话，帮我短信发过去",
                f"查一下{shared}的手机号，发短信告诉{to}"],
            en=[f"Send {shared}'s phone number to {to} by SMS",
                f"{to} needs {shared}'s number: please text it to them",
                f"Look up {shared}'s phone number and send it to {to} in a text message"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        return self.writing_problems(diff, params, sent_messages(diff)[0][1], what="the SMS")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return phone_number(params["shared_phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("联系人")
        yield from ui.scroll_to(text=params["shared"])
        yield ui.tap(text=params["shared"])
        number = ui.find("phone_number")
        if number is None:
            raise OracleError(f"no phone number on {params['shared']}'s card")
        yield ui.back()
        yield from ui.type_into("search", params["to"])
        yield ui.tap(f"contact_{params['to_id']}")
        yield ui.tap("message")
        yield from write_in_conversation(ui, f"{params['shared']}的电话：{number.text}")


class CodeToNote(TaskTemplate):
    id = "messages.code_to_note"
    category = Category.CROSS_APP
    apps = (MESSAGES, NOTES)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"code": _distinct_codes(rng, 1)[0], "title": "12306验证码"}

    def setup(self, it: Interaction, params: Params) -> None:
        text = f"【12306】您的验证码是：{params['code']}，5分钟内有效，请勿泄露给他人。"
        add_incoming(it, RAILWAY, text, ago=60, key="code")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"把12306刚发来的验证码记到备忘录：新建标题为“{title}”的备忘录，内容只写验证码",
                f"新建一条备忘录，标题“{title}”，正文只填12306刚发的短信验证码",
                f"12306刚来了条验证码短信，帮我存进备忘录，标题写“{title}”，内容只要验证码"],
            en=[f"Write down the code 12306 just sent: a new note titled '{title}' whose text is "
                "only the code",
                f"Create a note titled '{title}' containing nothing but the verification code "
                "12306 just texted",
                f"12306 just sent me a verification code; save it in a new note called '{title}', "
                "with only the code as its text"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        if note["body"].strip() != params["code"]:
            problems.append(f"the note says {note['body']!r}, expected {params['code']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, RAILWAY[1])
        copy_buttons = [n for n in ui.device.ui_tree().walk() if ":id/copy_" in n.resource_id]
        if not copy_buttons:
            raise OracleError("no verification code in the 12306 thread")
        yield ui.tap(copy_buttons[-1].resource_id)
        yield ui.open("备忘录")
        yield ui.tap("new_note")
        yield from ui.type_into("title", params["title"])
        yield ui.tap("body")
        yield ui.long_press("body")
        yield ui.tap("com.android.systemui:id/menu_paste")
        yield ui.tap("save")


TEMPLATES: tuple[TaskTemplate, ...] = (
    SendSms(),
    SendToNumber(),
    Reply(),
    DeleteThread(),
    TaobaoCode(),
    PickupCode(),
    ShareContactNumber(),
    CodeToNote(),
)
