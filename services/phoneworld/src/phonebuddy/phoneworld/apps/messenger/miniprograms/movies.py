"""喵眼电影: a movie-ticket mini-program. Films, cinemas and today's showtimes are seeded
content (with the seats already sold); pick a film, a cinema and a showtime, choose seats on
the seat map, and pay for the order in the wallet to get a ticket code."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import (
    ChatCard,
    MiniPage,
    MiniProgram,
    MiniView,
    find,
    page,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.seatmap import SeatMap
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time, yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Column,
    Image,
    ListItem,
    Tabs,
    Text,
)

BRAND = (235, 70, 70)
FILMS = (
    ("流浪星河", "科幻/冒险", 128, "人类带着地球寻找新家园的第二段旅程"),
    ("长安夜行", "悬疑/古装", 116, "上元夜，长安城里的一桩连环奇案"),
    ("热辣人生", "喜剧/剧情", 109, "三十岁的她决定去学拳击"),
    ("深海迷踪", "动作/冒险", 121, "深海科考站失联七十二小时"),
    ("我的朋友小熊", "动画/家庭", 95, "一只会说话的小熊和小女孩的夏天"),
    ("山河故梦", "剧情/爱情", 133, "跨越三十年的一封回信"),
    ("疾速追击", "动作/犯罪", 112, "退役车手卷入一场跨国追捕"),
    ("夏日终曲", "青春/爱情", 102, "高考结束后的那个夏天"),
)
CINEMAS = (
    ("万达影城（西溪店）", "西湖区文二西路551号西溪印象城5楼"),
    ("CGV影城（湖滨店）", "上城区东坡路7号湖滨银泰in77 C区4楼"),
    ("博纳国际影城（滨江店）", "滨江区江南大道228号星光大道二期3楼"),
    ("UME影城（华星店）", "西湖区文三路259号华星时代广场4楼"),
    ("横店电影城（城西银泰店）", "拱墅区丰潭路380号城西银泰城5楼"),
)
TIMES = ("10:20", "11:40", "13:10", "14:30", "15:50", "17:20", "18:40", "19:30", "20:50", "21:40")
ROWS, COLUMNS = 8, 10
MAX_SEATS = 4


class Movies(MiniProgram):
    name = "movies"
    title = "喵眼电影"
    description = "电影票在线选座"
    keywords = ("电影", "电影票", "看电影", "影院", "movie")
    glyph = "影"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        films = [
            {
                "id": f"mv{i + 1:02d}",
                "title": title,
                "genre": genre,
                "minutes": minutes,
                "description": text,
                "score": round(rng.uniform(7.2, 9.6), 1),
            }
            for i, (title, genre, minutes, text) in enumerate(FILMS)
        ]
        cinemas = [
            {"id": f"ci{i + 1}", "name": name, "address": address}
            for i, (name, address) in enumerate(CINEMAS)
        ]
        showtimes = []
        for cinema in cinemas:
            for film in rng.sample(films, k=5):
                times = sorted(rng.sample(TIMES, k=rng.randrange(3, 6)))
                for time in times:
                    sold = rng.sample(range(ROWS * COLUMNS), k=rng.randrange(8, 30))
                    showtimes.append(
                        {
                            "id": f"st-{cinema['id']}-{film['id']}-{time.replace(':', '')}",
                            "cinema": cinema["id"],
                            "film": film["id"],
                            "time": time,
                            "hall": f"{rng.randrange(1, 9)}号厅",
                            "price_cents": rng.choice((3590, 3990, 4500, 4990, 5500)),
                            "sold": sorted(
                                SeatMap.seat_name(s // COLUMNS + 1, s % COLUMNS + 1) for s in sold
                            ),
                        }
                    )
        return {"films": films, "cinemas": cinemas, "showtimes": showtimes}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"orders": []}

    def cards(self, content: dict[str, Any], rng: random.Random) -> list[ChatCard]:
        film = rng.choice(content["films"])
        card = self.card(
            f"《{film['title']}》评分{film['score']}", film["description"], "film", film=film["id"]
        )
        return [(card, "这部电影口碑很好，周末一起看？")]

    # -- reading -------------------------------------------------------------------------------
    @staticmethod
    def showtimes_of(content: Any, film_id: str, cinema_id: str | None = None) -> list[Any]:
        return [
            s
            for s in content["showtimes"]
            if s["film"] == film_id and (cinema_id is None or s["cinema"] == cinema_id)
        ]

    @staticmethod
    def sold_seats(content: Any, data: Any, showtime: Any) -> frozenset[str]:
        """Seats sold before, plus the ones this phone bought."""
        bought = {
            seat
            for o in data["orders"]
            if o["showtime"] == showtime["id"] and o["status"] == "paid"
            for seat in o["seats"]
        }
        return frozenset(showtime["sold"]) | bought

    # -- handlers ------------------------------------------------------------------------------
    def toggle_seat(self, it: Interaction, seat: str) -> None:
        chosen = list(it.ui("seats", []))
        if seat in chosen:
            chosen.remove(seat)
        elif len(chosen) >= MAX_SEATS:
            it.toast(f"一次最多选择{MAX_SEATS}个座位")
            it.no_op("too many seats")
        else:
            chosen.append(seat)
        it.set_ui("seats", chosen)

    def confirm_seats(self, it: Interaction, showtime_id: str) -> None:
        seats = list(it.ui("seats", []))
        if not seats:
            it.no_op("no seat chosen")
        self.push(it, "confirm", showtime=showtime_id, seats=seats)

    def submit_order(self, it: Interaction, showtime_id: str, seats: list[str]) -> None:
        content, data = self.content(it), self.data(it)
        showtime = find(content["showtimes"], showtime_id)
        taken = self.sold_seats(content, data, showtime) & set(seats)
        if taken:
            it.toast("座位已被抢，请重新选座")
            it.no_op(f"seats {sorted(taken)} are sold")
        order_id = it.new_id("mo")
        ordered = sorted(seats, key=lambda s: [int(n) for n in s[:-1].split("排")])
        data["orders"].insert(
            0,
            {
                "id": order_id,
                "showtime": showtime_id,
                "film": showtime["film"],
                "cinema": showtime["cinema"],
                "time": showtime["time"],
                "seats": ordered,
                "total_cents": showtime["price_cents"] * len(seats),
                "status": "unpaid",
                "code": None,
            },
        )
        self.replace(it, "order", order=order_id)
        self.pay_order(it, order_id)

    def pay_order(self, it: Interaction, order_id: str) -> None:
        order = find(self.data(it)["orders"], order_id)
        if order is None or order["status"] != "unpaid":
            it.no_op("this order does not need paying")
        film = find(self.content(it)["films"], order["film"])
        self.pay(
            it,
            amount_cents=order["total_cents"],
            reference=order_id,
            description=f"《{film['title']}》{order['time']} {len(order['seats'])}张",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = find(self.data(it)["orders"], reference)
        if order is not None and paid:
            order["status"] = "paid"
            order["code"] = f"{int(reference.rpartition('-')[2]) * 7919 % 1_000_000:06d}"
            it.toast("购票成功")

    # -- pages ---------------------------------------------------------------------------------
    def _date(self, v: MiniView) -> str:
        day = local_time(v.clock)
        return f"今天 {day.month}月{day.day}日"

    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        tab = v.ui("tab", "films")
        tabs = Tabs(
            [("films", "正在热映"), ("cinemas", "影院"), ("orders", "我的订单")],
            tab,
            v.on_select("tab"),
        )
        if tab == "cinemas":
            rows = [
                ListItem(
                    c["name"],
                    subtitle=c["address"],
                    on_tap=v.go("cinema", cinema=c["id"]),
                    id=f"cinema_{c['id']}",
                )
                for c in v.content["cinemas"]
            ]
        elif tab == "orders":
            rows = self._order_rows(v)
        else:
            rows = [
                ListItem(
                    f"《{f['title']}》",
                    subtitle=f"{f['genre']} · {f['minutes']}分钟",
                    trailing=f"{f['score']}分",
                    leading=f["title"],
                    leading_color=BRAND,
                    on_tap=v.go("film", film=f["id"]),
                    id=f"film_{f['id']}",
                )
                for f in v.content["films"]
            ]
        return MiniPage([tabs, *rows])

    def _order_rows(self, v: MiniView) -> list[Any]:
        status = {"unpaid": "待支付", "paid": "已出票"}
        return [
            ListItem(
                f"《{find(v.content['films'], o['film'])['title']}》 {o['time']}",
                subtitle=f"{find(v.content['cinemas'], o['cinema'])['name']} · "
                f"{'、'.join(o['seats'])}",
                trailing=status[o["status"]],
                on_tap=v.go("order", order=o["id"]),
                id=f"order_{o['id']}",
            )
            for o in v.data["orders"]
        ] or [Text("还没有订单", color=theme.TEXT_SECONDARY, padding=40)]

    @page("film")
    def film(self, v: MiniView) -> MiniPage:
        film = find(v.content["films"], v.params["film"])
        cinemas = {s["cinema"] for s in self.showtimes_of(v.content, film["id"])}
        rows = [
            ListItem(
                c["name"],
                subtitle=c["address"],
                trailing=f"{len(self.showtimes_of(v.content, film['id'], c['id']))}场",
                on_tap=v.go("showtimes", film=film["id"], cinema=c["id"]),
                id=f"cinema_{c['id']}",
            )
            for c in v.content["cinemas"]
            if c["id"] in cinemas
        ]
        body = [
            Image(f"《{film['title']}》", height=520, color=(60, 60, 80)),
            Column(
                [
                    Text(f"《{film['title']}》", size=56, bold=True, id="film_title"),
                    Text(
                        f"{film['genre']} · {film['minutes']}分钟 · 评分 {film['score']}",
                        color=theme.TEXT_SECONDARY,
                    ),
                    Text(film["description"]),
                ],
                spacing=12,
                padding=30,
            ),
            Text(f"选择影院 · {self._date(v)}", size=42, bold=True, padding=30),
            *rows,
        ]
        return MiniPage(body, title=film["title"])

    @page("cinema")
    def cinema(self, v: MiniView) -> MiniPage:
        cinema = find(v.content["cinemas"], v.params["cinema"])
        films = sorted({s["film"] for s in v.content["showtimes"] if s["cinema"] == cinema["id"]})
        rows = [
            ListItem(
                f"《{find(v.content['films'], f)['title']}》",
                subtitle=" ".join(s["time"] for s in self.showtimes_of(v.content, f, cinema["id"])),
                on_tap=v.go("showtimes", film=f, cinema=cinema["id"]),
                id=f"film_{f}",
            )
            for f in films
        ]
        return MiniPage(
            [Text(cinema["address"], color=theme.TEXT_SECONDARY, padding=30), *rows],
            title=cinema["name"],
        )

    @page("showtimes")
    def showtimes(self, v: MiniView) -> MiniPage:
        film = find(v.content["films"], v.params["film"])
        cinema = find(v.content["cinemas"], v.params["cinema"])
        rows = [
            ListItem(
                s["time"],
                subtitle=f"{s['hall']} · 国语2D",
                trailing=f"{yuan(s['price_cents'])} 购票",
                on_tap=v.go("seats", showtime=s["id"]),
                id=f"show_{s['time'].replace(':', '')}",
            )
            for s in self.showtimes_of(v.content, film["id"], cinema["id"])
        ]
        header = Column(
            [
                Text(f"《{film['title']}》", size=48, bold=True, id="showtimes_film"),
                Text(f"{cinema['name']} · {self._date(v)}", color=theme.TEXT_SECONDARY),
            ],
            spacing=8,
            padding=30,
        )
        return MiniPage([header, *rows], title=cinema["name"])

    @page("seats")
    def seats(self, v: MiniView) -> MiniPage:
        showtime = find(v.content["showtimes"], v.params["showtime"])
        film = find(v.content["films"], showtime["film"])
        chosen = list(v.ui("seats", []))
        seat_map = SeatMap(
            ROWS,
            COLUMNS,
            self.sold_seats(v.content, v.data, showtime),
            frozenset(chosen),
            lambda seat: v.do(self.toggle_seat, seat),
        )
        body = [
            Column(
                [
                    Text(f"《{film['title']}》 {showtime['time']}", size=44, bold=True),
                    Text(
                        f"{showtime['hall']} · {yuan(showtime['price_cents'])}/张",
                        color=theme.TEXT_SECONDARY,
                    ),
                ],
                spacing=8,
                padding=30,
            ),
            seat_map,
            Text(
                "白色可选 · 灰色已售 · 绿色已选",
                size=34,
                color=theme.TEXT_SECONDARY,
                align="center",
            ),
        ]
        summary = "、".join(chosen) if chosen else "请选择座位"
        bottom = Column(
            [
                Text(summary, id="chosen_seats"),
                Button(
                    f"确认选座 {yuan(showtime['price_cents'] * len(chosen))}"
                    if chosen
                    else "确认选座",
                    v.do(self.confirm_seats, showtime["id"]),
                    id="confirm_seats",
                    enabled=bool(chosen),
                ),
            ],
            spacing=16,
            padding=24,
            fill=theme.SURFACE,
        )
        return MiniPage(body, bottom=bottom, title="选座", spacing=10)

    @page("confirm")
    def confirm(self, v: MiniView) -> MiniPage:
        showtime = find(v.content["showtimes"], v.params["showtime"])
        film = find(v.content["films"], showtime["film"])
        cinema = find(v.content["cinemas"], showtime["cinema"])
        seats = v.params["seats"]
        total = showtime["price_cents"] * len(seats)
        body = [
            Card(
                [
                    Text(f"《{film['title']}》", size=50, bold=True),
                    Text(f"{self._date(v)} {showtime['time']} · {showtime['hall']}"),
                    Text(cinema["name"], color=theme.TEXT_SECONDARY),
                    Text("座位：" + "、".join(seats), id="confirm_seats_text"),
                ]
            ),
            Card(
                [
                    Text(f"{len(seats)}张 × {yuan(showtime['price_cents'])}"),
                    Text(f"合计 {yuan(total)}", size=56, bold=True, id="order_total"),
                ]
            ),
            Text("开场前60分钟可退改签", color=theme.TEXT_SECONDARY),
        ]
        bottom = Column(
            [
                Button(
                    f"确认支付 {yuan(total)}",
                    v.do(self.submit_order, showtime["id"], seats),
                    id="submit_order",
                )
            ],
            padding=20,
            fill=theme.SURFACE,
        )
        return MiniPage(body, bottom=bottom, title="确认订单", padding=36, spacing=24)

    @page("order")
    def order(self, v: MiniView) -> MiniPage:
        order = find(v.data["orders"], v.params["order"])
        film = find(v.content["films"], order["film"])
        cinema = find(v.content["cinemas"], order["cinema"])
        body: list[Any] = [
            Text(
                "已出票" if order["status"] == "paid" else "待支付",
                size=60,
                bold=True,
                align="center",
                id="order_status",
            )
        ]
        if order["code"]:
            body += [
                Text("取票码", align="center", color=theme.TEXT_SECONDARY),
                Text(order["code"], size=88, bold=True, align="center", id="ticket_code"),
            ]
        body.append(
            Card(
                [
                    Text(f"《{film['title']}》 {order['time']}", size=46, bold=True),
                    Text(cinema["name"]),
                    Text("、".join(order["seats"])),
                    Text(f"实付 {yuan(order['total_cents'])}", bold=True),
                ]
            )
        )
        if order["status"] == "unpaid":
            body.append(Button("去支付", v.do(self.pay_order, order["id"]), id="pay_order"))
        return MiniPage(body, title="订单详情", padding=36, spacing=24)
