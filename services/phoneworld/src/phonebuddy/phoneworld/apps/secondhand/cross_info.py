"""Cross-app templates of 闲置 that carry information: a listing published from a Notes draft,
a seller's phone texted on, a pick-up address copied into Notes, a listing shared to WeChat."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.messages.tasks import (
    address_book,
    check_one_sms,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER
from phonebuddy.phoneworld.apps.secondhand.base import SECONDHAND
from phonebuddy.phoneworld.apps.secondhand.common import (
    LISTINGS,
    MESSAGES,
    NOTES,
    CrossTemplate,
    listing_params,
    listings,
    on_sale,
    open_listing,
    seller,
    whole_yuan,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import normalize
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    contains_text,
    copy_text,
    friend_with_chat,
    paste_into_new_note,
    sent_to_friend,
    share_sheet_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction

DRAFT_NOTE = "闲置草稿"
PICKUP_NOTE = "自提地址"


class DraftFromNote(CrossTemplate):
    """Notes → 闲置: a draft note with title, price, category and description, published."""

    id = "secondhand.draft_from_note"
    apps = (NOTES, SECONDHAND)
    difficulty = 14
    DRAFTS = (
        ("九成新电烤箱", "家电", 150, "用过半年，内胆干净，包邮。"),
        ("蓝色折叠伞", "服饰", 25, "只用过两次，无破损，包邮。"),
        ("小学数学练习册", "图书", 20, "全新未写，包邮。"),
        ("宜家落地镜", "家具", 80, "镜面无划痕，包邮。"),
    )

    def sample(self, world: World, rng: random.Random) -> Params:
        title, category, price, desc = rng.choice(self.DRAFTS)
        price = price + rng.randrange(0, 6) * 5
        return {"title": title, "category": category, "price": price * 100, "desc": desc}

    def setup(self, it: Interaction, params: Params) -> None:
        body = (f"标题：{params['title']}\n价格：{whole_yuan(params['price'])}元\n"
                f"分类：{params['category']}\n描述：{params['desc']}")  # fmt: skip
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-task-draft", "title": DRAFT_NOTE, "body": body, "pinned": False}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = DRAFT_NOTE
        return phrased(
            zh=[f"按备忘录“{n}”里写的标题、价格、分类和描述，在闲置上发布这件宝贝（包邮）",
                f"我在备忘录“{n}”里写好了要卖的东西，帮我照着发布到闲置，包邮",
                f"把备忘录“{n}”中的闲置发布出去：标题、价格、分类、描述都照抄，包邮"],
            en=[f"Publish on Secondhand the item drafted in the note '{n}' (title, price, "
                "category, description), with free shipping",
                f"I drafted an item to sell in the note '{n}': list it on Secondhand as written, "
                "free shipping",
                f"List the item from the note '{n}' on Secondhand, copying its title, price, "
                "category and description, with free shipping"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(LISTINGS)
        if len(added) != 1:
            return [f"expected one new listing, found {len(added)}"]
        got = added[0]
        problems = [f"the listing's {key} is {got[key]!r}, expected {params[key]!r}"
                    for key in ("title", "category", "price")
                    if got[key] != params[key]]  # fmt: skip
        if got["shipping"]:
            problems.append("the listing does not ship free")
        if not contains_text(got["desc"], params["desc"]):
            problems.append(f"the description {got['desc']!r} is not the draft's")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=DRAFT_NOTE)
        yield ui.tap(text=DRAFT_NOTE)
        body = " ".join(n.text for n in ui.device.ui_tree().walk() if "价格：" in n.text)
        fields = dict(re.findall(r"(标题|价格|分类|描述)：([^\n]+)", body))
        yield ui.open("闲置")
        yield ui.tap("sell_open")
        yield from ui.type_into("sell_title", fields["标题"].strip())
        yield from ui.type_into("sell_desc", fields["描述"].strip())
        yield from ui.type_into("sell_price", fields["价格"].strip().removesuffix("元"))
        yield from ui.scroll_to(f"pick_{fields['分类'].strip()}")
        yield ui.tap(f"pick_{fields['分类'].strip()}")
        yield from ui.scroll_to("publish")
        yield ui.tap("publish")


def _chats_with_contacts(world: World) -> list[Params]:
    """The seeded chats whose seller gave a phone number and an address."""
    out = []
    for thread in world.content(SECONDHAND)["threads"]:
        if len(thread["messages"]) < 4:
            continue
        s = seller(world, thread["seller"])
        listing = next(x for x in listings(world) if x["id"] == thread["listing"])
        out.append({"thread": thread["id"], "nick": s["nick"], "title": listing["title"],
                    "phone": s["phone"], "address": s["address"]})  # fmt: skip
    return out


class SellerPhoneBySms(CrossTemplate):
    """闲置 → Messages: the phone number a seller left in the chat, texted to a contact."""

    id = "secondhand.seller_phone_sms"
    apps = (SECONDHAND, MESSAGES)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        person = pick(rng, address_book(world))
        return {**pick(rng, _chats_with_contacts(world)), "to": person["name"],
                "to_phone": person["phone"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, to = params["nick"], params["to"]
        return phrased(
            zh=[f"闲置卖家“{s}”在聊天里留了电话，把这个号码发短信告诉{to}",
                f"帮我把闲置上“{s}”给我的电话号码用短信转给{to}",
                f"{to}要联系闲置卖家“{s}”，把卖家留的手机号短信发给{to}"],
            en=[f"The Secondhand seller '{s}' left a phone number in our chat: text it to {to}",
                f"Forward by SMS to {to} the phone number '{s}' gave me on Secondhand",
                f"{to} needs to reach the Secondhand seller '{s}': send {to} the seller's number "
                "by SMS"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        if params["phone"] not in normalize(text).replace("-", ""):
            return [f"the SMS {text!r} lacks the number {params['phone']}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("闲置")
        yield ui.tap("tab_messages")
        yield from ui.scroll_to(f"thread_{params['thread']}")
        yield ui.tap(f"thread_{params['thread']}")
        said = " ".join(n.text for n in ui.device.ui_tree().walk() if "电话" in n.text)
        phone = re.findall(r"1\d{10}", said)[0]
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("body", f"卖家电话：{phone}")
        yield ui.tap("send")


class PickupToNote(CrossTemplate):
    """闲置 → Notes (clipboard): the seller's message with the pick-up address, copied into a
    new note."""

    id = "secondhand.pickup_to_note"
    apps = (SECONDHAND, NOTES)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return dict(pick(rng, _chats_with_contacts(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, n = params["nick"], PICKUP_NOTE
        return phrased(
            zh=[f"把闲置卖家“{s}”在聊天里发的自提地址复制到新备忘录“{n}”",
                f"新建一条备忘录“{n}”，内容是闲置上“{s}”告诉我的自提地址",
                f"闲置里“{s}”给了自提地址，帮我存到标题为“{n}”的新备忘录里"],
            en=[f"Copy the pick-up address the Secondhand seller '{s}' sent in our chat into a "
                f"new note '{n}'",
                f"Create a note '{n}' holding the pick-up address '{s}' gave me on Secondhand",
                f"'{s}' sent me a pick-up address on Secondhand: save it in a new note titled "
                f"'{n}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, PICKUP_NOTE)
        if note is not None and not contains_text(note["body"], params["address"]):
            problems.append(f"the note {note['body']!r} lacks {params['address']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("闲置")
        yield ui.tap("tab_messages")
        yield from ui.scroll_to(f"thread_{params['thread']}")
        yield ui.tap(f"thread_{params['thread']}")
        yield from copy_text(ui, "msg_3")
        yield from paste_into_new_note(ui, PICKUP_NOTE)


class ShareToFriend(CrossTemplate):
    """闲置 → WeChat: a listing shared to a friend through the share sheet."""

    id = "secondhand.share_wechat"
    apps = (SECONDHAND, MESSENGER)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**listing_params(pick(rng, on_sale(world))), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, f = params["title"], params["friend"]
        return phrased(
            zh=[f"把闲置上的“{t}”分享给微信好友{f}", f"用闲置的分享按钮把“{t}”发给微信里的{f}",
                f"{f}在找二手货，把闲置的“{t}”通过微信分享给他"],
            en=[f"Share the Secondhand listing '{t}' with my WeChat friend {f}",
                f"Use Secondhand's share button to send '{t}' to {f} on WeChat",
                f"{f} is looking for second-hand things: share '{t}' from Secondhand to them on "
                "WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        texts, problems = sent_to_friend(diff, params)
        if texts and not any(contains_text(t, params["title"]) for t in texts):
            problems.append(f"sent {texts}, not the listing {params['title']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_listing(ui, params["title"], params["listing_id"])
        yield ui.tap("share")
        yield from share_sheet_to_friend(ui, params["friend_id"])


INFO_TEMPLATES: tuple[TaskTemplate, ...] = (
    DraftFromNote(),
    SellerPhoneBySms(),
    PickupToNote(),
    ShareToFriend(),
)
