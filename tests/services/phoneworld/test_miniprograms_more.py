"""The 健康挂号, 生活缴费 and 景点门票 mini-programs: their pages, every handler's effect on
the state, payments through the wallet, and what they refuse (bad input changes nothing)."""

from __future__ import annotations

import random

import pytest

from phonebuddy.phoneworld.apps.messenger.miniprograms.hospital import (
    FRIDAY,
    make_id_number,
    upcoming_days,
    valid_id_number,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.tickets import order_total, sold_out
from phonebuddy.phoneworld.apps.messenger.miniprograms.utilities import parse_amount
from phonebuddy.phoneworld.apps.messenger.steps import PAY_CONFIRM
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.testing import MESSENGER, WALLET
from phonebuddy.phoneworld.testing import MiniProgramPhone as Phone
from phonebuddy.phoneworld.testing import enter_mini as enter

# -- 健康挂号 --------------------------------------------------------------------------------


def test_id_numbers_are_checked_by_their_last_digit() -> None:
    number = make_id_number(random.Random(3), 1990)
    assert valid_id_number(number)
    wrong = number[:17] + ("0" if number[17] != "0" else "1")
    assert not valid_id_number(wrong)
    assert not valid_id_number(number[:17])
    assert valid_id_number("11010519491231002X")


def test_the_schedule_covers_the_next_seven_days_and_every_friday_chief_is_listed(
    device: Device,
) -> None:
    days = upcoming_days(device.state["os"]["clock"])
    assert len(days) == 7
    assert sorted(d["weekday"] for d in days) == list(range(7))
    doctors = Phone(device).content("hospital")["doctors"]
    chiefs = [d for d in doctors if d["title"] == "主任医师"]
    fridays = [next(s for s in d["slots"] if s["id"][0] == str(FRIDAY)) for d in chiefs]
    assert {s["left"] == 0 for s in fridays} == {True, False}, "both branches of the condition"


def _open_doctor(phone: Phone, doctor: dict) -> None:
    phone.tap(f"dept_{doctor['dept']}", f"doctor_{doctor['id']}")


def test_booking_a_session_pays_the_fee_and_cancel_asks_first(device: Device) -> None:
    phone = enter(device, "hospital")
    doctors = phone.content("hospital")["doctors"]
    doctor, slot = next((d, s) for d in doctors for s in d["slots"] if s["left"] > 2)
    _open_doctor(phone, doctor)
    shown = phone.ui.find(f"slot_{slot['id']}")
    assert shown is not None
    assert f"余{slot['left']}个号" in [c.text for c in shown.children]
    before = phone.balance()
    patient = phone.mini("hospital")["patients"][1]
    phone.tap(f"slot_{slot['id']}", f"patient_{patient['id']}", "submit_booking")
    assert device.foreground == WALLET
    phone.tap(PAY_CONFIRM)
    appointment = phone.mini("hospital")["appointments"][0]
    assert (appointment["status"], appointment["patient"]) == ("booked", patient["id"])
    assert appointment["fee_cents"] == doctor["fee_cents"]
    assert phone.balance() == before - doctor["fee_cents"]
    assert phone.last_bill()["reference"] == f"hospital:{appointment['id']}"
    assert phone.text("appointment_status") == "预约成功"
    phone.tap("cancel_appointment", "cancel")
    assert appointment["status"] == "booked", "再想想 keeps it"
    phone.tap("cancel_appointment", "confirm_cancel")
    assert phone.mini("hospital")["appointments"][0]["status"] == "cancelled"


def test_a_full_session_is_refused(device: Device) -> None:
    phone = enter(device, "hospital")
    doctors = phone.content("hospital")["doctors"]
    doctor, slot = next((d, s) for d in doctors for s in d["slots"] if s["left"] == 0)
    _open_doctor(phone, doctor)
    assert phone.refused(f"slot_{slot['id']}")
    assert device.state["ui"]["toast"] == "该时段号源已约满，请选择其他时间"


def test_adding_a_patient_validates_the_id_number_and_phone(device: Device) -> None:
    phone = enter(device, "hospital")
    patients = list(phone.mini("hospital")["patients"])
    good = make_id_number(random.Random(7), 1988)
    phone.tap("patients", "add_patient")
    phone.type_into("p_name", "王小明")
    phone.type_into("p_id", good[:17] + ("0" if good[17] != "0" else "1"))
    phone.type_into("p_phone", "13812345678")
    assert phone.refused("save_patient")
    assert phone.text("patient_error") == "身份证号码不正确，请核对18位证件号"
    assert phone.mini("hospital")["patients"] == patients
    phone.device.top_entry(MESSENGER)["fields"]["p_id"] = good
    phone.device.version += 1
    phone.tap("relation_1", "save_patient")
    added = phone.mini("hospital")["patients"][-1]
    assert (added["name"], added["id_number"], added["relation"]) == ("王小明", good, "母亲")


def test_hospital_search_finds_doctors_by_name(device: Device) -> None:
    phone = enter(device, "hospital")
    doctor = phone.content("hospital")["doctors"][4]
    phone.type_into("query", doctor["name"])
    assert phone.ui.visible(f"doctor_{doctor['id']}")
    phone.device.top_entry(MESSENGER)["fields"]["query"] = "不存在的医生"
    phone.device.version += 1
    assert phone.ui.visible("no_result")


# -- 生活缴费 --------------------------------------------------------------------------------


def test_amounts_are_parsed_to_cents() -> None:
    assert parse_amount("100") == 10000
    assert parse_amount("100.5") == 10050
    assert parse_amount("¥0.01") == 1
    assert parse_amount("1.234") is None
    assert parse_amount("-5") is None
    assert parse_amount("abc") is None


def _electric(phone: Phone) -> dict:
    account = phone.mini("utilities")["accounts"][0]
    return next(
        h for h in phone.content("utilities")["households"] if h["id"] == account["household"]
    )


def test_paying_a_bill_clears_it_and_records_the_payment(device: Device) -> None:
    phone = enter(device, "utilities")
    household = _electric(phone)
    before = phone.balance()
    phone.tap(f"account_{household['number']}")
    assert phone.text("bill_amount") == f"¥{household['bill_cents'] / 100:.2f}"
    phone.tap("pay_bill", PAY_CONFIRM)
    payment = phone.mini("utilities")["payments"][0]
    assert (payment["amount_cents"], payment["status"], payment["mode"]) == (
        household["bill_cents"], "paid", "bill")  # fmt: skip
    assert phone.balance() == before - household["bill_cents"]
    assert phone.text("bill_amount") == "¥0.00"
    assert not phone.ui.visible("pay_bill")


@pytest.mark.parametrize(
    ("typed", "error"),
    [("0", "缴费金额需大于0"), ("5000.01", "单笔缴费不能超过¥5000.00"),
     ("12.345", "请输入正确的金额（最多两位小数）"), ("", "请输入正确的金额（最多两位小数）")],
)  # fmt: skip
def test_custom_amounts_are_validated(device: Device, typed: str, error: str) -> None:
    phone = enter(device, "utilities")
    household = _electric(phone)
    payments = list(phone.mini("utilities")["payments"])
    phone.tap(f"account_{household['number']}")
    if typed:
        phone.type_into("amount", typed)
    assert phone.refused("pay_custom")
    assert phone.text("amount_error") == error
    assert phone.mini("utilities")["payments"] == payments


def test_a_custom_amount_is_paid_exactly(device: Device) -> None:
    phone = enter(device, "utilities")
    household = _electric(phone)
    before = phone.balance()
    phone.tap(f"account_{household['number']}")
    phone.type_into("amount", "88.8")
    phone.tap("pay_custom", PAY_CONFIRM)
    payment = phone.mini("utilities")["payments"][0]
    assert (payment["amount_cents"], payment["mode"], payment["status"]) == (8880, "custom", "paid")
    assert phone.balance() == before - 8880


def test_binding_a_household_checks_length_existence_and_duplicates(device: Device) -> None:
    phone = enter(device, "utilities")
    households = phone.content("utilities")["households"]
    bound = {a["household"] for a in phone.mini("utilities")["accounts"]}
    water = next(h for h in households if h["kind"] == "water" and h["id"] not in bound)
    phone.tap("add_account", "kind_water")
    phone.type_into("number", "123")
    assert phone.refused("save_account")
    assert phone.text("account_error") == "水费户号应为8位数字"
    entry = phone.device.top_entry(MESSENGER)
    entry["fields"]["number"] = "9" * 8 if water["number"] != "9" * 8 else "8" * 8
    device.version += 1
    assert phone.refused("save_account")
    assert phone.text("account_error") == "未查询到该户号，请核对后重试"
    entry["fields"]["number"] = water["number"]
    device.version += 1
    phone.tap("save_account")
    assert phone.mini("utilities")["accounts"][-1]["household"] == water["id"]
    phone.tap("tab_water")
    assert phone.ui.visible(f"account_{water['number']}")


def test_the_history_lists_past_payments(device: Device) -> None:
    phone = enter(device, "utilities")
    phone.tap("history")
    for payment in phone.mini("utilities")["payments"]:
        phone.run(phone.ui.scroll_to(f"payment_{payment['id']}"))


# -- 景点门票 --------------------------------------------------------------------------------


def _free_day(spot: dict) -> int:
    return next(w for w in range(7) if not any(sold_out(spot, w, k) for k in ("adult", "child")))


def test_buying_tickets_pays_the_total_and_gives_a_code_then_refund(device: Device) -> None:
    phone = enter(device, "tickets")
    spot = phone.content("tickets")["attractions"][3]
    day = _free_day(spot)
    before = phone.balance()
    phone.tap(f"spot_{spot['id']}", "book_spot", f"day_{day}", "plus_adult", "plus_adult",
              "plus_child")  # fmt: skip
    total = order_total(spot, {"adult": 2, "child": 1})
    assert phone.text("book_total") == f"合计 ¥{total / 100:.2f}"
    phone.type_into("visitor", "李雷")
    phone.type_into("visitor_phone", "13900001111")
    phone.tap("submit_order", PAY_CONFIRM)
    order = phone.mini("tickets")["orders"][0]
    assert (order["status"], order["total_cents"], order["weekday"]) == ("paid", total, day)
    assert phone.balance() == before - total
    assert phone.text("order_code") == order["code"]
    phone.tap("refund", "confirm_refund")
    assert phone.mini("tickets")["orders"][0]["status"] == "refunded"


def test_sold_out_tickets_and_bad_visitor_details_are_refused(device: Device) -> None:
    phone = enter(device, "tickets")
    spot = phone.content("tickets")["attractions"][0]
    orders = list(phone.mini("tickets")["orders"])
    weekday = int(spot["sold_out"][1].split("-")[0])  # adult tickets sold out that day
    phone.tap(f"spot_{spot['id']}", "book_spot")
    assert phone.refused("submit_order")
    assert phone.text("book_error") == "请选择游玩日期"
    phone.tap(f"day_{weekday}")
    assert not phone.ui.visible("plus_adult")
    assert "已售罄" in phone.text("line_adult")
    phone.tap(f"day_{_free_day(spot)}", "plus_adult")
    phone.type_into("visitor", "李雷")
    phone.type_into("visitor_phone", "12345")
    assert phone.refused("submit_order")
    assert phone.text("book_error") == "请填写正确的11位手机号"
    assert phone.mini("tickets")["orders"] == orders


def test_the_city_filter_and_search_narrow_the_list(device: Device) -> None:
    phone = enter(device, "tickets")
    spots = phone.content("tickets")["attractions"]
    phone.tap("city_2")  # 嘉兴
    shown = [s for s in spots if phone.ui.visible(f"spot_{s['id']}")]
    assert shown
    assert all(s["city"] == "嘉兴" for s in shown)
    phone.tap("city_0")
    phone.type_into("query", "普陀")
    assert [s["name"] for s in spots if phone.ui.visible(f"spot_{s['id']}")] == ["普陀山"]


def test_a_cancelled_payment_leaves_the_booking_to_pay_later(device: Device) -> None:
    phone = enter(device, "hospital")
    doctors = phone.content("hospital")["doctors"]
    doctor, slot = next((d, s) for d in doctors for s in d["slots"] if s["left"] > 2)
    _open_doctor(phone, doctor)
    phone.tap(f"slot_{slot['id']}", "submit_booking", f"{WALLET}:id/pay_cancel")
    appointment = phone.mini("hospital")["appointments"][0]
    assert appointment["status"] == "unpaid"
    assert phone.text("appointment_status") == "待支付"
    phone.tap("pay_appointment", PAY_CONFIRM)
    appointments = phone.mini("hospital")["appointments"]
    assert [a["status"] for a in appointments[:1]] == ["booked"]
    assert len(appointments) == 3, "paying later keeps the one booking"


def test_an_unpaid_ticket_order_can_be_paid_from_its_page(device: Device) -> None:
    phone = enter(device, "tickets")
    spot = phone.content("tickets")["attractions"][5]
    phone.tap(f"spot_{spot['id']}", "book_spot", f"day_{_free_day(spot)}", "plus_adult")
    phone.type_into("visitor", "韩梅梅")
    phone.type_into("visitor_phone", "13700002222")
    phone.tap("submit_order", f"{WALLET}:id/pay_cancel")
    assert phone.text("order_status") == "待支付"
    assert not phone.ui.visible("order_code")
    phone.tap("pay_order", PAY_CONFIRM)
    order = phone.mini("tickets")["orders"][0]
    assert (order["status"], order["total_cents"]) == ("paid", spot["prices"]["adult"])
    assert phone.text("order_code") == order["code"]
