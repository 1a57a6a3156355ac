"""The Contacts app (联系人): an alphabetical list with search, favourites and groups, a contact
card whose call and message buttons hand over to Phone and Messages, an add/edit form, and
deletion behind a confirmation.

The roster built here is the address book every communication app knows about: Phone and
Messages seed their call log and threads with it, and templates read it through
`world.content("com.pw.contacts")["roster"]`. This module also holds the small helpers the
three communication apps share (phone-number formatting, looking a number up, times).
"""

from __future__ import annotations

import functools
import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    Dialog,
    Handler,
    IconButton,
    ListItem,
    Page,
    Row,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

CONTACTS = "com.pw.contacts"
PHONE = "com.pw.phone"
MESSAGES = "com.pw.messages"

GROUPS = ("家人", "同事", "朋友")
FAVOURITE_COLOUR = (255, 193, 7)

# -- the roster --------------------------------------------------------------------------------


def _pairs(spec: str) -> tuple[tuple[str, str], ...]:
    """'王:wang 李:li' -> (("王", "wang"), ("李", "li"))."""
    return tuple((item.split(":")[0], item.split(":")[1]) for item in spec.split())


def _words(spec: str) -> tuple[str, ...]:
    return tuple(spec.split())


# Characters with their pinyin: names sort and search by it.
SURNAMES = _pairs(
    "王:wang 李:li 张:zhang 刘:liu 陈:chen 杨:yang 赵:zhao 黄:huang 周:zhou "
    "吴:wu 徐:xu 孙:sun 胡:hu 朱:zhu 高:gao 林:lin 何:he 郭:guo "
    "马:ma 罗:luo 梁:liang 宋:song 郑:zheng 谢:xie 韩:han 唐:tang 冯:feng "
    "董:dong 程:cheng 曹:cao 袁:yuan 邓:deng 傅:fu 沈:shen 彭:peng 苏:su "
    "蒋:jiang 蔡:cai 丁:ding 魏:wei 叶:ye 潘:pan 杜:du 夏:xia 钟:zhong "
    "田:tian 任:ren 方:fang 石:shi 姚:yao 谭:tan 邹:zou 金:jin 陆:lu "
    "白:bai 崔:cui 秦:qin 顾:gu 孟:meng 龙:long"
)
GIVEN = _pairs(
    "伟:wei 芳:fang 娜:na 敏:min 静:jing 丽:li 强:qiang 磊:lei 军:jun "
    "洋:yang 勇:yong 艳:yan 杰:jie 涛:tao 明:ming 超:chao 霞:xia 平:ping "
    "刚:gang 英:ying 华:hua 建:jian 国:guo 辉:hui 玲:ling 婷:ting 雪:xue "
    "琳:lin 晨:chen 宇:yu 浩:hao 然:ran 子:zi 涵:han 欣:xin 怡:yi "
    "萱:xuan 博:bo 思:si 雨:yu 佳:jia 俊:jun 鹏:peng 飞:fei 晓:xiao "
    "海:hai 峰:feng 春:chun 红:hong 志:zhi 亮:liang 慧:hui 倩:qian 颖:ying "
    "凯:kai 天:tian 瑶:yao 悦:yue 诗:shi 安:an"
)
FAMILY_NAMES = ("妈妈", "爸爸", "姐姐")
PINYIN = {**dict(SURNAMES), **dict(GIVEN), "妈": "ma", "爸": "ba", "姐": "jie"}
MOBILE_PREFIXES = _words(
    "130 131 132 135 136 137 138 139 150 151 152 155 158 159 166 177 180 182 186 187 188 189 199"
)
MY_COMPANY = ("星河科技", "xinghe-tech.com")
COMPANIES = _words(
    "腾讯 阿里巴巴 字节跳动 华为 美团 京东 百度 小米 网易 招商银行 中国移动 北京协和医院 "
    "清华大学 顺丰速运 万科物业 新东方 链家地产 中信证券"
)
MAIL_DOMAINS = ("qq.com", "163.com", "126.com", "gmail.com", "outlook.com")
GROUP_SIZES = {"同事": 14, "朋友": 16}
UNGROUPED = 17
FAVOURITES = 6


def _mobile(rng: random.Random, taken: set[str]) -> str:
    while True:
        number = rng.choice(MOBILE_PREFIXES) + f"{rng.randrange(10**8):08d}"
        if number not in taken:
            taken.add(number)
            return number


