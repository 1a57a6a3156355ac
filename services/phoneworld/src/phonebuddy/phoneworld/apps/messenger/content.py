"""The messenger's seeded world: friends with remarks and WeChat IDs, private and group chats
with histories (plans, addresses, meeting times, links, mini-program cards), and moments.

Everything here is read-only and shared by every device; times are seconds before the episode
began (see `timeline`). `facts` indexes what tasks ask about (who proposed which meeting time,
who sent which address) so templates sample from the same data the chats show.
"""

from __future__ import annotations

import itertools
import random
import string
from collections.abc import Sequence
from typing import Any

from phonebuddy.phoneworld.apps.messenger.timeline import DAY, spoken_time
from phonebuddy.phoneworld.ui.theme import Color

ME = "me"
# Devices reset at 09:00; seeded chats avoid the night before it (00:00-07:00 moves to the
# previous evening).
RESET_HOUR, QUIET_UNTIL, QUIET_SHIFT = 9, 7, 8 * 3600
OWNER = {"nickname": "阿远", "wxid": "ayuan_1992", "region": "浙江 杭州",
         "signature": "慢慢来，比较快"}  # fmt: skip

REAL_NAMES = (
    "张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄丽", "周杰", "吴敏", "徐涛",
    "孙悦", "马超", "朱琳", "胡斌", "郭晶", "何勇", "林晓", "高翔", "罗丹", "郑凯", "梁婷",
    "谢宇", "宋佳", "唐亮", "许诺", "韩雪", "冯博", "邓超", "曹颖", "彭飞", "曾琪", "田甜",
    "蒋文", "沈冰", "钱多多",
)  # fmt: skip
NICKNAMES = (
    "小鱼儿", "Leo", "阿杰", "橙子", "Sunny", "老王", "木子", "大白", "Coco", "风吹麦浪",
    "一只猫", "Jason", "晴天", "半夏", "阿May", "Kevin", "小太阳", "追风少年", "Lily",
    "奔跑的蜗牛", "Tony", "桃子", "David", "简单", "七七", "Eric", "安静的美男子", "Annie",
    "小胖", "Vivian", "海阔天空", "Rain", "木木", "Grace", "乐乐", "Zoe",
)  # fmt: skip
# Remarks people give family and service contacts instead of a real name.
RELATION_REMARKS = ("妈妈", "爸爸", "房东李阿姨", "王经理", "快递小哥", "健身教练", "表姐")
REGIONS = ("浙江 杭州", "上海 浦东", "北京 朝阳", "广东 深圳", "江苏 南京", "四川 成都",
           "湖北 武汉", "浙江 宁波", "广东 广州", "陕西 西安")  # fmt: skip
SIGNATURES = ("生活明朗，万物可爱", "努力工作，认真生活", "Stay hungry, stay foolish",
              "今天也要开心呀", "", "在路上", "少说话，多做事", "热爱可抵岁月漫长", "Just do it",
              "")  # fmt: skip
AVATAR_COLORS: tuple[Color, ...] = (
    (94, 129, 172), (191, 97, 106), (208, 135, 112), (163, 190, 140), (180, 142, 173),
    (136, 192, 208), (235, 170, 80), (95, 160, 120), (120, 120, 200), (200, 110, 150),
)  # fmt: skip
# The pinyin initial of the first character of every name above, for the contact index.
INITIALS = dict(
    zip(
        "张王李刘陈杨赵黄周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾田蒋沈钱"
        "妈爸房快健表小阿橙老木大风一晴半追奔桃简七安海乐",
        "ZWLLCYZHZWXSMZHGHLGLZLXSTXHFDCPZTJSQMBFKJBXACLMDFYQBZBTJQAHL",
        strict=True,
    )
)
ACTIVITIES = ("爬山", "吃火锅", "打羽毛球", "看展", "逛街", "喝咖啡", "跑步", "看电影", "吃烤肉")
PLACES = ("星巴克（万象城店）", "地铁1号线龙翔桥站A口", "公司楼下大堂", "西湖文化广场南门",
          "海底捞（银泰店）", "体育馆3号场", "湖滨银泰in77 B区门口", "来福士一楼")  # fmt: skip
DAYS = ("周六", "周日", "明天", "后天", "周五")
CITIES = (("杭州市", "西湖区", "文三路"), ("杭州市", "拱墅区", "莫干山路"),
          ("上海市", "徐汇区", "漕溪北路"), ("北京市", "朝阳区", "望京街"),
          ("南京市", "鼓楼区", "中山北路"), ("深圳市", "南山区", "科技园路"),
          ("成都市", "武侯区", "天府大道"), ("杭州市", "滨江区", "江南大道"))  # fmt: skip
