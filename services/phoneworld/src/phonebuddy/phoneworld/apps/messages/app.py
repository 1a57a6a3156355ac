"""The Messages app (信息): SMS threads with unread badges, a thread view with reply and a
"copy code" button on verification-code messages, compose (recipient by name or number),
delete behind a confirmation, and shares that open compose with the text filled in.

Unread counts live apart from the threads (`unread`, thread id -> count) and are ignorable:
reading a thread is never a task's side effect.
"""

from __future__ import annotations

import random
import re
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.apps.contacts.app import (
    CONTACTS,
    MESSAGES,
    avatar_colour,
    day_start,
    digits,
    find_by_name,
    find_by_number,
    format_phone,
    format_time,
    matches_query,
    roster,
)
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Column,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    TextField,
    Widget,
)

HISTORY_END = day_start(EPOCH_START)
CODE = re.compile(r"验证码(?:是|为)?[：:\s]*(\d{4,8})")
OUTGOING_BUBBLE = (0, 122, 255)
TIME_GAP = 30 * 60
# A thread opens on its latest messages, like a real SMS app; older ones load on request.
RECENT_MESSAGES = 6

# Service senders: (address, name shown instead of the number).
RAILWAY = ("12306", "12306")
TAOBAO = ("1069071126", "淘宝")
BANK = ("95555", "招商银行")
CAINIAO = ("10690000988", "菜鸟驿站")
CARRIER = ("10086", "中国移动")
SF_EXPRESS = ("95338", "顺丰速运")
ALIPAY = ("1069055795", "支付宝")

CHATS = (
    ((True, "周末有空吗？一起去爬香山"), (False, "好啊，周六早上？"), (True, "八点西门见")),
    ((True, "记得多穿点衣服，这两天降温"), (False, "知道啦，你们也注意身体")),
    ((False, "文件我发你邮箱了，看一下"), (True, "收到，谢谢！")),
    ((True, "帮我代收一下快递哈，谢啦"), (False, "没问题，放门卫了")),
    ((True, "明天的会改到下午两点了"), (False, "好的，收到")),
    ((True, "上次借你的书什么时候方便还？"), (False, "这周末给你送过去")),
    ((False, "晚上聚餐定在海底捞，七点"), (True, "好嘞，准时到")),
    ((True, "车到楼下了，黑色大众"),),
    ((True, "房租这个月25号前转我就行"), (False, "好的房东")),
    ((False, "到家了吗？"), (True, "刚到，放心")),
    ((True, "孩子的家长会周四下午三点"), (False, "好，我请个假")),
    ((True, "方案我改完了，你有空看看"), (False, "晚点回复你"), (True, "好的不急")),
)
PERSON_THREADS = 8


def find_code(text: str) -> str | None:
    match = CODE.search(text)
    return match.group(1) if match else None


def _code(rng: random.Random) -> str:
    return f"{rng.randrange(10**5, 10**6)}"


def _service_messages(rng: random.Random) -> dict[tuple[str, str], list[str]]:
    yuan = rng.randrange(20, 900) + rng.randrange(100) / 100
    return {
        RAILWAY: [
            f"【铁路客服】订单E{rng.randrange(10**9):09d}，您已购{rng.randrange(1, 28)}日"
            f"G{rng.randrange(10, 999)}次{rng.randrange(1, 16)}车{rng.randrange(1, 18)}F号，"
            "请携带身份证检票乘车。",
            f"【12306】您的验证码是：{_code(rng)}，5分钟内有效，请勿泄露给他人。",
        ],
        TAOBAO: [
            f"【淘宝】验证码{_code(rng)}，用于手机号登录，5分钟内有效，请勿泄露给他人！",
            "【淘宝】您购买的商品已发货，点击 tb.cn/x7Kd2 查看物流。",
        ],
        BANK: [
            f"【招商银行】您账户{rng.randrange(1000, 9999)}于{rng.randrange(1, 13):02d}月"
            f"{rng.randrange(1, 28):02d}日消费人民币{yuan:.2f}元，如非本人操作请致电95555。",
        ],
        CAINIAO: [
            f"【菜鸟驿站】您的圆通包裹已到小区东门菜鸟驿站，取件码{rng.randrange(1, 9)}-"
            f"{rng.randrange(1, 6)}-{rng.randrange(1000, 9999)}，请及时领取。",
            "【菜鸟驿站】您的包裹已被取出，感谢使用菜鸟驿站。",
        ],
        CARRIER: [
            f"【中国移动】尊敬的客户，您本月套餐内通用流量已使用{rng.randrange(60, 95)}%，"
            "回复CXLL可查询剩余流量。",
        ],
        SF_EXPRESS: [
            "【顺丰速运】您的快件正在派送中，快递员电话95338，请保持电话畅通。",
        ],
        ALIPAY: [
            f"【支付宝】校验码{_code(rng)}，您正在进行身份验证，切勿告知他人。",
        ],
    }