def _person_name(rng: random.Random, taken: set[str]) -> str:
    while True:
        given = "".join(c for c, _ in rng.sample(GIVEN, k=rng.choice((1, 2, 2))))
        name = rng.choice(SURNAMES)[0] + given
        if name not in taken:
            taken.add(name)
            return name


def _birthday(rng: random.Random) -> str:
    return f"{rng.randrange(1960, 2004)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"


def _email(rng: random.Random, name: str, domain: str | None = None) -> str:
    handle = pinyin(name).replace(" ", "")
    if domain is None:
        return f"{handle}{rng.randrange(10, 99)}@{rng.choice(MAIL_DOMAINS)}"
    return f"{handle}@{domain}"


@functools.cache
def roster() -> tuple[dict[str, Any], ...]:
    """The address book. It is the same in every world: Phone and Messages seed their data from
    it in `initial_data`, which cannot see another app's content."""
    rng = random.Random("phoneworld/contacts/roster")
    names: set[str] = set(FAMILY_NAMES)
    numbers: set[str] = set()
    people: list[dict[str, Any]] = []

    def add(name: str, group: str, **details: str) -> None:
        people.append(
            {
                "name": name,
                "phone": _mobile(rng, numbers),
                "email": "",
                "company": "",
                "birthday": "",
                "group": group,
                "favorite": False,
                **details,
            }
        )

    for name in FAMILY_NAMES:
        add(name, "家人", birthday=_birthday(rng))
    add(_person_name(rng, names), "家人", birthday=_birthday(rng))
    company, domain = MY_COMPANY
    for _ in range(GROUP_SIZES["同事"]):
        name = _person_name(rng, names)
        add(
            name,
            "同事",
            company=company,
            email=_email(rng, name, domain),
            birthday=_birthday(rng) if rng.random() < 0.3 else "",
        )
    for group, count in (("朋友", GROUP_SIZES["朋友"]), ("", UNGROUPED)):
        for _ in range(count):
            name = _person_name(rng, names)
            add(
                name,
                group,
                company=rng.choice(COMPANIES) if rng.random() < 0.6 else "",
                email=_email(rng, name) if rng.random() < 0.4 else "",
                birthday=_birthday(rng) if rng.random() < 0.35 else "",
            )
    for i in (0, 1, *rng.sample(range(3, len(people)), k=FAVOURITES - 2)):
        people[i]["favorite"] = True
    ordered = sorted(people, key=lambda p: sort_key(p["name"]))
    return tuple({"id": f"c-{i + 1:02d}", **person} for i, person in enumerate(ordered))


# -- helpers shared by the communication apps -----------------------------------------------------


@functools.lru_cache(maxsize=4096)
def digits(text: str) -> str:
    """The digits of a typed number: '138 1234-5678' -> '13812345678'; a +86 prefix dropped.
    Cached: call lists look every row's number up in the address book at each layout."""
    only = "".join(filter(str.isdigit, text))
    if len(only) == 13 and only.startswith("86") and text.strip().startswith("+"):
        return only[2:]
    return only


def format_phone(number: str) -> str:
    """'13812345678' -> '138 1234 5678'; service numbers (10086, 95588) stay as they are."""
    if len(number) == 11 and number.startswith("1"):
        return f"{number[:3]} {number[3:7]} {number[7:]}"
    return number


def find_by_number(contacts: list[dict[str, Any]], number: str) -> dict[str, Any] | None:
    wanted = digits(number)
    return next((c for c in contacts if wanted and digits(c["phone"]) == wanted), None)


