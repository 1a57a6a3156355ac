"""Mail's seeded mailbox: the people and services who write, the meetings, trips, orders,
bills and notices their mails are about, and the writer that turns them into mails."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from phonebuddy.phoneworld.apps.mail.base import ME_ADDRESS, ME_NAME, WEEKDAYS
from phonebuddy.phoneworld.clock import EPOCH_START

CONTACTS = (
    ("张伟", "zhangwei@xinghe-tech.com", "星河科技 · 项目经理"),
    ("王芳", "wangfang@xinghe-tech.com", "星河科技 · 设计师"),
    ("李强", "liqiang@xinghe-tech.com", "星河科技 · 后端开发"),
    ("刘洋", "liuyang@xinghe-tech.com", "星河科技 · 产品经理"),
    ("人力资源部", "hr@xinghe-tech.com", "星河科技"),
    ("赵磊", "zhaolei@hzmedia.cn", "杭州云帆传媒 · 客户"),
    ("周杰", "zhoujie1990@163.com", "大学同学"),
    ("吴敏", "wumin_nj@126.com", "高中同学"),
    ("孙悦", "sunyue.sh@gmail.com", "大学同学"),
    ("黄磊", "huanglei88@qq.com", "朋友"),
    ("妈妈", "mama1966@163.com", "家人"),
    ("陈静", "chenjing@xinghe-tech.com", "星河科技 · 财务"),
)
SERVICES = {
    "12306": ("铁路12306", "12306@rails.com.cn"),
    "jd": ("京东", "notice@jd.com"),
    "sspai": ("少数派", "newsletter@sspai.com"),
    "kr": ("36氪", "daily@36kr.com"),
    "cmb": ("招商银行信用卡", "creditcard@cmbchina.com"),
    "cmcc": ("中国移动", "bill@10086.cn"),
    "ctrip": ("携程旅行", "noreply@ctrip.com"),
    "music": ("网易云音乐", "vip@music.163.com"),
    "ad": ("优选好物", "promo@youxuan-mall.com"),
}
MEETING_PLACES = (
    "星河大厦 12 层 1203 会议室",
    "星河大厦 8 层大会议室",
    "星河大厦 3 层 301 培训室",
    "滨江园区 B 座 5 层洽谈室",
    "星河大厦 15 层 1502 会议室",
    "星河大厦 6 层 602 会议室",
)
MEETINGS = (
    ("张伟", "Q2 产品规划评审会", "评审第二季度产品路线图和人力排期"),
    ("刘洋", "会员体系需求评审", "过一遍会员体系 PRD，确认一期范围"),
    ("赵磊", "云帆传媒合作沟通会", "沟通年度宣传片的拍摄需求和预算"),
    ("人力资源部", "新员工入职培训", "介绍公司制度、报销流程和信息安全规范"),
    ("王芳", "设计规范宣讲会", "讲解新版组件库和设计走查流程"),
)
STREETS = (
    "杭州市西湖区文三路 478 号华星时代广场 A 座 1502 室",
    "南京市鼓楼区中山北路 200 号 3 栋 2 单元 601 室",
    "成都市高新区天府大道中段 1388 号 6 栋 1803 室",
    "苏州市工业园区星湖街 328 号 12 幢 402 室",
    "武汉市洪山区珞喻路 1037 号 9 栋 305 室",
    "广州市天河区天河北路 233 号中信广场 28 楼",
)
MY_ADDRESS = "上海市徐汇区漕溪北路 88 号 5 号楼 1201 室"
TRAINS = (
    ("G7361", "杭州东", "上海虹桥"),
    ("G102", "上海虹桥", "北京南"),
    ("D3125", "南京南", "杭州东"),
    ("G1974", "上海虹桥", "合肥南"),
    ("G7588", "上海虹桥", "苏州北"),
    ("G1377", "上海虹桥", "长沙南"),
)
ORDERS = (
    ("小米手环 9 NFC 版", 26900),
    ("得力 A4 复印纸 70g 5 包装", 11990),
    ("三只松鼠坚果礼盒 1.5kg", 15900),
    ("罗技 MX Master 3S 无线鼠标", 59900),
    ("九阳豆浆机 DJ13B", 29900),
)


class _MailWriter:
    """Writes the seeded mails: realistic text with facts (dates, places, trains) drawn from
    the rng, each mail's folder and flags, and times before the earliest device clock."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.mails: list[dict[str, Any]] = []
        self.contacts = {name: address for name, address, _ in CONTACTS}

    def add(
        self,
        sender: str,
        subject: str,
        body: str,
        *,
        days_ago: tuple[int, int] = (1, 16),
        folder: str = "inbox",
        facts: dict[str, Any] | None = None,
        attachments: tuple[str, ...] = (),
        to: str = ME_ADDRESS,
        read: bool | None = None,
        starred: bool = False,
    ) -> None:
        if sender in SERVICES:
            name, address = SERVICES[sender]
        elif sender == ME_NAME:
            name, address = ME_NAME, ME_ADDRESS
        else:
            name, address = sender, self.contacts[sender]
        self.mails.append(
            {
                "folder": folder,
                "from_name": name,
                "from_addr": address,
                "to": to,
                "subject": subject,
                "body": body,
                "time": self._time(days_ago),
                "attachments": list(attachments),
                "facts": facts or {},
                "read": self.rng.random() < 0.6 if read is None else read,
                "starred": starred,
                "reply_to": None,
                "forward_of": None,
            }
        )

    def _time(self, days_ago: tuple[int, int]) -> int:
        midnight = EPOCH_START - 9 * 3600
        day = self.rng.randrange(*days_ago)
        return (
            midnight - day * 86400 + self.rng.randrange(8, 23) * 3600 + self.rng.randrange(60) * 60
        )

    def april_day(self, taken: set[int]) -> tuple[int, str]:
        """A day in the second half of April (after every device's clock), not yet used."""
        day = self.rng.choice([d for d in range(16, 31) if d not in taken])
        taken.add(day)
        return day, WEEKDAYS[dt.date(2026, 4, day).weekday()]

    def write_all(self) -> list[dict[str, Any]]:
        self.meetings()
        self.itineraries()
        self.orders()
        self.addresses()
        self.hr_notices()
        self.newsletters()
        self.bills()
        self.personal()
        self.work()
        self.sent_and_drafts()
        self.mails.sort(key=lambda m: m["time"])
        for index, mail in enumerate(self.mails, start=1):
            mail["id"] = f"m{index:02d}"
        return self.mails

    def meetings(self) -> None:
        places = self.rng.sample(MEETING_PLACES, len(MEETINGS))
        days: set[int] = set()
        for (sender, topic, agenda), place in zip(MEETINGS, places, strict=True):
            day, weekday = self.april_day(days)
            hour, minute = self.rng.choice((9, 10, 14, 15, 16)), self.rng.choice((0, 30))
            signature = "星河科技" if sender != "赵磊" else "杭州云帆传媒"
            body = (
                f"各位好：\n\n定于 4月{day}日（周{weekday}）{hour:02d}:{minute:02d} 在{place}"
                f"召开{topic}，主要{agenda}。\n\n请提前准备相关材料，准时参加；如不能出席，"
                f"请提前回复告知。\n\n{sender}\n{signature}"
            )
            facts = {
                "kind": "meeting",
                "topic": topic,
                "month": 4,
                "day": day,
                "hour": hour,
                "minute": minute,
                "place": place,
            }
            self.add(sender, f"会议邀请：{topic}", body, facts=facts, days_ago=(1, 10))

    def itineraries(self) -> None:
        days: set[int] = set()
        for train, origin, destination in self.rng.sample(TRAINS, 3):
            day, weekday = self.april_day(days)
            hour, minute = self.rng.randrange(7, 20), self.rng.choice((5, 12, 28, 36, 40, 55))
            car, row = self.rng.randrange(1, 16), self.rng.randrange(1, 18)
            seat = f"{car:02d}车{row}{self.rng.choice('ABCDF')}号"
            gate = f"{self.rng.randrange(1, 25)}{'AB'[self.rng.randrange(2)]}"
            body = (
                f"尊敬的林晓女士：\n\n您好！您于 {self.rng.randrange(1, 9)} 日在中国铁路 12306 "
                f"网站成功购买了 4月{day}日（周{weekday}）{train} 次列车车票：\n{origin}站 "
                f"{hour:02d}:{minute:02d} 开，{seat}，二等座，检票口 {gate}。\n\n请持购票时使用的"
                f"有效身份证件原件乘车，并预留足够的安检和检票时间。\n\n中国铁路客户服务中心"
            )
            facts = {
                "kind": "train",
                "train": train,
                "origin": origin,
                "destination": destination,
                "month": 4,
                "day": day,
                "hour": hour,
                "minute": minute,
                "seat": seat,
            }
            subject = f"【铁路12306】购票成功：4月{day}日 {origin}-{destination} {train}"
            self.add("12306", subject, body, facts=facts, days_ago=(1, 12), read=False)
        day, _ = self.april_day(days)
        hotel = self.rng.choice(("杭州西湖国宾馆", "南京金陵饭店", "苏州尼依格罗酒店"))
        body = (
            f"林晓，您好：\n\n您的酒店订单已确认。\n酒店：{hotel}\n入住：4月{day}日 14:00 后\n"
            f"离店：4月{day + 1}日 12:00 前\n房型：高级大床房 1 间\n"
            f"订单金额：¥{self.rng.randrange(6, 13)}80.00（已付款）\n\n"
            "如需修改或取消，请在携程 App 中操作。"
        )
        facts = {"kind": "hotel", "hotel": hotel, "month": 4, "day": day}
        self.add("ctrip", f"【携程】酒店预订确认：{hotel}", body, facts=facts, starred=True)

    def orders(self) -> None:
        for item, cents in self.rng.sample(ORDERS, 3):
            number = str(self.rng.randrange(3 * 10**11, 4 * 10**11))
            body = (
                f"尊敬的用户：\n\n您的订单 {number} 已提交成功，我们会尽快为您发货。\n\n"
                f"商品：{item}\n"
                f"实付金额：¥{cents / 100:.2f}\n收货人：林晓\n收货地址：{MY_ADDRESS}\n\n"
                f"您可在京东 App「我的订单」中查看物流进度。"
            )
            facts = {"kind": "order", "order": number, "item": item, "amount_cents": cents}
            self.add("jd", f"【京东】订单 {number} 已提交成功", body, facts=facts)

    def addresses(self) -> None:
        streets = self.rng.sample(STREETS, 3)
        phones = [
            f"1{self.rng.randrange(3, 9)}{self.rng.randrange(10**8, 10**9)}" for _ in range(3)
        ]
        letters = (
            (
                "黄磊",
                "我搬家啦，新地址发你",
                "搬家",
                "晓晓：\n\n上周终于搬完家了！以后寄东西就寄到新家吧。\n\n收货地址：{street}\n"
                "收件人：黄磊 {phone}\n\n有空来暖房，给你做饭吃～",
            ),
            (
                "吴敏",
                "婚礼请柬寄送地址",
                "婚礼请柬",
                "林晓：\n\n我和小陈 5 月 1 日办婚礼啦！纸质请柬想寄给你，"
                "麻烦你也把你的地址回我一下。"
                "我这边的地址是：\n\n收货地址：{street}\n收件人：吴敏 {phone}\n\n等你来喝喜酒！",
            ),
            (
                "赵磊",
                "宣传册样品寄送地址",
                "宣传册样品",
                "林老师好：\n\n宣传册样品已经印好，麻烦贵司寄一份确认稿到我们公司：\n\n"
                "收货地址：{street}\n收件人：赵磊 {phone}\n\n收到后我们会在 3 个工作日内反馈。",
            ),
        )
        for (sender, subject, topic, body), street, phone in zip(
            letters, streets, phones, strict=True
        ):
            facts = {
                "kind": "address",
                "topic": topic,
                "address": street,
                "recipient": sender,
                "phone": phone,
            }
            self.add(sender, subject, body.format(street=street, phone=phone), facts=facts)

    def hr_notices(self) -> None:
        hour = self.rng.choice((8, 9))
        notices = (
            (
                "关于 2026 年清明节放假安排的通知",
                "全体员工：\n\n根据国务院办公厅通知，清明节放假安排如下："
                "4月4日（周六）至 4月6日（周一）"
                "放假调休，共 3 天。放假期间请关闭电脑和电源，注意安全。\n\n人力资源部",
                "清明节放假",
            ),
            (
                "2026 年度员工体检通知",
                "全体员工：\n\n今年的年度体检安排在 4月下旬，"
                "请于 3月31日前在 OA 系统预约具体日期。"
                f"体检当天 {hour}:00 前空腹到达爱康国宾（徐汇漕溪北路分院）。\n\n人力资源部",
                "体检",
            ),
            (
                "关于开展第一季度绩效自评的通知",
                "各位同事：\n\n第一季度绩效自评已在 OA 系统开放，请于 3月27日 18:00 前完成自评并"
                "提交给直属上级。逾期未提交视为放弃自评。\n\n人力资源部",
                "绩效自评",
            ),
        )
        for subject, body, topic in notices:
            self.add("人力资源部", subject, body, facts={"kind": "notice", "topic": topic})

    def newsletters(self) -> None:
        issue = self.rng.randrange(280, 300)
        topics = (
            "五款让你告别拖延的效率工具",
            "用 iPad 做笔记的正确姿势",
            "周末去哪儿：城市骑行指南",
        )
        for offset, topic in enumerate(topics):
            body = (
                f"Hi，少数派的朋友：\n\n本期主题：{topic}。\n\n· 编辑精选：{topic}\n· 派友分享："
                f"我的桌面改造计划\n· 限时免费：本周值得关注的 App\n\n退订请点击邮件底部链接。"
            )
            subject = f"少数派周刊 第 {issue + offset} 期：{topic}"
            self.add(
                "sspai",
                subject,
                body,
                facts={"kind": "newsletter", "topic": topic},
                days_ago=(1 + 5 * (2 - offset), 6 + 5 * (2 - offset)),
            )
        body = (
            "早上好！\n\n今日要闻：新能源车企一季度销量预告；AI 手机助手进入普及期；"
            "多地出台消费券新政。"
        )
        self.add("kr", "8点1氪｜AI 手机助手进入普及期", body, facts={"kind": "newsletter"})
        body = "您的黑胶 VIP 将于 3月20日到期，续费立享 8 折优惠，还可领取 3 天免费试用。"
        self.add("music", "您的黑胶 VIP 即将到期", body, facts={"kind": "promotion"})
        body = "春季焕新季，全场五折起！满 299 减 50，限时 3 天，点击进入会场抢购。"
        self.add("ad", "【限时特惠】春季焕新 全场五折起", body, folder="trash", read=True)

    def bills(self) -> None:
        amount = self.rng.randrange(1800, 9000) + self.rng.randrange(100) / 100
        body = (
            f"尊敬的林晓女士：\n\n您 2026年03月 的信用卡账单已出。\n本期应还金额：¥{amount:,.2f}\n"
            f"最低还款额：¥{amount / 10:,.2f}\n到期还款日：2026年04月08日\n\n请按时还款，以免影响"
            f"个人征信。"
        )
        facts = {"kind": "bill", "amount": amount, "due": "4月8日"}
        self.add(
            "cmb",
            "招商银行信用卡电子账单（2026年03月）",
            body,
            facts=facts,
            folder="folder-bills",
            read=True,
        )
        phone_bill = self.rng.randrange(58, 168) + 0.5
        body = f"尊敬的客户：您 2026 年 2 月话费账单已出，本月消费 ¥{phone_bill:.2f}，已自动扣款。"
        self.add(
            "cmcc",
            "中国移动 2 月话费账单",
            body,
            folder="folder-bills",
            read=True,
            facts={"kind": "bill", "amount": phone_bill},
        )

    def personal(self) -> None:
        hour = self.rng.choice((7, 8))
        body = (
            f"周六天气不错，要不要一起去爬佘山？我打算 {hour} 点在地铁 9 号线佘山站 1 号口集合，"
            f"中午在山下吃农家菜。\n\n来的话回我一下，我好订位。\n\n周杰"
        )
        facts = {"kind": "personal", "topic": "爬山"}
        self.add("周杰", "周六一起去爬山吗", body, facts=facts, days_ago=(3, 6))
        day, weekday = self.april_day(set(range(16, 25)))
        place = "外滩源壹号 2 楼宴会厅"
        body = (
            f"亲爱的同学们：\n\n毕业十周年聚会定在 4月{day}日（周{weekday}）18:00，地点：{place}。"
            f"每人 AA 300 元，可带家属。请在群里接龙报名。\n\n孙悦"
        )
        facts = {
            "kind": "meeting",
            "topic": "毕业十周年聚会",
            "month": 4,
            "day": day,
            "hour": 18,
            "minute": 0,
            "place": place,
        }
        self.add("孙悦", "毕业十周年同学聚会通知", body, facts=facts, starred=True)
        tracking = f"SF{self.rng.randrange(10**12, 10**13)}"
        body = (
            f"晓晓，给你寄的腊肉和香肠今天发出了，顺丰单号 {tracking}，大概后天到。收到后放冰箱"
            f"冷冻，吃的时候蒸半小时就行。\n\n妈妈"
        )
        self.add(
            "妈妈",
            "腊肉寄出了",
            body,
            facts={"kind": "personal", "topic": "腊肉", "tracking": tracking},
            starred=True,
        )

    def work(self) -> None:
        body = (
            "林晓：\n\n首页改版设计稿 V3 已更新到蓝湖，主要调整了导航栏和卡片间距，麻烦今天下班前"
            "看一下，有问题直接在评论里标注。\n\n王芳"
        )
        self.add(
            "王芳",
            "首页改版设计稿 V3 已更新",
            body,
            folder="folder-work",
            facts={"kind": "work", "topic": "设计稿"},
            attachments=("首页改版V3.fig",),
            days_ago=(3, 6),
        )
        body = "Hi 林晓，\n\n会员接口文档已经放在附件里了，积分兑换接口下周三前联调完成。\n\n李强"
        self.add(
            "李强",
            "会员接口文档 v1.2",
            body,
            folder="folder-work",
            facts={"kind": "work", "topic": "接口文档"},
            attachments=("会员接口文档v1.2.pdf",),
        )
        body = (
            "林晓，\n\n3月的差旅报销单请在本周五前提交到财务系统，发票原件交到 8 楼财务部。\n\n陈静"
        )
        self.add("陈静", "3 月差旅报销提醒", body, facts={"kind": "work", "topic": "报销"})

    def sent_and_drafts(self) -> None:
        sent = (
            (
                "张伟",
                "第一季度工作总结",
                "张总：\n\n附件是我第一季度的工作总结，请查收。\n\n林晓",
                ("Q1工作总结_林晓.docx",),
            ),
            ("周杰", "回复：周六一起去爬山吗", "好呀，我周六准时到！", ()),
            ("王芳", "回复：首页改版设计稿 V3 已更新", "收到，我下午看完给你反馈。", ()),
        )
        for recipient, subject, body, attachments in sent:
            self.add(
                ME_NAME,
                subject,
                body,
                folder="sent",
                days_ago=(1, 3),
                to=self.contacts[recipient],
                attachments=attachments,
                read=True,
            )
        self.add(
            ME_NAME,
            "请假申请",
            "张总：\n\n我想申请 4月7日 请假一天，",
            folder="drafts",
            to=self.contacts["张伟"],
            read=True,
        )


def build_mail_content(rng: random.Random) -> dict[str, Any]:
    mails = _MailWriter(rng).write_all()
    return {
        "mails": {mail["id"]: mail for mail in mails},
        "contacts": [{"name": n, "address": a, "note": note} for n, a, note in CONTACTS],
    }


# -- reading a mailbox ---------------------------------------------------------------------------


def contact_address(name: str) -> str:
    return next(address for n, address, _ in CONTACTS if n == name)
