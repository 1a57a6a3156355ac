"""Errands that take information from one app to act in another: a takeaway delivered to the
address a friend sent on WeChat, a train ticket bought for a friend who sent their details, a
ride to the place of a calendar event, and a parcel's pickup code texted to whoever fetches it."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.calendar.app import CALENDAR
from phonebuddy.phoneworld.apps.calendar.tasks import open_calendar
from phonebuddy.phoneworld.apps.clock.base import hhmm
from phonebuddy.phoneworld.apps.contacts.app import CONTACTS, MESSAGES
from phonebuddy.phoneworld.apps.food.base import (
    FOOD_PACKAGE,
    category_tab,
    is_open,
    items_cents,
    spec_of,
)
from phonebuddy.phoneworld.apps.food.tasks import (
    ADDRESS_LIST,
    EPISODE_HOURS,
    MAX_ORDER_CENTS,
    add_items,
    check_one_paid_order,
    describe_items,
    open_food,
    open_restaurant,
    tableware_words,
)
from phonebuddy.phoneworld.apps.messages.tasks import check_one_sms, sent_messages
from phonebuddy.phoneworld.apps.messenger.content import REAL_NAMES
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    facts,
    friend_by_id,
    friend_says,
    open_mini,
    open_private_chat,
)
from phonebuddy.phoneworld.apps.ride.app import RIDE_PACKAGE
from phonebuddy.phoneworld.apps.ride.content import CAR_BY_NAME, distance_km, fare_cents
from phonebuddy.phoneworld.apps.ride.tasks import (
    CAR_NAMES,
    MAX_FARE_CENTS,
    call_and_pay,
    check_paid_trip,
    open_ride,
    search_place,
)
from phonebuddy.phoneworld.apps.travel.base import PASSENGER_NAMES, TRAVEL_PACKAGE, id_number
from phonebuddy.phoneworld.apps.travel.content import SEAT_BY_KEY, seats_left
from phonebuddy.phoneworld.apps.travel.steps import (
    MAX_PRICE_CENTS,
    NEW_NAMES,
    book_and_pay,
    check_train_order,
    open_travel,
    search_route,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    ClockTime,
    Expectation,
    Together,
    dashed_code,
    train_number,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    copy_text,
    friend_params,
    mobile_number,
    paste_into,
    sent_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

WALLET = "com.pw.wallet"
PAY_CONFIRM = f"{WALLET}:id/pay_confirm"
PARCELS = "parcels"
RECIPIENT = re.compile(r"收件人写(\S+?)，电话(\d{11})")

# -- takeaway to the address a friend sent on WeChat -------------------------------------------


def _open_restaurants(world: World) -> list[Any]:
    """Restaurants open throughout every episode (devices reset at 09:00)."""
    shops = world.content(FOOD_PACKAGE)["restaurants"]
    return [r for r in shops if all(is_open(r, moment) for moment in EPISODE_HOURS)]


def _sample_meal(world: World, rng: random.Random) -> Params:
    """One or two dishes (options chosen) from an open restaurant, reaching its minimum order."""
    while True:
        restaurant = rng.choice(_open_restaurants(world))
        items = []
        for dish in rng.sample(list(restaurant["dishes"]), k=rng.randint(1, 2)):
            choices = [rng.randrange(len(group["choices"])) for group in dish["options"]]
            spec, unit = spec_of(dish, choices)
            items.append(
                {
                    "dish_id": dish["id"],
                    "name": dish["name"],
                    "tab": category_tab(restaurant, dish["category"]),
                    "choices": choices,
                    "spec": spec,
                    "unit_cents": unit,
                    "quantity": 1,
                }
            )
        while items_cents(items) < restaurant["min_order_cents"]:
            items[0]["quantity"] += 1
        if items_cents(items) <= MAX_ORDER_CENTS:
            return {
                "restaurant_id": restaurant["id"],
                "restaurant": restaurant["name"],
                "items": items,
            }


class ChatAddressFoodOrder(TaskTemplate):
    """WeChat → Food → Wallet. The friend's new address is copied from its chat bubble and
    pasted into Food's new-address form, the way people avoid retyping a long address."""

    id = "cross_app.chat_address_food_order"
    category = Category.CROSS_APP
    apps = (MESSENGER, FOOD_PACKAGE, WALLET)
    difficulty = 32

    def sample(self, world: World, rng: random.Random) -> Params:
        fact = rng.choice(facts(world, "address"))
        friend = friend_by_id(world, fact["friend"])
        remark = friend["remark"]
        return {
            **friend_params(friend),
            "address": fact["address"],
            "recipient": remark if remark in REAL_NAMES else rng.choice(REAL_NAMES),
            "phone": mobile_number(rng),
            **_sample_meal(world, rng),
            "tableware": rng.randrange(0, 3),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        lines = [
            (True, "周末终于搬完家了，累瘫了，家里还没开火"),
            (False, "辛苦啦！我给你点个外卖当暖房礼物吧，把地址发我"),
            (True, "好呀，谢谢！新地址："),
            (True, params["address"]),
            (True, f"收件人写{params['recipient']}，电话{params['phone']}"),
        ]
        friend_says(it, params["friend_id"], lines, key="chat")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        ware_zh, ware_en = tableware_words(params["tableware"])
        friend, shop = params["friend"], params["restaurant"]
        meal_zh = describe_items(params["items"])
        meal_en = describe_items(params["items"], english=True)
        return phrased(
            zh=[f"{friend}刚搬了新家，在微信上把新地址、收件人和电话发给我了。帮我在外卖"
                f"里新增这个收货地址（收货人和电话按微信里说的填），然后从“{shop}”点"
                f"{meal_zh}送到这个新地址，{ware_zh}，并用钱包付款",
                f"给刚搬家的{friend}点份外卖：先按微信里发来的新地址、收件人和电话，在外卖里新增"
                f"收货地址，再从“{shop}”点{meal_zh}送过去，{ware_zh}，用钱包支付",
                f"{friend}在微信上发来了新家的地址、收件人和电话。请在外卖里从“{shop}”点{meal_zh}，"
                f"送到这个新地址（先新增收货地址，收货人和电话按微信里的填），{ware_zh}，"
                "最后用钱包付款"],
            en=[f"{friend} just moved and sent me the new address, the recipient and a phone "
                "number on WeChat. Add that address in Food (recipient and phone as in the chat), "
                f"then order {meal_en} from '{shop}' to it, {ware_en}, and pay with the wallet",
                f"{friend} sent me their new address, with the recipient and a phone number, on "
                "WeChat. Save it as a new address in Food (recipient and phone as in the chat) "
                f"and order {meal_en} from '{shop}' there, {ware_en}, paying with the wallet",
                f"Treat {friend}, who just moved, to a takeaway: add the new address they sent "
                "on WeChat in Food, with the recipient and phone from the chat, then order "
                f"{meal_en} from '{shop}' to that address with {ware_en} and pay with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        address, problems = one_added(diff, ADDRESS_LIST, "delivery address")
        if address is not None:
            expected = {
                "name": params["recipient"],
                "phone": params["phone"],
                "text": params["address"],
            }
            problems += [
                f"the new address's {key} is {address[key]!r}, expected {value!r}"
                for key, value in expected.items()
                if address[key] != value
            ]
        return problems + check_one_paid_order(diff, params, params["address"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        said = next((RECIPIENT.search(n.text) for n in ui.find_all() if "收件人写" in n.text), None)
        if said is None:
            raise OracleError("the chat names no recipient")
        recipient, phone = said.groups()
        yield from copy_text(ui, text=params["address"], scroll="messages")
        yield from open_food(ui)
        yield from open_restaurant(ui, params)
        yield from add_items(ui, params)
        yield ui.tap("checkout")
        yield ui.tap("address_card")
        yield ui.tap("add_address")
        yield from ui.type_into("name", recipient)
        yield from ui.type_into("phone", phone)
        yield from paste_into(ui, "text")
        yield ui.tap("save_address")
        yield from ui.scroll_to(text=params["address"])
        yield ui.tap(text=params["address"])
        yield ui.tap("tableware")
        yield ui.tap(f"tableware_{params['tableware']}")
        yield ui.tap("submit_order")
        yield ui.tap(PAY_CONFIRM)


# -- a train ticket bought for a friend who asked on WeChat --------------------------------------

TICKET_LINE = re.compile(r"(?P<train>[GD]\d+)次")
PASSENGER_LINE = re.compile(
    r"乘车人：(?P<name>\S+?)，身份证号(?P<id_number>[\dX]{18})，手机号(?P<phone>\d{11})"
)


def _sample_ticket(world: World, rng: random.Random) -> Params:
    """A train with tickets of the chosen class left on a day soon, at a price the wallet
    covers."""
    routes = world.content(TRAVEL_PACKAGE)["routes"]
    while True:
        train = rng.choice(routes[rng.choice(sorted(routes))])
        seat, days = rng.choice(("second", "second", "first")), rng.randint(1, 6)
        price = train["prices"][seat]
        if price is None or price > MAX_PRICE_CENTS or not seats_left(train["number"], seat, days):
            continue
        return {
            "origin": train["from"],
            "destination": train["to"],
            "train": train["number"],
            "depart": train["depart"],
            "seat": seat,
            "days": days,
        }


class FriendTrainTicket(WritesValue):
    """WeChat → Travel → Wallet → WeChat: book the ticket a friend asked for with the details
    they sent, then tell them what was booked."""

    id = "cross_app.friend_train_ticket"
    category = Category.CROSS_APP
    apps = (MESSENGER, TRAVEL_PACKAGE, WALLET)
    difficulty = 40
    written = f"apps/{MESSENGER}/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        friend = rng.choice(list(world.content(MESSENGER)["friends"]))
        remark = friend["remark"]
        # Saved passengers have PASSENGER_NAMES; the friend must be someone new.
        named = remark in REAL_NAMES and remark not in PASSENGER_NAMES
        passenger = {
            "name": remark if named else rng.choice(NEW_NAMES),
            "id_number": id_number(rng),
            "phone": mobile_number(rng),
        }
        return {
            **friend_params(friend),
            **_sample_ticket(world, rng),
            "passenger": passenger,
            "new_passenger": True,
        }

    def setup(self, it: Interaction, params: Params) -> None:
        day = local_date(it.clock) + dt.timedelta(days=params["days"])
        who = params["passenger"]
        lines = [
            (True, "在吗？帮我买张火车票呗，我手机上一直抢不到"),
            (False, "行，哪天哪趟车？"),
            (
                True,
                f"{day.month}月{day.day}日{params['origin']}到{params['destination']}的"
                f"{params['train']}次，{SEAT_BY_KEY[params['seat']].name}",
            ),
            (True, f"乘车人：{who['name']}，身份证号{who['id_number']}，手机号{who['phone']}"),
        ]
        friend_says(it, params["friend_id"], lines, key="chat")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        friend = params["friend"]
        return phrased(
            zh=[f"{friend}在微信上请我帮忙买火车票，日期、车次、座位和乘车人信息都发给我了。"
                f"在旅行App上把这张票买好（先把乘车人添加为常用乘车人），用钱包付款，再用微信告诉"
                f"{friend}买好的车次和发车时间",
                f"帮{friend}买张火车票：日期、车次、座位和乘车人信息都在微信聊天里。先在旅行App里"
                f"把乘车人添加为常用乘车人，再下单并用钱包付款，最后在微信上把车次和发车时间告诉"
                f"{friend}",
                f"{friend}托我买火车票，微信上发了日期、车次、座位和乘车人信息。请在旅行App上"
                f"买好票（乘车人先添加为常用乘车人），用钱包支付，然后微信回复{friend}车次和"
                "发车时间"],
            en=[f"{friend} asked me on WeChat to buy a train ticket and sent the date, train, "
                "seat class and passenger details. Buy that ticket in Travel (add the passenger "
                f"as a saved passenger first), pay with the wallet, then tell {friend} on WeChat "
                "the train number and departure time",
                f"Buy the train ticket {friend} asked for on WeChat, with the date, train, seat "
                "class and passenger details from the chat: in Travel, first add the passenger "
                "as a saved passenger, then book and pay with the wallet. Finally, tell "
                f"{friend} on WeChat the train number and departure time",
                f"{friend} needs a train ticket and sent me the date, train, seat class and "
                "passenger details on WeChat. Please book it in Travel (add the passenger to the "
                f"saved passengers first), pay with the wallet, and reply to {friend} on WeChat "
                "with the train number and departure time"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_train_order(diff, params)
        texts, told = sent_to_friend(diff, params)
        if texts:
            told += self.writing_problems(diff, params, "\n".join(texts), what="the reply")
        return problems + told

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        hour, minute = (int(part) for part in params["depart"].split(":"))
        return Together(train_number(params["train"]), ClockTime(hour, minute))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        shown = [node.text for node in ui.find_all() if node.text]
        ticket = next((m for m in map(TICKET_LINE.search, shown) if m), None)
        person = next((m for m in map(PASSENGER_LINE.search, shown) if m), None)
        if ticket is None or person is None:
            raise OracleError("the chat does not say which train or who travels")
        booking = {**params, "train": ticket["train"], "passenger": person.groupdict()}
        yield from open_travel(ui)
        yield from search_route(ui, booking, params["days"])
        yield from ui.scroll_to(f"train_{booking['train']}")
        depart = ui.text_of(f"depart_{booking['train']}")
        yield from book_and_pay(ui, booking)
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from ui.type_into("input", f"票买好了：{booking['train']}次，{depart}发车")
        yield ui.tap("send")


# -- a ride to the place of a calendar event ----------------------------------------------------

EVENT_TITLES = ("拜访客户", "朋友聚会", "面试", "见房东", "和老同学喝咖啡", "部门聚餐", "取证件")


class EventPlaceRide(TaskTemplate):
    """Calendar → Ride → Wallet: the destination is only written in today's event."""

    id = "cross_app.calendar_place_ride"
    category = Category.CROSS_APP
    apps = (CALENDAR, RIDE_PACKAGE, WALLET)
    difficulty = 17
    EVENT_ID = "evt-task"

    def sample(self, world: World, rng: random.Random) -> Params:
        ride = world.content(RIDE_PACKAGE)
        car_type = rng.choice(tuple(CAR_BY_NAME))
        while True:
            place = rng.choice([p for p in ride["places"] if p["id"] != ride["here"]["id"]])
            fare = fare_cents(CAR_BY_NAME[car_type], distance_km(ride["here"], place))
            if fare <= MAX_FARE_CENTS:
                break
        start = rng.randrange(26, 36) * 30  # 13:00 to 17:30
        return {
            "place_id": place["id"],
            "place": place["name"],
            "car_type": car_type,
            "fare_cents": fare,
            "title": rng.choice(EVENT_TITLES),
            "start": hhmm(start // 60, start % 60),
            "end": hhmm(start // 60 + 1, start % 60),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(CALENDAR)["events"].append(
            {
                "id": self.EVENT_ID,
                "title": params["title"],
                "date": local_date(it.clock).isoformat(),
                "start": params["start"],
                "end": params["end"],
                "location": params["place"],
                "reminder": 30,
                "notes": "",
            }
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, car_zh, car_en = params["title"], params["car_type"], CAR_NAMES[params["car_type"]]
        return phrased(
            zh=[f"我今天下午在日历里有个“{title}”的日程。用打车叫一辆{car_zh}"
                "去这个日程的地点，行程结束后用钱包付款",
                f"今天下午要去“{title}”，地点写在日历的日程里。帮我用打车叫辆{car_zh}过去，"
                "行程结束后用钱包支付",
                f"查一下日历里今天下午“{title}”这个日程在哪儿，然后用打车叫一辆{car_zh}去那里，"
                "行程结束用钱包付款"],
            en=[f"My calendar has a '{title}' event this afternoon. In Ride, call {car_en} to "
                "the event's place and pay with the wallet when the trip ends",
                f"Call {car_en} in Ride to where my '{title}' event this afternoon takes place "
                "(it's in my calendar), and pay with the wallet after the trip",
                f"Look up the place of this afternoon's '{title}' event in my calendar, then "
                f"take {car_en} there with Ride and pay with the wallet when the trip ends"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_paid_trip(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_calendar(ui)
        yield from ui.scroll_to(f"event_{self.EVENT_ID}")
        yield ui.tap(f"event_{self.EVENT_ID}")
        location = ui.find("event_location")
        place = location.children[-1].text if location is not None and location.children else ""
        if not place:
            raise OracleError("the event shows no place")
        yield from open_ride(ui)
        yield from search_place(ui, "where_to", place, params["place_id"])
        yield from call_and_pay(ui, params["car_type"])


# -- a parcel's pickup code, texted ------------------------------------------------------------


def _parcel_content(world: World) -> Any:
    return world.content(MESSENGER)["mini"][PARCELS]


def _waiting_parcels(world: World) -> list[Any]:
    """Parcels at the pickup station whose item no other followed parcel has, so that "the
    parcel with the headphones" names one parcel."""
    parcels = _parcel_content(world)["parcels"]
    followed = parcels[:4]  # what every phone follows after a reset
    return [
        p
        for p in parcels
        if p["pickup_code"] and all(o["item"] != p["item"] for o in followed if o is not p)
    ]


class ParcelCodeBySms(WritesValue):
    """WeChat mini-program → Messages: the code is read in 裹裹快递 and texted to a contact."""

    id = "cross_app.parcel_code_sms"
    category = Category.CROSS_APP
    apps = (MESSENGER, CONTACTS, MESSAGES)
    difficulty = 15
    TRACK_ID = "tr-task"
    written = f"apps/{MESSAGES}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel = rng.choice(_waiting_parcels(world))
        people = [c for c in world.content(CONTACTS)["roster"] if c["group"] in ("家人", "朋友")]
        contact = rng.choice(people)
        return {
            "number": parcel["id"],
            "item": parcel["item"],
            "code": parcel["pickup_code"],
            "contact": contact["name"],
            "phone": contact["phone"],
        }

    def setup(self, it: Interaction, params: Params) -> None:
        tracked = it.app_data(MESSENGER)["mini"][PARCELS]["tracked"]
        if not any(t["number"] == params["number"] for t in tracked):
            tracked.insert(
                0, {"id": self.TRACK_ID, "number": params["number"], "remark": params["item"]}
            )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        item, contact = params["item"], params["contact"]
        return phrased(
            zh=[f"我在微信「裹裹快递」小程序里关注的那个{item}包裹到驿站了，我今天没空去"
                f"取。把它的取件码用短信发给{contact}，请对方帮忙代取",
                f"今天没空取快递：微信「裹裹快递」小程序里我关注的{item}包裹已经到驿站了，"
                f"帮我把取件码发短信给{contact}，让对方帮我取一下",
                f"帮我发条短信给{contact}，请对方代取快递：取件码在微信「裹裹快递」小程序里，"
                f"就是我关注的那个{item}包裹，已经到驿站了，我今天没空"],
            en=[f"The parcel with the {item} that I follow in the 裹裹快递 mini-program in WeChat "
                f"is at the pickup station and I have no time today. Text its pickup code to "
                f"{contact} so they can collect it",
                f"I can't pick up my parcel today: the one with the {item}, followed in the "
                f"裹裹快递 mini-program in WeChat, is at the pickup station. Send {contact} its "
                "pickup code by SMS and ask them to collect it",
                f"Ask {contact} by text message to collect my parcel with the {item}: it's at "
                "the pickup station, and its pickup code is in the 裹裹快递 mini-program in "
                "WeChat, where I follow it. I have no time today"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        return self.writing_problems(diff, params, sent_messages(diff)[0][1], what="the SMS")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return dashed_code(params["code"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, PARCELS)
        yield from ui.scroll_to(f"parcel_{params['number']}")
        yield ui.tap(f"parcel_{params['number']}")
        code = ui.text_of("pickup_code")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["contact"])
        yield from ui.type_into(
            "body", f"帮我取个快递，{params['item']}，取件码{code}，在菜鸟驿站（文三路店），谢谢！"
        )
        yield ui.tap("send")


TEMPLATES: tuple[TaskTemplate, ...] = (
    ChatAddressFoodOrder(),
    FriendTrainTicket(),
    EventPlaceRide(),
    ParcelCodeBySms(),
)