COMMUNITIES = ("阳光花园", "锦绣华庭", "翠苑小区", "星河湾", "金色家园", "绿城桂花园",
               "万科城市花园", "紫金庭院")  # fmt: skip
GIFTS = ("家乡的特产", "一箱橙子", "两本书", "茶叶", "自己做的辣酱", "一盒月饼")
TOPICS = ("这篇讲理财的文章写得挺好", "周末亲子活动的攻略", "这个装修避坑指南",
          "新出的咖啡测评", "杭州赏花地图", "年终总结怎么写")  # fmt: skip

MOMENT_TEXTS = (
    "今天天气真好，出去走走", "新买的咖啡机到了，早上终于不用排队了", "终于周五了！",
    "加班到十点，犒劳自己一顿火锅", "带娃去动物园，熊猫太可爱了", "跑完半马，个人最好成绩！",
    "读完了《人类简史》，推荐给大家", "家里的猫又胖了", "西湖边的晚霞", "新工作第一天，加油",
    "周末露营，星星好多", "做了一桌子菜，夸我", "第一次做蛋糕，卖相一般但是好吃",
    "今天的通勤：地铁挤成照片", "终于把驾照考下来了", "爸妈结婚三十周年，一家人吃个饭",
    "健身打卡第100天", "阳台的花开了", "出差到成都，火锅走起", "搬新家啦，欢迎来玩",
    "雨天适合窝在家里看书", "好久没这么认真地看一场日落", "公司年会抽中了一等奖！",
    "周末去了趟乌镇，人好多",
)  # fmt: skip
MOMENT_COMMENTS = ("羡慕！", "好看", "在哪里呀？", "厉害了", "哈哈哈哈", "下次带上我",
                   "太棒了", "恭喜恭喜", "看着就好吃", "周末约起来")  # fmt: skip

GROUPS = (
    ("相亲相爱一家人", ("周日回家吃饭吗？妈妈做红烧肉", "回！", "几点到？", "中午11点半吧",
                        "路上注意安全")),
    ("周末羽毛球群", ("本周六下午2点体育馆3号场，老规矩AA", "报名接龙：1. 张伟 2. Leo",
                      "3. 橙子", "我也来，带两筒球", "场地费一人30")),
    ("产品研发部", ("明早10点开周会，会议室B203", "需求文档已更新，大家看一下", "收到",
                    "版本周四提测", "好的")),
    ("大学室友", ("毕业十年聚一下？", "必须的", "五一怎么样", "我五一在杭州",
                  "那就定杭州吧", "我来订餐厅")),
    ("阳光花园业主群", ("通知：本周三上午9点到12点停水，请提前储水", "收到，谢谢物业",
                        "地下车库的灯坏了好几天了", "已报修，明天处理")),
    ("干饭小分队", ("中午吃什么", "楼下新开了一家麻辣烫", "走起", "11点50楼下集合")),
)  # fmt: skip


def _wxid(rng: random.Random, name: str) -> str:
    """Half the friends kept WeChat's generated ID; the others chose one."""
    if rng.random() < 0.5:
        return "wxid_" + "".join(rng.choices(string.ascii_lowercase + string.digits, k=14))
    handle = "".join(ch for ch in name.lower() if ch.isascii() and ch.isalnum()) or "user"
    return f"{handle}_{rng.randrange(10, 9999)}"


def _friends(rng: random.Random) -> list[dict[str, Any]]:
    names = rng.sample(REAL_NAMES, k=28)
    nicknames = rng.sample(NICKNAMES, k=len(names) + len(RELATION_REMARKS))
    people: list[tuple[str, str]] = []  # (nickname, remark)
    for i, name in enumerate(names):
        remark = name if rng.random() < 0.7 else ""
        people.append((nicknames[i], remark))
    people += [(nicknames[len(names) + i], r) for i, r in enumerate(RELATION_REMARKS)]
    rng.shuffle(people)
    return [
        {
            "id": f"f{i + 1:02d}",
            "nickname": nickname,
            "remark": remark,
            "wxid": _wxid(rng, nickname),
            "region": rng.choice(REGIONS),
            "signature": rng.choice(SIGNATURES),
            "color": rng.choice(AVATAR_COLORS),
        }
        for i, (nickname, remark) in enumerate(people)
    ]


def initial_of(name: str) -> str:
    """The contact-index letter of a name: its pinyin initial, its first Latin letter, or #."""
    first = name[:1]
    if first.isascii() and first.isalpha():
        return first.upper()
    return INITIALS.get(first, "#")


