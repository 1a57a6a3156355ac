"""生活缴费: electricity, water and gas bills. The utilities' households (number, address,
current bill) are seeded content; the phone has some of them bound. Pay a bill in full or a
custom amount through the wallet, see the payment history, bind another household number."""

from __future__ import annotations

import random
import re
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import (
    MiniPage,
    MiniProgram,
    MiniView,
    find,
    page,
)
from phonebuddy.phoneworld.apps.messenger.timeline import DAY, episode_start
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time, yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    ListItem,
    Tabs,
    Text,
    TextField,
    Wrap,
)

BRAND = (255, 140, 0)
# kind: (name, company, digits of a household number, bill range in cents)
KINDS = {
    "electric": ("电费", "国网杭州供电公司", 10, (6000, 38000)),
    "water": ("水费", "杭州水务集团", 8, (1800, 9800)),
    "gas": ("燃气费", "杭州天然气有限公司", 9, (2500, 19800)),
}
ADDRESSES = (
    "西湖区文三路88号3幢",
    "拱墅区莫干山路102号",
    "滨江区江南大道588号",
    "上城区清泰街2号",
    "余杭区五常大道166号",
    "西湖区古墩路702号",
    "拱墅区湖墅南路59号",
    "滨江区长河路475号",
    "上城区望江东路332号",
    "萧山区市心北路8号",
    "西湖区天目山路398号",
    "余杭区文一西路969号",
)
LABELS = ("我家", "父母家", "出租屋")
MAX_CUSTOM_CENTS = 500000
AMOUNT = re.compile(r"^\d+(\.\d{1,2})?$")


def parse_amount(text: str) -> int | None:
    """'100.5' -> 10050 cents; None for anything that is not a plain amount (two decimals)."""
    text = text.strip().removeprefix("¥").strip()
    if not AMOUNT.match(text):
        return None
    whole, _, cents = text.partition(".")
    return int(whole) * 100 + int((cents + "00")[:2])


def kind_name(kind: str) -> str:
    return KINDS[kind][0]