def _seeded_threads(rng: random.Random) -> tuple[list[dict[str, Any]], dict[str, int]]:
    threads: list[dict[str, Any]] = []
    unread: dict[str, int] = {}

    def add(address: str, sender: str, lines: list[tuple[bool, str]]) -> None:
        thread_id = f"th-{len(threads) + 1:02d}"
        # The latest message arrived between 08:00 and 22:00 on one of the last days.
        last = HISTORY_END - rng.randrange(1, 7) * 86400 + rng.randrange(8 * 3600, 22 * 3600)
        messages = [
            {
                "id": f"{thread_id}-m{i + 1}",
                "incoming": incoming,
                "text": text,
                "time": last - (len(lines) - 1 - i) * rng.randrange(60, 5400),
            }
            for i, (incoming, text) in enumerate(lines)
        ]
        threads.append(
            {"id": thread_id, "address": address, "sender": sender, "messages": messages}
        )
        if lines[-1][0] and rng.random() < 0.4:
            unread[thread_id] = 1

    for person, chat in zip(
        rng.sample(roster(), k=PERSON_THREADS), rng.sample(CHATS, k=PERSON_THREADS), strict=True
    ):
        add(person["phone"], "", list(chat))
    for (address, sender), texts in _service_messages(rng).items():
        add(address, sender, [(True, text) for text in texts])
    return threads, unread