def _address(rng: random.Random) -> str:
    city, district, road = rng.choice(CITIES)
    return (
        f"{city}{district}{road}{rng.randrange(8, 400)}号{rng.choice(COMMUNITIES)}"
        f"{rng.randrange(1, 20)}幢{rng.randrange(1, 4)}单元{rng.randrange(2, 30)}"
        f"{rng.randrange(1, 4):02d}室"
    )


class _ChatWriter:
    """Writes one chat's history as scripts (short exchanges) spread over the past days."""

    def __init__(self, rng: random.Random, chat_id: str, friend: str | None) -> None:
        self.rng = rng
        self.chat_id = chat_id
        self.friend = friend
        self.scripts: list[list[dict[str, Any]]] = []
        self.facts: list[dict[str, Any]] = []

    def script(self, lines: Sequence[tuple[str, str | dict[str, Any]]]) -> None:
        """`lines` are (speaker, text or card); speaker "them" is the chat's friend."""
        messages = []
        for speaker, body in lines:
            sender = ME if speaker == "me" else (self.friend if speaker == "them" else speaker)
            message: dict[str, Any] = {"from": sender}
            if isinstance(body, dict):
                message |= {"kind": "mini", "text": body["title"], "card": body}
            else:
                message |= {"kind": "text", "text": body}
            messages.append(message)
        self.scripts.append(messages)

    def fact(self, kind: str, **values: Any) -> None:
        self.facts.append({"kind": kind, "chat": self.chat_id, "friend": self.friend, **values})

    def messages(self, last_ago: int) -> list[dict[str, Any]]:
        """Number the messages and date them: scripts days apart, lines minutes apart."""
        out: list[dict[str, Any]] = []
        count = len(self.scripts)
        for k, script in enumerate(self.scripts):
            base = last_ago + (count - 1 - k) * self.rng.randrange(1, 3) * DAY
            base += len(script) * 600
            if (RESET_HOUR * 3600 - base) % DAY < QUIET_UNTIL * 3600:
                base += QUIET_SHIFT  # people chat in the evening rather than at 3 a.m.
            for i, message in enumerate(script):
                ago = base - i * self.rng.randrange(40, 540)
                out.append({"id": f"{self.chat_id}-m{len(out) + 1:02d}", "ago": ago, **message})
        for earlier, later in itertools.pairwise(out):
            later["ago"] = min(later["ago"], earlier["ago"] - 30)  # keep them in order
        return out


def _meeting_script(w: _ChatWriter) -> None:
    hour = w.rng.choice((10, 11, 14, 15, 16, 18, 19, 20))
    minute = w.rng.choice((0, 0, 30, 15, 40))
    day, place = w.rng.choice(DAYS), w.rng.choice(PLACES)
    activity = w.rng.choice(ACTIVITIES)
    when = f"{day}{spoken_time(hour, minute)}"
    proposal = f"那就{when}在{place}见"
    if w.rng.random() < 0.5:
        w.script(
            [
                ("them", f"这周末有空吗？一起去{activity}吧"),
                ("me", "好呀，几点？"),
                ("them", proposal),
                ("me", "好的，不见不散"),
            ]
        )
    else:
        w.script(
            [("me", f"{activity}还去吗？"), ("them", "去！"), ("them", proposal), ("me", "OK")]
        )
    w.fact("meeting", hour=hour, minute=minute, place=place, text=proposal)


def _address_script(w: _ChatWriter) -> None:
    address = _address(w.rng)
    if w.rng.random() < 0.5:
        w.script(
            [
                ("me", f"你家地址发我一下，给你寄点{w.rng.choice(GIFTS)}"),
                ("them", f"我家地址：{address}"),
                ("them", "谢谢啦！"),
                ("me", "不客气"),
            ]
        )
    else:
        w.script(
            [
                ("them", "我搬家了，新地址发你"),
                ("them", f"我家地址：{address}"),
                ("me", "好的，存了"),
            ]
        )
    w.fact("address", address=address)


def _link_script(w: _ChatWriter) -> None:
    code = "".join(w.rng.choices(string.ascii_letters + string.digits, k=22))
    w.script(
        [
            ("them", f"{w.rng.choice(TOPICS)}，推荐你看看"),
            ("them", f"https://mp.weixin.qq.com/s/{code}"),
            ("me", "好的，晚点看"),
        ]
    )


def _parcel_script(w: _ChatWriter, number: str, courier: str) -> None:
    w.script(
        [
            ("them", f"给你寄了{w.rng.choice(GIFTS)}，{courier}的"),
            ("them", f"单号{number}"),
            ("me", "好的，收到跟你说"),
        ]
    )
    w.fact("parcel", number=number, courier=courier)


