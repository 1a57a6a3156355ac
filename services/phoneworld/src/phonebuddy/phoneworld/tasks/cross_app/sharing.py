"""Passing something on to a WeChat friend: a product seen in Shop, a contact's phone number, a
photo from the Gallery (through the system share sheet)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.contacts.app import CONTACTS
from phonebuddy.phoneworld.apps.gallery.app import GALLERY_PACKAGE
from phonebuddy.phoneworld.apps.gallery.tasks import SHARE_TO, open_photo, photo_params
from phonebuddy.phoneworld.apps.gallery.tasks import seeded_photos as gallery_photos
from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.apps.messenger.steps import MESSAGES, MESSENGER, open_private_chat
from phonebuddy.phoneworld.apps.shop.content import default_options, sku_price
from phonebuddy.phoneworld.apps.shop.tasks import SHOP, open_result, open_shop, search_for
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, phone_number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    any_friend,
    contains_text,
    copy_text,
    friend_with_chat,
    paste_into,
    sent_to_friend,
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

    def instruction(self, params: Params) -> Instruction:
        return Instruction(
            zh=f"我在购物App上看中了“{params['name']}”，想让{params['friend']}帮我参谋一下。"
            "用微信把这件商品的完整名称和页面上的价格发过去",
            en=f"I like '{params['name']}' in Shop and want {params['friend']}'s opinion: send "
            "them the product's full name and the price its page shows on WeChat",
        )

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

    def instruction(self, params: Params) -> Instruction:
        return Instruction(
            zh=f"{params['friend']}找我要{params['contact']}的电话，把联系人里"
            f"{params['contact']}的手机号用微信发过去",
            en=f"{params['friend']} asked for {params['contact']}'s number: send them the mobile "
            f"number of {params['contact']} from Contacts on WeChat",
        )

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

    def instruction(self, params: Params) -> Instruction:
        return Instruction(
            zh=f"把相册里那张“{params['caption']}”的照片通过微信发给{params['friend']}",
            en=f"Send the photo '{params['caption']}' from the Gallery to {params['friend']} on "
            "WeChat",
        )

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        texts, problems = sent_to_friend(diff, params)
        # A note typed in the share dialog arrives as a message of its own.
        if texts and texts.count(params["caption"]) != 1:
            problems.append(f"sent {texts}, not the photo {params['caption']!r} once")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_photo(ui, params)
        yield ui.tap("share")
        yield ui.tap(SHARE_TO.format("messenger"))
        yield from ui.allow_permission()
        chat = f"pick_{private_chat_id(params['friend_id'])}"
        yield from ui.scroll_to(chat)
        yield ui.tap(chat)
        yield ui.tap("share_send")


TEMPLATES: tuple[TaskTemplate, ...] = (ProductToChat(), ContactNumberToChat(), PhotoToChat())