class Utilities(MiniProgram):
    name = "utilities"
    title = "生活缴费"
    description = "水电燃气，一键缴费"
    keywords = ("生活缴费", "缴费", "电费", "水费", "燃气费", "utilities")
    glyph = "缴"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        households = []
        addresses = rng.sample(ADDRESSES, len(ADDRESSES))
        numbers: set[str] = set()
        for kind, (_, _, digits, (low, high)) in KINDS.items():
            for i in range(4):
                number = ""
                while not number or number in numbers:
                    number = str(rng.randrange(1, 10)) + "".join(
                        rng.choice("0123456789") for _ in range(digits - 1)
                    )
                numbers.add(number)
                households.append(
                    {
                        "id": number,
                        "kind": kind,
                        "number": number,
                        "address": addresses[i],
                        "holder": "*" + rng.choice("明华丽强芳军"),
                        "bill_cents": rng.randrange(low, high),
                        "due_in": rng.randrange(5, 20),
                    }
                )
        return {"households": households, "seed": self._seed(households, rng)}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "accounts": [dict(a) for a in content["seed"]["accounts"]],
            "payments": [dict(p) for p in content["seed"]["payments"]],
        }

    def _seed(self, households: Any, rng: random.Random) -> dict[str, Any]:
        """The bound households and past payments of a fresh phone."""
        bound = [next(h for h in households if h["kind"] == k) for k in KINDS]
        second = [h for h in households if h["kind"] == "electric"][1]
        accounts = [
            {"id": f"ac-{i + 1}", "household": h["id"], "kind": h["kind"], "label": LABELS[0]}
            for i, h in enumerate(bound)
        ]
        accounts.append(
            {"id": "ac-4", "household": second["id"], "kind": "electric", "label": LABELS[1]}
        )
        payments = []
        for i in range(6):
            account = accounts[i % len(accounts)]
            low, high = KINDS[account["kind"]][3]
            payments.append(
                {
                    "id": f"up-{i + 1}",
                    "household": account["household"],
                    "kind": account["kind"],
                    "amount_cents": rng.randrange(low, high),
                    "status": "paid",
                    "mode": "bill",
                    "time": None,
                    "days_ago": 30 * (i // len(accounts) + 1) + i,
                }
            )
        return {"accounts": accounts, "payments": payments}

    # -- reading -------------------------------------------------------------------------------
    @staticmethod
    def paid_now(data: Any, household: str) -> int:
        return sum(
            p["amount_cents"]
            for p in data["payments"]
            if p["household"] == household and p["status"] == "paid" and p["time"] is not None
        )

    def owed(self, data: Any, household: Any) -> int:
        return max(0, int(household["bill_cents"]) - self.paid_now(data, household["id"]))

    @staticmethod
    def period(clock: int) -> str:
        today = local_time(clock)
        month = today.month - 1 or 12
        return f"{today.year if today.month > 1 else today.year - 1}年{month}月"

    @staticmethod
    def due(household: Any, clock: int) -> str:
        day = local_time(episode_start(clock) + int(household["due_in"]) * DAY)
        return f"{day.month}月{day.day}日"

    # -- handlers ------------------------------------------------------------------------------
    def _start_payment(self, it: Interaction, household: Any, amount: int, mode: str) -> None:
        data = self.data(it)
        payment = next(
            (
                p
                for p in data["payments"]
                if p["household"] == household["id"]
                and p["status"] != "paid"
                and p["time"] is not None
            ),
            None,
        )
        if payment is None:
            payment = {
                "id": it.new_id("up"),
                "household": household["id"],
                "kind": household["kind"],
            }
            data["payments"].insert(0, payment)
        payment.update(
            {
                "amount_cents": amount,
                "status": "unpaid",
                "mode": mode,
                "time": it.clock,
                "days_ago": 0,
            }
        )
        self.pay(
            it,
            amount_cents=amount,
            reference=payment["id"],
            description=f"{KINDS[household['kind']][1]} 户号{household['number']} "
            f"{kind_name(household['kind'])}",
        )

    def pay_bill(self, it: Interaction, household_id: str) -> None:
        household = find(self.content(it)["households"], household_id)
        owed = self.owed(self.data(it), household)
        if owed == 0:
            it.no_op("nothing owed")
        self._start_payment(it, household, owed, "bill")

    def pay_custom(self, it: Interaction, household_id: str) -> None:
        household = find(self.content(it)["households"], household_id)
        amount = parse_amount(it.field("amount"))
        error = None
        if amount is None:
            error = "请输入正确的金额（最多两位小数）"
        elif amount <= 0:
            error = "缴费金额需大于0"
        elif amount > MAX_CUSTOM_CENTS:
            error = "单笔缴费不能超过¥5000.00"
        if error or amount is None:
            it.set_ui("error", error)
            it.toast(str(error))
            it.no_op(str(error))
        it.set_ui("error", None)
        self._start_payment(it, household, amount, "custom")

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        payment = find(self.data(it)["payments"], reference)
        if payment is None:
            return
        payment["status"] = "paid" if paid else "cancelled"
        it.toast("缴费成功" if paid else "已取消支付")

    def add_account(self, it: Interaction) -> None:
        kind = it.ui("kind", "electric")
        number = re.sub(r"\s", "", it.field("number"))
        digits = KINDS[kind][2]
        data = self.data(it)
        household = next(
            (
                h
                for h in self.content(it)["households"]
                if h["kind"] == kind and h["number"] == number
            ),
            None,
        )
        error = None
        if not re.fullmatch(rf"\d{{{digits}}}", number):
            error = f"{kind_name(kind)}户号应为{digits}位数字"
        elif household is None:
            error = "未查询到该户号，请核对后重试"
        elif any(a["household"] == household["id"] for a in data["accounts"]):
            error = "该户号已绑定"
        if error or household is None:
            it.set_ui("error", error)
            it.toast(str(error))
            it.no_op(str(error))
        data["accounts"].append(
            {"id": it.new_id("ac"), "household": household["id"], "kind": kind, "label": LABELS[2]}
        )
        it.pop()
        it.toast("户号绑定成功")

    # -- pages ---------------------------------------------------------------------------------
    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        kind = v.ui("tab", "electric")
        rows = []
        for account in v.data["accounts"]:
            if account["kind"] != kind:
                continue
            household = find(v.content["households"], account["household"])
            owed = self.owed(v.data, household)
            rows.append(
                ListItem(
                    f"{account['label']} · 户号 {household['number']}",
                    subtitle=f"{KINDS[kind][1]} · {household['address']}",
                    trailing=f"待缴 {yuan(owed)}" if owed else "无欠费",
                    leading=kind_name(kind)[0],
                    leading_color=BRAND,
                    on_tap=v.go("account", household=household["id"]),
                    id=f"account_{household['number']}",
                )
            )
        body = [
            Card(
                [
                    Text("生活缴费", size=48, bold=True, color=theme.WHITE),
                    Text("电费 · 水费 · 燃气费 在线缴纳", size=34, color=(255, 230, 200)),
                ],
                fill=BRAND,
            ),
            Tabs([(k, KINDS[k][0]) for k in KINDS], kind, v.on_select("tab")),
            *(
                rows
                or [
                    Text(
                        f"还没有绑定{kind_name(kind)}户号",
                        color=theme.TEXT_SECONDARY,
                        padding=30,
                        id="no_accounts",
                    )
                ]
            ),
            Button(
                "+ 添加户号", v.go("add_account", kind=kind), id="add_account", style="secondary"
            ),
            Button("缴费记录", v.go("history"), id="history", style="text"),
        ]
        return MiniPage(body, padding=24, spacing=16)

    @page("account")
    def account(self, v: MiniView) -> MiniPage:
        household = find(v.content["households"], v.params["household"])
        kind = household["kind"]
        owed = self.owed(v.data, household)
        extra = max(0, self.paid_now(v.data, household["id"]) - int(household["bill_cents"]))
        body: list[Any] = [
            Card(
                [
                    Text(KINDS[kind][1], size=44, bold=True, id="account_company"),
                    Text(f"户号  {household['number']}", id="account_number"),
                    Text(f"户名  {household['holder']}"),
                    Text(f"地址  {household['address']}", id="account_address"),
                ]
            ),
            Card(
                [
                    Text(f"{kind_name(kind)}账单 · 账期 {self.period(v.clock)}", id="bill_period"),
                    Text("应缴金额", color=theme.TEXT_SECONDARY),
                    Text(yuan(owed), size=80, bold=True, id="bill_amount"),
                    Text(f"缴费截止 {self.due(household, v.clock)}", id="bill_due"),
                    Text(
                        f"账户余额 {yuan(extra)}", color=theme.TEXT_SECONDARY, id="account_balance"
                    ),
                ]
            ),
        ]
        if owed:
            body.append(
                Button(
                    f"缴纳账单 {yuan(owed)}", v.do(self.pay_bill, household["id"]), id="pay_bill"
                )
            )
        body += [
            Text("自定义金额（预存）", size=40, bold=True),
            TextField(
                "amount",
                v.field("amount"),
                "输入金额，如 100.00",
                on_focus=v.focus("amount"),
                on_submit=v.do(self.pay_custom, household["id"]),
            ),
            Text(
                v.ui("error") or "单笔0.01~5000元",
                id="amount_error",
                color=theme.DANGER if v.ui("error") else theme.TEXT_SECONDARY,
            ),
            Button(
                "自定义金额缴费",
                v.do(self.pay_custom, household["id"]),
                id="pay_custom",
                style="secondary",
            ),
        ]
        return MiniPage(body, title=f"{kind_name(kind)}缴费", padding=30, spacing=20)

    @page("add_account")
    def add_account_page(self, v: MiniView) -> MiniPage:
        kind = v.ui("kind", v.params.get("kind", "electric"))
        body = [
            Text("缴费类型", size=40, bold=True),
            Wrap(
                [
                    Chip(KINDS[k][0], v.set_ui("kind", k), selected=k == kind, id=f"kind_{k}")
                    for k in KINDS
                ]
            ),
            Text(f"缴费单位  {KINDS[kind][1]}", color=theme.TEXT_SECONDARY),
            TextField(
                "number",
                v.field("number"),
                f"请输入{KINDS[kind][2]}位户号",
                on_focus=v.focus("number"),
                on_submit=v.do(self.add_account),
            ),
            Text(
                v.ui("error") or "户号可在纸质账单或缴费通知短信中查看",
                id="account_error",
                color=theme.DANGER if v.ui("error") else theme.TEXT_SECONDARY,
            ),
            Button("确认绑定", v.do(self.add_account), id="save_account"),
        ]
        return MiniPage(body, title="添加户号", padding=36, spacing=24)

    @page("history")
    def history(self, v: MiniView) -> MiniPage:
        status = {"paid": "缴费成功", "unpaid": "待支付", "cancelled": "已取消"}
        rows = []
        for p in sorted(v.data["payments"], key=lambda p: p["days_ago"]):
            when = local_time(
                p["time"] if p["time"] is not None else episode_start(v.clock) - p["days_ago"] * DAY
            )
            rows.append(
                ListItem(
                    f"{kind_name(p['kind'])} · 户号 {p['household']}",
                    subtitle=f"{when.month}月{when.day}日 · {status[p['status']]}",
                    trailing=yuan(p["amount_cents"]),
                    id=f"payment_{p['id']}",
                )
            )
        return MiniPage(
            rows or [Text("暂无缴费记录", color=theme.TEXT_SECONDARY, padding=40)], title="缴费记录"
        )
