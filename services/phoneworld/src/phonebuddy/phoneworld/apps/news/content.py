"""The seeded content of 头条新闻: articles by channel (with the facts their paragraphs state:
hotlines, event dates, match scores, medal counts, road closures, polls), the 热榜 and the
sources the user follows, has saved and has read."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

# (channel key, name); the first six are on the tab bar after a reset.
CHANNELS = (("rec", "推荐"), ("hot", "热点"), ("tech", "科技"), ("money", "财经"),
            ("sports", "体育"), ("local", "本地"), ("health", "健康"), ("auto", "汽车"),
            ("edu", "教育"))  # fmt: skip
START_CHANNELS = ("rec", "hot", "tech", "money", "sports", "local")
SOURCES = ("新华快讯", "城市晚报", "科技前沿", "财经观察", "体坛周报", "健康时报", "本地生活通",
           "环球视野", "都市频道", "民生热线")  # fmt: skip
FOLLOWED = 3
HOT_COUNT = 20
TECH = (
    "国产大模型发布新版本",
    "新能源电池续航再突破",
    "城市无人配送车开始试运行",
    "量子通信网络扩容",
    "智能手表新增健康监测功能",
    "芯片产业园二期开工",
    "机器人送餐进社区",
    "卫星互联网试点启动",
)
MONEY = (
    "春季消费市场回暖",
    "小微企业贷款利率下调",
    "新能源汽车销量同比增长",
    "家电以旧换新补贴发放",
    "本市楼市成交量回升",
    "外贸出口订单增加",
    "理财产品收益率走低",
    "农产品价格保持平稳",
)
HOT = (
    "多地发布春游出行提示",
    "景区推出门票优惠",
    "共享单车新规实施",
    "高铁新线路即将开通",
    "博物馆夜场开放",
    "快递价格调整说明",
    "网约车平台推出新服务",
)
HEALTH = (
    "春季过敏高发需注意",
    "三甲医院开通夜间门诊",
    "流感疫苗接种点公布",
    "儿童近视防控指南发布",
    "中医院推出膏方节",
    "心理援助热线开通",
    "老年人防跌倒小贴士",
)
# (title, home team, away team)
MATCHES = (
    ("城市联赛雄狮队主场迎战飞鹰队", "雄狮队", "飞鹰队"),
    ("篮球联赛半决赛猛龙对阵星辰", "猛龙队", "星辰队"),
    ("女排联赛焦点之战落幕", "江城女排", "海湾女排"),
    ("足协杯海港队客场挑战申城队", "申城队", "海港队"),
    ("乒乓球团体赛决赛战罢", "东方队", "北辰队"),
)
MEDALS = ("省运会游泳比赛落幕", "全国青年田径锦标赛收官", "冬季项目邀请赛闭幕")
# (title, event name, place)
EVENTS = (
    ("春季招聘会本周末举行", "春季招聘会", "市人才市场三楼"),
    ("城市图书馆举办读书节", "图书馆读书节", "城市图书馆一楼大厅"),
    ("滨江公园樱花节开幕", "樱花节开幕式", "滨江公园南门广场"),
    ("社区免费义诊活动", "社区义诊", "幸福里社区服务中心"),
    ("市民音乐会在大剧院上演", "市民音乐会", "市大剧院音乐厅"),
)
# (title, road, detour)
ROADS = (
    ("地铁施工期间中山路交通调整", "中山路", "人民路"),
    ("解放大道部分路段维修", "解放大道", "建设大道"),
    ("马拉松赛事期间交通安排", "沿江大道", "友谊大道"),
    ("滨河路桥梁检测安排", "滨河路", "和平路"),
)
POLLS = (
    ("你今年春游打算去哪里？", ("周边古镇", "城市公园", "外省景区", "不出门")),
    ("你支持共享单车限停新规吗？", ("支持", "反对", "无所谓")),
    ("你会去博物馆夜场吗？", ("一定会", "看情况", "不会")),
)
FILLER = ("业内人士表示，这一变化将对市民生活产生积极影响。", "相关部门将持续关注后续进展。",
          "不少市民在社交平台上分享了自己的看法。", "专家建议大家理性看待，避免盲目跟风。",
          "记者从有关方面了解到，后续还将推出更多配套措施。",
          "据悉，相关工作正在有序推进中。")  # fmt: skip


def _day(rng: random.Random) -> dt.date:
    return dt.date(2026, 3, 18) + dt.timedelta(days=rng.randrange(0, 40))


def _md(day: dt.date) -> str:
    return f"{day.month}月{day.day}日"


def _hotline(rng: random.Random) -> str:
    return f"400-{rng.randrange(100, 1000)}-{rng.randrange(1000, 10000)}"


def _article(
    rng: random.Random, channel: str, title: str, lead: str, *facts: str
) -> dict[str, Any]:
    return {"channel": channel, "title": title, "source": rng.choice(SOURCES),
            "paragraphs": [lead, *facts, rng.choice(FILLER)], "hotline": None, "event": None,
            "score": None, "medals": None, "road": None, "poll": None}  # fmt: skip


def _articles(rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for title in TECH:
        pct = rng.randrange(12, 80)
        money = rng.randrange(2, 30)
        fact = f"据介绍，相关指标比上一代提升了{pct}%，首批投入约{money}亿元。"
        out.append(_article(rng, "tech", title, f"{_md(_day(rng))}，{title}的消息引发关注。", fact))
    for title in MONEY:
        out.append(_article(rng, "money", title, f"国家统计数据显示，{title}。",
                            f"一季度相关金额达{rng.randrange(120, 990)}亿元，同比增长"
                            f"{rng.randrange(3, 25)}.{rng.randrange(10)}%。"))  # fmt: skip
    for i, title in enumerate(HOT):
        a = _article(
            rng,
            "hot",
            title,
            f"{title}，话题登上热搜。",
            f"截至发稿，相关话题阅读量已超过{rng.randrange(2, 60)}亿次。",
        )
        if i < len(POLLS):
            question, options = POLLS[i]
            a["poll"] = {"question": question, "options": list(options),
                         "votes": [rng.randrange(200, 5000) for _ in options]}  # fmt: skip
        out.append(a)
    for title in HEALTH:
        hotline = _hotline(rng)
        a = _article(rng, "health", title, f"{title}，医生提醒市民做好防护。",
                     f"调查显示约{rng.randrange(10, 60)}%的受访者有相关困扰。",
                     f"如有疑问，可拨打咨询热线{hotline}。")  # fmt: skip
        a["hotline"] = hotline
        out.append(a)
    for title, home, away in MATCHES:
        hs, as_ = rng.sample(range(0, 6), 2)
        a = _article(rng, "sports", title, f"{_md(_day(rng))}晚，{home}与{away}展开较量。",
                     f"最终比分定格在{hs}比{as_}，{home if hs > as_ else away}笑到最后。",
                     f"本场比赛现场观众达{rng.randrange(8000, 40000)}人。")  # fmt: skip
        a["score"] = {"home": home, "away": away, "home_goals": hs, "away_goals": as_}
        out.append(a)
    for title in MEDALS:
        gold, silver, bronze = (rng.randrange(2, 15) for _ in range(3))
        a = _article(rng, "sports", title, f"{title}，本市代表团表现亮眼。",
                     f"本市代表团共获得金牌{gold}枚、银牌{silver}枚、铜牌{bronze}枚。",
                     "教练组表示，年轻选手的进步是最大的收获。")  # fmt: skip
        a["medals"] = {"gold": gold, "silver": silver, "bronze": bronze}
        out.append(a)
    for title, name, place in EVENTS:
        day = _day(rng)
        start = f"{rng.randrange(9, 20):02d}:{rng.choice((0, 30)):02d}"
        hotline = _hotline(rng)
        a = _article(rng, "local", title, f"{title}，欢迎市民参加。",
                     f"“{name}”将于{_md(day)} {start}在{place}举行。",
                     f"报名及咨询电话：{hotline}。")  # fmt: skip
        a["event"] = {"name": name, "date": day.isoformat(), "start": start, "place": place}
        a["hotline"] = hotline
        out.append(a)
    for title, road, detour in ROADS:
        closed = rng.random() < 0.5
        start, end = _day(rng), _day(rng) + dt.timedelta(days=30)
        said = (
            f"{_md(start)}至{_md(end)}，{road}全封闭施工，车辆请绕行{detour}。"
            if closed
            else f"{_md(start)}至{_md(end)}，{road}不封闭，采取半幅通行，请减速慢行。"
        )
        a = _article(rng, "local", title, f"{title}，交管部门发布提示。", said)
        a["road"] = {"road": road, "closed": closed, "detour": detour}
        out.append(a)
    for i, a in enumerate(out):
        a["id"] = f"a-{i + 1:02d}"
        a["time"] = EPOCH_START - rng.randrange(1, 96) * 1800
        a["reads"] = rng.randrange(1000, 200000)
        a["comments"] = rng.randrange(0, 3000)
    return out


def build(rng: random.Random) -> dict[str, Any]:
    articles = _articles(rng)
    heats = sorted(rng.sample(range(50, 999), HOT_COUNT), reverse=True)
    hot = [{"rank": i + 1, "article": a["id"], "heat": heat * 10000 + rng.randrange(10000)}
           for i, (a, heat) in enumerate(zip(rng.sample(articles, HOT_COUNT), heats,
                                             strict=True))]  # fmt: skip
    followed = rng.sample(SOURCES, FOLLOWED)
    saved = rng.sample(articles, 4)
    history = rng.sample(articles, 6)
    return {"articles": articles, "hot": hot, "followed": followed,
            "saved": [a["id"] for a in saved], "history": [a["id"] for a in history]}  # fmt: skip


def heat_label(heat: int) -> str:
    return f"{heat / 10000:.1f}万"