def find_by_name(contacts: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    wanted = name.strip()
    return next((c for c in contacts if wanted and c["name"] == wanted), None)


def pinyin(name: str) -> str:
    return " ".join(PINYIN.get(ch, ch) for ch in name)


def sort_key(name: str) -> tuple[int, str, str]:
    """Contacts sort by pinyin; names that do not start with a known character go last (#)."""
    spelled = pinyin(name)
    return (0 if spelled[:1].isascii() and spelled[:1].isalpha() else 1, spelled, name)


def section_letter(name: str) -> str:
    first = pinyin(name)[:1]
    return first.upper() if first.isascii() and first.isalpha() else "#"


def day_start(timestamp: int) -> int:
    """Midnight (Beijing time) of the day `timestamp` falls on."""
    return timestamp - (timestamp + 8 * 3600) % 86400


def format_time(timestamp: int, now: int, *, always_time: bool = True) -> str:
    """How Chinese phones label a time: '08:15' today, '昨天 20:11', '3月12日 14:20'."""
    moment = local_time(timestamp)
    clock = moment.strftime("%H:%M")
    today = day_start(now)
    if timestamp >= today:
        return clock
    if timestamp >= today - 86400:
        return f"昨天 {clock}" if always_time else "昨天"
    date = f"{moment.month}月{moment.day}日"
    return f"{date} {clock}" if always_time else date


def matches_query(contact: dict[str, Any], query: str) -> bool:
    """Search by name, number, full pinyin ('zhangwei') or initials ('zw')."""
    wanted = query.strip().lower().replace(" ", "")
    if not wanted:
        return True
    spelled = pinyin(contact["name"]).split()
    number = digits(wanted)
    return (
        wanted in contact["name"].lower()
        or (number == wanted and number in digits(contact["phone"]))
        or "".join(spelled).startswith(wanted)
        or "".join(s[:1] for s in spelled).startswith(wanted)
    )


def avatar_colour(name: str) -> tuple[int, int, int]:
    palette = (
        (92, 132, 240),
        (76, 175, 80),
        (255, 152, 0),
        (156, 39, 176),
        (0, 150, 136),
        (233, 30, 99),
        (63, 81, 181),
    )
    return palette[sum(map(ord, name)) % len(palette)]


# -- the app ------------------------------------------------------------------------------------

EDITABLE = ("name", "phone", "company", "email")
FIELD_HINTS = {"name": "姓名", "phone": "手机号码", "company": "公司", "email": "邮箱"}


class Contacts(App):
    package = CONTACTS
    label = Label(zh="联系人", en="Contacts")
    domain = "communication"
    theme = AppTheme(primary=(10, 89, 247))
    icon_text = "人"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return {"roster": roster()}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"contacts": clone(content["roster"])}

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def find(it: Interaction, contact_id: str) -> dict[str, Any]:
        contact = next((c for c in it.data["contacts"] if c["id"] == contact_id), None)
        if contact is None:
            it.no_op(f"no contact {contact_id}")
        return contact  # type: ignore[return-value]  # no_op raised otherwise

    @staticmethod
    def create_contact(it: Interaction, name: str, phone: str, **details: str) -> str:
        name, number = name.strip(), digits(phone)
        if not name:
            it.no_op("a contact needs a name")
        if len(number) < 3:
            it.no_op("a contact needs a phone number")
        contact_id = it.new_id("contact")
        record = {
            "id": contact_id,
            "name": name,
            "phone": number,
            "email": "",
            "company": "",
            "birthday": "",
            "group": "",
            "favorite": False,
        }
        record.update({key: value.strip() for key, value in details.items()})
        it.data["contacts"].append(record)
        return contact_id

    def save_form(self, it: Interaction) -> None:
        contact_id = it.entry["params"].get("contact_id")
        values = {key: it.field(key) for key in EDITABLE}
        group = it.ui("group", it.entry["params"].get("group", ""))
        if contact_id is None:
            name, phone = values.pop("name"), values.pop("phone")
            new_id = self.create_contact(it, name, phone, group=group, **values)
            it.replace("contact", contact_id=new_id)
        else:
            contact = self.find(it, contact_id)
            if not values["name"].strip() or len(digits(values["phone"])) < 3:
                it.no_op("a contact needs a name and a phone number")
            contact.update({key: value.strip() for key, value in values.items()})
            contact["phone"] = digits(values["phone"])
            contact["group"] = group
            it.pop()
        it.toast("已保存")

    def toggle_favourite(self, it: Interaction, contact_id: str) -> None:
        contact = self.find(it, contact_id)
        contact["favorite"] = not contact["favorite"]
        it.toast("已收藏" if contact["favorite"] else "已取消收藏")

    def delete(self, it: Interaction, contact_id: str) -> None:
        self.find(it, contact_id)
        it.data["contacts"] = [c for c in it.data["contacts"] if c["id"] != contact_id]
        it.reset_to("home")
        it.toast("已删除联系人")

    @staticmethod
    def clear_field(it: Interaction, name: str) -> None:
        if not it.field(name):
            it.no_op(f"{name} is already empty")
        it.set_field(name, "")
        it.focus(name)

    def call(self, it: Interaction, number: str) -> None:
        from phonebuddy.phoneworld.apps.phone.app import Phone  # Phone imports this module

        Phone.call_from_elsewhere(it, number)

    def message(self, it: Interaction, number: str) -> None:
        from phonebuddy.phoneworld.apps.messages.app import Messages  # it imports this module

        Messages.open_conversation_from_elsewhere(it, number)

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        query = v.field("search")
        tab = v.ui("tab", "all")
        contacts = sorted(v.data["contacts"], key=lambda c: sort_key(c["name"]))
        if query.strip():
            body = self._search_results(v, contacts, query)
        elif tab == "favorites":
            favourites = [c for c in contacts if c["favorite"]]
            body = [self._row(v, c) for c in favourites] or [
                Text("还没有收藏的联系人", color=theme.TEXT_SECONDARY, padding=40, align="center")
            ]
        elif tab == "groups":
            body = [
                ListItem(
                    group,
                    trailing=f"{sum(c['group'] == group for c in contacts)} 人",
                    leading=group,
                    leading_color=avatar_colour(group),
                    on_tap=v.go("group", group=group),
                    id=f"group_{i}",
                )
                for i, group in enumerate(GROUPS)
            ]
        else:
            body = self._alphabetical(v, contacts)
        header = Column(
            [
                Column(
                    [
                        TextField(
                            "search",
                            query,
                            "搜索联系人（姓名、拼音、号码）",
                            on_focus=v.focus("search"),
                        )
                    ],
                    padding=24,
                    fill=theme.SURFACE,
                ),
                Tabs(
                    (("all", "联系人"), ("favorites", "收藏"), ("groups", "群组")),
                    tab,
                    v.on_select("tab"),
                ),
            ]
        )
        return Page(
            "联系人",
            body,
            header=header,
            actions=[IconButton("plus", "新建联系人", self._new_contact(), id="new_contact")],
        )

    @staticmethod
    def _new_contact() -> Handler:
        return View.go("edit", contact_id=None, fields={key: "" for key in EDITABLE})

    def _row(self, v: View, contact: dict[str, Any], *, subtitle: str = "") -> ListItem:
        return ListItem(
            contact["name"],
            subtitle=subtitle,
            leading=contact["name"],
            leading_color=avatar_colour(contact["name"]),
            trailing="★" if contact["favorite"] else "",
            on_tap=v.go("contact", contact_id=contact["id"]),
            id=f"contact_{contact['id']}",
        )

    def _alphabetical(self, v: View, contacts: list[dict[str, Any]]) -> list[Widget]:
        rows: list[Widget] = [
            Text(
                f"共 {len(contacts)} 位联系人",
                size=36,
                color=theme.TEXT_SECONDARY,
                padding=24,
                id="contact_count",
            )
        ]
        letter = None
        for contact in contacts:
            if section_letter(contact["name"]) != letter:
                letter = section_letter(contact["name"])
                rows.append(
                    Text(
                        letter,
                        size=36,
                        bold=True,
                        color=self.theme.primary,
                        padding=16,
                        id=f"section_{letter}",
                    )
                )
            rows.append(self._row(v, contact))
        return rows

    def _search_results(self, v: View, contacts: list[dict[str, Any]], query: str) -> list[Widget]:
        found = [c for c in contacts if matches_query(c, query)]
        if not found:
            return [
                Text(
                    f"没有找到“{query.strip()}”",
                    color=theme.TEXT_SECONDARY,
                    padding=40,
                    align="center",
                    id="no_results",
                )
            ]
        return [self._row(v, c, subtitle=format_phone(c["phone"])) for c in found]

    @screen("group")
    def group(self, v: View) -> Page:
        members = sorted(
            (c for c in v.data["contacts"] if c["group"] == v.params["group"]),
            key=lambda c: sort_key(c["name"]),
        )
        body: list[Widget] = [self._row(v, c, subtitle=format_phone(c["phone"])) for c in members]
        return Page(
            f"{v.params['group']}（{len(members)}）",
            body or [Text("该群组没有成员", color=theme.TEXT_SECONDARY, padding=40)],
            on_back=v.back(),
        )

    @screen("contact")
    def contact(self, v: View) -> Page:
        contact = next((c for c in v.data["contacts"] if c["id"] == v.params["contact_id"]), None)
        if contact is None:
            return Page("联系人", [Text("该联系人已被删除", padding=40)], on_back=v.back())
        subtitle = " · ".join(x for x in (contact["company"], contact["group"]) if x)
        header = Card(
            [
                Text(contact["name"], size=72, bold=True, align="center", id="contact_name"),
                Text(
                    subtitle,
                    size=38,
                    color=theme.TEXT_SECONDARY,
                    align="center",
                    id="contact_subtitle",
                )
                if subtitle
                else None,
                Row(
                    [
                        Button("呼叫", v.do(self.call, contact["phone"]), id="call"),
                        Button(
                            "信息",
                            v.do(self.message, contact["phone"]),
                            id="message",
                            style="secondary",
                        ),
                    ]
                ),
            ],
            spacing=24,
            padding=48,
        )
        details = [
            self._detail("手机", format_phone(contact["phone"]), "phone_number"),
            self._detail("公司", contact["company"], "company"),
            self._detail("邮箱", contact["email"], "email"),
            self._detail("生日", contact["birthday"], "birthday"),
            self._detail("群组", contact["group"], "group"),
        ]
        return Page(
            "联系人详情",
            [header, Card([d for d in details if d is not None], spacing=30, padding=48)],
            on_back=v.back(),
            actions=[
                IconButton(
                    "star",
                    "取消收藏" if contact["favorite"] else "收藏",
                    v.do(self.toggle_favourite, contact["id"]),
                    id="favorite",
                    color=FAVOURITE_COLOUR if contact["favorite"] else None,
                ),
                IconButton("edit", "编辑", self._edit(contact), id="edit"),
                IconButton("delete", "删除", v.set_ui("dialog", "delete"), id="delete"),
            ],
            body_padding=30,
            spacing=30,
            overlay=self._delete_dialog(v, contact) if v.ui("dialog") == "delete" else None,
        )

    @staticmethod
    def _detail(label: str, value: str, widget_id: str) -> Column | None:
        if not value:
            return None
        return Column(
            [
                Text(label, size=34, color=theme.TEXT_SECONDARY),
                Text(value, size=46, id=widget_id),
            ],
            spacing=6,
        )

    @staticmethod
    def _edit(contact: dict[str, Any]) -> Handler:
        return View.go(
            "edit",
            contact_id=contact["id"],
            group=contact["group"],
            fields={
                key: format_phone(contact[key]) if key == "phone" else contact[key]
                for key in EDITABLE
            },
        )

    def _delete_dialog(self, v: View, contact: dict[str, Any]) -> Dialog:
        return v.confirm(
            "删除联系人？",
            v.do(self.delete, contact["id"]),
            message=f"将从通讯录中删除“{contact['name']}”，此操作无法撤销。",
            label="删除",
            confirm_id="confirm_delete",
            danger=True,
        )

    @screen("edit")
    def edit(self, v: View) -> Page:
        creating = v.params.get("contact_id") is None
        group = v.ui("group", v.params.get("group", ""))
        fields: list[Widget] = []
        for key in EDITABLE:
            value = v.field(key)
            clear = (
                IconButton(
                    "close",
                    "清除",
                    v.do(self.clear_field, key),
                    id=f"clear_{key}",
                    size=100,
                    color=theme.TEXT_SECONDARY,
                )
                if value
                else None
            )
            fields.append(
                Row(
                    [TextField(key, value, FIELD_HINTS[key], on_focus=v.focus(key)), clear],
                    spacing=12,
                )
            )
        chips = [
            Chip(key or "不分组", v.set_ui("group", key), selected=group == key, id=f"group_{i}")
            for i, key in enumerate(("", *GROUPS))
        ]
        return Page(
            "新建联系人" if creating else "编辑联系人",
            [
                *fields,
                Text("群组", size=38, color=theme.TEXT_SECONDARY),
                Wrap(chips),
                Button("保存", v.do(self.save_form), id="save"),
            ],
            on_back=v.back(),
            actions=[IconButton("check", "保存", v.do(self.save_form), id="save_top")],
            body_padding=40,
            spacing=30,
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "add_contact", "Add a contact with a name and a phone number.", {"name": str, "phone": str}
    )
    def add_contact_tool(self, it: Interaction, name: str, phone: str) -> str:
        return f"added {self.create_contact(it, name, phone)}"