def _small_talk(w: _ChatWriter) -> None:
    w.script(
        w.rng.choice(
            (
                [
                    ("them", "在吗？"),
                    ("me", "在的，怎么了"),
                    ("them", "下班帮我带个快递呗，菜鸟驿站的"),
                    ("me", "没问题"),
                ],
                [("me", "晚饭吃了吗？"), ("them", "还没，加班中"), ("me", "辛苦了，早点回家")],
                [("them", "周末的照片发你了"), ("me", "拍得真好"), ("them", "哈哈哈")],
                [("me", "上次借你的书看完了吗？"), ("them", "快了，下周还你"), ("me", "不急")],
                [
                    ("them", "生日快乐！"),
                    ("me", "谢谢！"),
                    ("them", "晚上一起吃饭？"),
                    ("me", "好呀"),
                ],
            )
        )
    )


def _card_script(w: _ChatWriter, card: dict[str, Any], line: str) -> None:
    w.script([("them", card), ("them", line), ("me", "好啊")])
    w.fact("card", program=card["program"], title=card["title"], args=card["args"])


def _group(
    rng: random.Random, index: int, title: str, lines: Sequence[str], friend_ids: Sequence[str]
) -> dict[str, Any]:
    chat_id = f"g{index + 1:02d}"
    members = rng.sample(list(friend_ids), k=rng.randrange(4, 9))
    w = _ChatWriter(rng, chat_id, None)
    w.script([("me" if i == 3 else rng.choice(members), line) for i, line in enumerate(lines)])
    return {
        "id": chat_id,
        "kind": "group",
        "title": title,
        "friend": None,
        "members": members,
        "messages": w.messages(rng.randrange(900, 4 * DAY)),
    }


def _moments(rng: random.Random, friend_ids: Sequence[str]) -> list[dict[str, Any]]:
    texts = rng.sample(MOMENT_TEXTS, k=len(MOMENT_TEXTS))
    agos = sorted(rng.sample(range(3600, 10 * DAY, 1800), k=len(texts)))
    moments = []
    for i, (text, ago) in enumerate(zip(texts, agos, strict=True)):
        author = rng.choice(friend_ids)
        others = [f for f in friend_ids if f != author]
        moments.append(
            {
                "id": f"mo{i + 1:02d}",
                "author": author,
                "text": text,
                "photos": rng.choice((0, 1, 1, 3)),
                "ago": ago,
                "likes": rng.sample(others, k=rng.randrange(0, 7)),
                "comments": [
                    {"from": rng.choice(others), "text": rng.choice(MOMENT_COMMENTS)}
                    for _ in range(rng.randrange(0, 3))
                ],
            }
        )
    return moments


def build(
    rng: random.Random,
    cards: dict[str, list[tuple[dict[str, Any], str]]],
    parcels: Sequence[tuple[str, str]],
) -> dict[str, Any]:
    """The messenger's content. `cards` are mini-program cards friends may send, with what
    they say about them; `parcels` are (tracking number, courier) friends may send."""
    friends = _friends(rng)
    ids = [f["id"] for f in friends]
    chatting = rng.sample(ids, k=22)
    chats, facts = [], []
    card_pool = [item for program in sorted(cards) for item in cards[program]]
    rng.shuffle(card_pool)
    parcel_pool = list(parcels)
    for i, friend in enumerate(chatting):
        w = _ChatWriter(rng, f"p-{friend}", friend)
        topics = [_small_talk, _meeting_script, _address_script, _link_script]
        for topic in rng.sample(topics, k=rng.randrange(1, 4)):
            topic(w)
        if i < 4 and card_pool:
            card, line = card_pool.pop()
            _card_script(w, card, line)
        if 4 <= i < 7 and parcel_pool:
            _parcel_script(w, *parcel_pool.pop())
        last_ago = rng.randrange(600, 7200) if rng.random() < 0.3 else rng.randrange(7200, 6 * DAY)
        chats.append(
            {
                "id": w.chat_id,
                "kind": "single",
                "title": None,
                "friend": friend,
                "members": [friend],
                "messages": w.messages(last_ago),
            }
        )
        facts += w.facts
    chats += [_group(rng, i, title, lines, ids) for i, (title, lines) in enumerate(GROUPS)]
    for chat in chats:
        chat["unread"] = _unread(rng, chat["messages"])
    return {
        "me": OWNER,
        "friends": friends,
        "chats": chats,
        "moments": _moments(rng, ids),
        "facts": facts,
    }


def _unread(rng: random.Random, messages: Sequence[dict[str, Any]]) -> int:
    """Some chats ending with the other side's messages have not been read yet."""
    trailing = 0
    for message in reversed(messages):
        if message["from"] == ME:
            break
        trailing += 1
    return trailing if trailing and rng.random() < 0.5 else 0