class Messages(App):
    package = MESSAGES
    label = Label(zh="信息", en="Messages")
    domain = "communication"
    theme = AppTheme(primary=(0, 145, 234))
    icon_text = "信"
    accepts_shares = True
    ignorable = ("unread",)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        threads, unread = _seeded_threads(rng)
        return {"threads": threads, "unread": unread}

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def _find(it: Interaction, thread_id: str) -> dict[str, Any]:
        thread = next((t for t in it.data["threads"] if t["id"] == thread_id), None)
        if thread is None:
            it.no_op(f"no thread {thread_id}")
        return thread  # type: ignore[return-value]  # no_op raised otherwise

    @staticmethod
    def resolve_recipient(it: Interaction, recipient: str) -> str:
        """A contact's name or a number, as typed, to the number the message goes to."""
        contact = find_by_name(it.app_data(CONTACTS)["contacts"], recipient)
        if contact is not None:
            return str(contact["phone"])
        number = digits(recipient)
        if len(number) < 3 or any(ch not in "0123456789 +-" for ch in recipient.strip()):
            it.toast("找不到该联系人")
            it.no_op(f"no contact or number {recipient!r}")
        return number

    @staticmethod
    def deliver(it: Interaction, address: str, text: str) -> str:
        """Send `text` to `address`: into its thread, or a new one. Returns the thread id."""
        text = text.strip()
        if not text:
            it.no_op("the message is empty")
        message = {"id": it.new_id("sms"), "incoming": False, "text": text, "time": it.clock}
        thread = next((t for t in it.data["threads"] if t["address"] == address), None)
        if thread is None:
            thread = {"id": it.new_id("thread"), "address": address, "sender": "", "messages": []}
            it.data["threads"].append(thread)
        thread["messages"].append(message)
        return str(thread["id"])

    def send_compose(self, it: Interaction) -> None:
        if not it.field("body").strip():
            it.no_op("the message is empty")
        address = self.resolve_recipient(it, it.field("to"))
        thread_id = self.deliver(it, address, it.field("body"))
        it.replace("thread", thread_id=thread_id)
        it.toast("已发送")

    def send_reply(self, it: Interaction, thread_id: str) -> None:
        thread = self._find(it, thread_id)
        self.deliver(it, thread["address"], it.field("reply"))
        it.set_field("reply", "")

    @classmethod
    def open_thread(cls, it: Interaction, thread_id: str) -> None:
        cls._find(it, thread_id)
        it.data["unread"].pop(thread_id, None)
        it.push("thread", thread_id=thread_id)

    @classmethod
    def open_conversation_from_elsewhere(cls, it: Interaction, number: str) -> None:
        """Another app's "message" button: the thread with `number`, or compose to it."""
        it.open_app(MESSAGES)
        here = it.for_app(MESSAGES)
        thread = next((t for t in here.data["threads"] if t["address"] == digits(number)), None)
        if thread is not None:
            cls.open_thread(here, thread["id"])
            return
        contact = find_by_number(here.app_data(CONTACTS)["contacts"], number)
        recipient = contact["name"] if contact is not None else format_phone(digits(number))
        here.push("compose", fields={"to": recipient, "body": ""})

    def delete_thread(self, it: Interaction, thread_id: str) -> None:
        self._find(it, thread_id)
        it.data["threads"] = [t for t in it.data["threads"] if t["id"] != thread_id]
        it.data["unread"].pop(thread_id, None)
        it.reset_to("home")
        it.toast("已删除会话")

    @staticmethod
    def pick_recipient(it: Interaction, name: str) -> None:
        it.set_field("to", name)
        it.focus("body")

    @staticmethod
    def copy_code(it: Interaction, code: str) -> None:
        it.copy(code)
        it.toast(f"已复制验证码 {code}")

    def call(self, it: Interaction, number: str) -> None:
        from phonebuddy.phoneworld.apps.phone.app import Phone  # Phone imports Messages lazily

        Phone.call_from_elsewhere(it, number)

    def receive_share(self, it: Interaction, payload: dict[str, Any]) -> None:
        it.push("compose", fields={"to": "", "body": str(payload.get("text", ""))})

    # -- what the screens show ------------------------------------------------------------------
    @staticmethod
    def title_of(v: View, thread: dict[str, Any]) -> str:
        contact = find_by_number(v.app_data(CONTACTS)["contacts"], thread["address"])
        if contact is not None:
            return str(contact["name"])
        return str(thread["sender"]) or format_phone(thread["address"])

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        query = v.field("search").strip()
        threads = sorted(
            (t for t in v.data["threads"] if t["messages"]),
            key=lambda t: (t["messages"][-1]["time"], t["id"]),
            reverse=True,
        )
        rows: list[Widget] = []
        for thread in threads:
            title = self.title_of(v, thread)
            last = thread["messages"][-1]
            if query and not any(
                query in text for text in (title, thread["address"], last["text"])
            ):
                continue
            rows.append(
                ListItem(
                    title,
                    subtitle=last["text"],
                    trailing=format_time(last["time"], v.os["clock"], always_time=False),
                    leading=title,
                    leading_color=avatar_colour(title),
                    badge=int(v.data["unread"].get(thread["id"], 0)),
                    on_tap=v.do(self.open_thread, thread["id"]),
                    id=f"thread_{thread['id']}",
                )
            )
        if not rows:
            rows.append(
                Text(
                    "没有信息" if not query else f"没有找到“{query}”",
                    color=theme.TEXT_SECONDARY,
                    padding=40,
                    align="center",
                )
            )
        unread = sum(v.data["unread"].values())
        return Page(
            f"信息（{unread}条未读）" if unread else "信息",
            rows,
            header=Column(
                [TextField("search", v.field("search"), "搜索信息", on_focus=v.focus("search"))],
                padding=24,
                fill=theme.SURFACE,
            ),
            actions=[
                IconButton(
                    "plus",
                    "新建信息",
                    v.go("compose", fields={"to": "", "body": ""}),
                    id="compose",
                )
            ],
        )

    @screen("thread")
    def thread(self, v: View) -> Page:
        thread = next((t for t in v.data["threads"] if t["id"] == v.params["thread_id"]), None)
        if thread is None:
            return Page("信息", [Text("该会话已被删除", padding=40)], on_back=v.back())
        messages = thread["messages"]
        body: list[Widget] = []
        if len(messages) > RECENT_MESSAGES and not v.ui("show_all"):
            messages = messages[-RECENT_MESSAGES:]
            body.append(
                Button(
                    "查看更早的信息",
                    v.set_ui("show_all", True),
                    id="show_earlier",
                    style="text",
                    height=100,
                    size=36,
                )
            )
        previous = None
        for message in messages:
            if previous is None or message["time"] - previous > TIME_GAP:
                body.append(
                    Text(
                        format_time(message["time"], v.os["clock"]),
                        size=32,
                        color=theme.TEXT_SECONDARY,
                        align="center",
                    )
                )
            previous = message["time"]
            body.append(self._bubble(v, message))
        dialog = None
        if v.ui("dialog") == "delete":
            dialog = v.confirm(
                "删除此会话？",
                v.do(self.delete_thread, thread["id"]),
                message="会话中的全部信息将被删除。",
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
            )
        reply = Column(
            [
                Row(
                    [
                        TextField(
                            "reply",
                            v.field("reply"),
                            "短信",
                            on_focus=v.focus("reply"),
                            on_submit=v.do(self.send_reply, thread["id"]),
                        ),
                        IconButton(
                            "send",
                            "发送",
                            v.do(self.send_reply, thread["id"]),
                            id="send",
                            color=self.theme.primary,
                        ),
                    ],
                    spacing=12,
                )
            ],
            padding=20,
            fill=theme.SURFACE,
        )
        return Page(
            self.title_of(v, thread),
            body,
            bottom=reply,
            on_back=v.back(),
            actions=[
                IconButton("☎", "呼叫", v.do(self.call, thread["address"]), id="call"),
                IconButton("delete", "删除会话", v.set_ui("dialog", "delete"), id="delete"),
            ],
            body_padding=30,
            spacing=20,
            overlay=dialog,
        )

    def _bubble(self, v: View, message: dict[str, Any]) -> Row:
        incoming = message["incoming"]
        code = find_code(message["text"]) if incoming else None
        card = Card(
            [
                Text(
                    message["text"],
                    size=42,
                    color=theme.TEXT if incoming else theme.WHITE,
                    id=f"msg_{message['id']}",
                ),
                Button(
                    f"复制验证码 {code}",
                    v.do(self.copy_code, code),
                    id=f"copy_{message['id']}",
                    style="secondary",
                    height=100,
                    size=36,
                )
                if code
                else None,
            ],
            fill=theme.SURFACE if incoming else OUTGOING_BUBBLE,
            padding=30,
        )
        return (
            Row([card, Spacer(0)], weights=(4, 1))
            if incoming
            else Row([Spacer(0), card], weights=(1, 4))
        )

    @screen("compose")
    def compose(self, v: View) -> Page:
        recipient = v.field("to")
        contacts = v.app_data(CONTACTS)["contacts"]
        suggestions: list[Widget] = []
        if recipient.strip() and find_by_name(contacts, recipient) is None:
            suggestions = [
                ListItem(
                    c["name"],
                    subtitle=format_phone(c["phone"]),
                    leading=c["name"],
                    leading_color=avatar_colour(c["name"]),
                    on_tap=v.do(self.pick_recipient, c["name"]),
                    id=f"suggest_{c['id']}",
                )
                for c in contacts
                if matches_query(c, recipient)
            ][:5]
        return Page(
            "新信息",
            [
                TextField("to", recipient, "收件人：姓名或号码", on_focus=v.focus("to")),
                *suggestions,
                TextField(
                    "body", v.field("body"), "短信内容", multiline=True, on_focus=v.focus("body")
                ),
                Button("发送", v.do(self.send_compose), id="send"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "send_sms",
        "Send an SMS to a contact (by name) or a phone number.",
        {"to": str, "text": str},
    )
    def send_sms_tool(self, it: Interaction, to: str, text: str) -> str:
        address = self.resolve_recipient(it, to)
        thread_id = self.deliver(it, address, text)
        return f"sent to {format_phone(address)} ({thread_id})"
