"""Passing something on to a WeChat friend: a product seen in Shop, a contact's phone number, a
photo from the Gallery (through the system share sheet)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.contacts.app import CONTACTS
from phonebuddy.phoneworld.apps.gallery.base import GALLERY_PACKAGE
from phonebuddy.phoneworld.apps.gallery.steps import open_photo, photo_params
from phonebuddy.phoneworld.apps.gallery.steps import seeded_photos as gallery_photos
from phonebuddy.phoneworld.apps.messenger.steps import MESSAGES, MESSENGER, open_private_chat
from phonebuddy.phoneworld.apps.shop.content import default_options, sku_price
from phonebuddy.phoneworld.apps.shop.steps import SHOP, open_result, open_shop, search_for
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, phone_number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    any_friend,
    contains_text,
    copy_text,
    friend_with_chat,
    paste_into,
    sent_to_friend,
    share_sheet_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction, Type


class ProductToChat(WritesValue):
    """Shop → WeChat. Shop's share button does nothing yet, so the product travels the way
    people pass on Taobao items anyway: copy the name, paste it into the chat, add the price."""

    id = "cross_app.product_to_chat"
    category = Category.CROSS_APP
    apps = (SHOP, MESSENGER)
    difficulty = 20
    written = f"{MESSAGES}[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        product = rng.choice(list(world.content(SHOP)["products"]))
        return {
            "product_id": product["id"],
            "name": product["name"],
            "price_cents": sku_price(product, default_options(product)),
            **any_friend(world, rng),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, friend = params["name"], params["friend"]
        return phrased(
            zh=[f"我在购物App上看中了“{name}”，想让{friend}帮我参谋一下。"
                "用微信把这件商品的完整名称和页面上的价格发过去",
                f"用微信把购物App里“{name}”的完整商品名和页面上显示的价格发给{friend}，"
                "让对方帮我参谋参谋",
                f"想听听{friend}的意见：把购物App上“{name}”这件商品的完整名称和页面价格，"
                "通过微信发给对方"],
            en=[f"I like '{name}' in Shop and want {friend}'s opinion: send them the product's "
                "full name and the price its page shows on WeChat",
                f"On WeChat, send {friend} the full name of '{name}' from Shop and the price shown "
                "on its page, so they can tell me what they think",
                f"Ask {friend} on WeChat what they think of '{name}' in Shop: send them the "
                "product's full name and the price on its page"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        texts, problems = sent_to_friend(diff, params)
        if not texts:
            return problems
        said = "\n".join(texts)
        if not contains_text(said, params["name"]):
            problems.append(f"the chat {said!r} does not name {params['name']!r}")
        # Numbers in the product's name ("iPhone 15") are the instruction's, not prices.
        return problems + self.writing_problems(diff, params, said, what="the chat")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["price_cents"] / 100)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield from search_for(ui, params["name"])
        yield from open_result(ui, params["product_id"])
        price = ui.text_of("price")
        yield from copy_text(ui, "product_name")
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from paste_into(ui, "input")
        yield Type(text=f" 到手价{price}，你觉得怎么样？")
        yield ui.tap("send")


class ContactNumberToChat(WritesValue):
    """Contacts → WeChat: the number is copied from the contact card and pasted in the chat."""

    id = "cross_app.contact_number_to_chat"
    category = Category.CROSS_APP
    apps = (CONTACTS, MESSENGER)
    difficulty = 18
    written = f"{MESSAGES}[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        contact = rng.choice(list(world.content(CONTACTS)["roster"]))
        return {
            "contact_id": contact["id"],
            "contact": contact["name"],
            "phone": contact["phone"],
            **any_friend(world, rng),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        friend, contact = params["friend"], params["contact"]
        return phrased(
            zh=[f"{friend}找我要{contact}的电话，把联系人里{contact}的手机号用微信发过去",
                f"在联系人里查到{contact}的手机号，用微信发给{friend}，对方刚才找我要",
                f"帮我把{contact}的手机号码从联系人里找出来，用微信发给{friend}"],
            en=[f"{friend} asked for {contact}'s number: send them the mobile number of "
                f"{contact} from Contacts on WeChat",
                f"Look up {contact}'s mobile number in Contacts and send it to {friend} on WeChat",
                f"On WeChat, send {friend} the mobile number saved for {contact} in Contacts; "
                "they asked me for it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        texts, problems = sent_to_friend(diff, params)
        if not texts:
            return problems
        return problems + self.writing_problems(diff, params, "\n".join(texts), what="the chat")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return phone_number(params["phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("联系人")
        yield from ui.type_into("search", params["contact"])
        yield ui.tap(f"contact_{params['contact_id']}")
        yield from copy_text(ui, "phone_number")
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from ui.type_into("input", f"{params['contact']}的手机号：")
        yield from paste_into(ui, "input")
        yield ui.tap("send")


class PhotoToChat(TaskTemplate):
    """Gallery → the system share sheet → WeChat's chat picker. WeChat keeps a shared photo as
    a message holding its caption (it has no pictures), which is what the verifier reads."""

    id = "cross_app.photo_to_chat"
    category = Category.CROSS_APP
    apps = (GALLERY_PACKAGE, MESSENGER)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        photo = rng.choice(gallery_photos(world))
        return {**photo_params(photo), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        caption, friend = params["caption"], params["friend"]
        return phrased(
            zh=[f"把相册里那张“{caption}”的照片通过微信发给{friend}",
                f"用微信把相册中“{caption}”这张照片发给{friend}",
                f"{friend}想要那张“{caption}”的照片，从相册分享到微信发给对方"],
            en=[f"Send the photo '{caption}' from the Gallery to {friend} on WeChat",
                f"Share the '{caption}' photo in the Gallery with {friend} on WeChat",
                f"{friend} wants the photo '{caption}': send it from the Gallery over WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        texts, problems = sent_to_friend(diff, params)
        # A note typed in the share dialog arrives as a message of its own.
        if texts and texts.count(params["caption"]) != 1:
            problems.append(f"sent {texts}, not the photo {params['caption']!r} once")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("share")
        yield from share_sheet_to_friend(ui, params["friend_id"])


TEMPLATES: tuple[TaskTemplate, ...] = (ProductToChat(), ContactNumberToChat(), PhotoToChat())
