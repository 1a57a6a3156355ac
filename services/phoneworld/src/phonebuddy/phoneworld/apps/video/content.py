"""The seeded content of 短视频: creators and their videos (captions, places, ingredients,
counts), the 推荐 feed's order, and who is followed / what was watched after a reset."""

from __future__ import annotations

import random
import string
from typing import Any

from phonebuddy.phoneworld.ui.theme import Color

VIDEO = "com.pw.video"
LINK_HOST = "v.pw.example"
MAX_COMMENT = 100
# (name, topic, bio)
CREATORS = (
    ("旅行的阿杰", "旅行", "走遍中国的每一个角落"), ("城市漫游者", "旅行", "用脚步丈量城市"),
    ("户外徒步队", "旅行", "山野之间，自由呼吸"), ("厨房里的小满", "美食", "每天一道家常菜"),
    ("家常菜王阿姨", "美食", "三十年掌勺经验"), ("深夜食堂老周", "美食", "深夜里的一碗热饭"),
    ("健身教练大鹏", "健身", "国家一级健身教练"), ("萌宠日记", "萌宠", "两猫一狗的日常"),
    ("数码小王子", "数码", "只说真话的数码博主"), ("舞蹈少女Coco", "舞蹈", "每天跳一支舞"),
    ("搞笑兄弟连", "搞笑", "专治各种不开心"), ("读书博主小林", "知识", "一年读完一百本书"),
)  # fmt: skip
# Travel videos name a place, recipes an ingredient: (caption, place or ingredient).
TRAVEL = (
    ("重庆洪崖洞夜景太美了", "洪崖洞"), ("大理洱海边骑行一整天", "洱海生态廊道"),
    ("西安城墙上看日落", "西安城墙"), ("厦门鼓浪屿小众拍照点", "鼓浪屿"),
    ("桂林阳朔竹筏漂流", "遇龙河"), ("杭州灵隐寺祈福之旅", "灵隐寺"),
    ("成都宽窄巷子逛吃一天", "宽窄巷子"), ("青海茶卡盐湖天空之镜", "茶卡盐湖"),
    ("张家界玻璃栈道挑战", "天门山"), ("哈尔滨冰雪大世界夜游", "冰雪大世界"),
    ("黄山云海日出", "光明顶"), ("三亚蜈支洲岛潜水", "蜈支洲岛"),
)  # fmt: skip
RECIPES = (
    ("十分钟搞定可乐鸡翅", "鸡翅中"), ("零失败番茄炖牛腩", "牛腩"), ("外酥里嫩的锅包肉", "猪里脊"),
    ("夏天必吃的凉拌黄瓜", "黄瓜"), ("一口爆汁的生煎包", "猪肉馅"), ("妈妈味道的红烧排骨", "肋排"),
    ("空气炸锅烤红薯", "红薯"), ("酸辣开胃土豆丝", "土豆"), ("奶香浓郁的芒果班戟", "芒果"),
    ("快手虾仁滑蛋", "虾仁"), ("暖胃的山药排骨汤", "铁棍山药"), ("自制麻辣香锅", "藕片"),
)  # fmt: skip
OTHERS = {
    "健身": ("每天十分钟练出马甲线", "跟练燃脂操第三天", "深蹲的正确姿势", "零基础引体向上教程"),
    "萌宠": ("猫咪第一次见到雪", "柯基的迷惑行为大赏", "给狗子洗澡的名场面", "橘猫又胖了两斤"),
    "数码": ("新手机开箱上手体验", "百元耳机横评", "平板选购避坑指南", "手机拍月亮教程"),
    "舞蹈": ("挑战最火手势舞", "古风舞蹈一镜到底", "街舞基础律动教学"),
    "搞笑": ("当你妈以为你在学习", "上班族的周一早上", "和室友抢最后一块肉"),
    "知识": ("一分钟读懂复利", "今年值得读的三本书", "高效记笔记的方法"),
}  # fmt: skip
SONGS = (
    "《晴天》- 周杰伦", "《孤勇者》- 陈奕迅", "《稻香》- 周杰伦", "《起风了》- 买辣椒也用券",
    "《小幸运》- 田馥甄", "《海底》- 一支榴莲", "《平凡之路》- 朴树", "《热爱105°C的你》- 阿肆",
)  # fmt: skip
POSTERS: tuple[Color, ...] = (
    (40, 40, 60), (120, 30, 60), (20, 80, 110), (90, 60, 20), (30, 100, 70), (80, 40, 120),
    (150, 70, 30), (25, 60, 90),
)  # fmt: skip


def link(video_id: str) -> str:
    """The share link of a video."""
    return f"{LINK_HOST}/{video_id}"


def build(rng: random.Random) -> dict[str, Any]:
    creators = []
    followers = rng.sample(range(3000, 2_000_000), len(CREATORS))
    for i, (name, topic, bio) in enumerate(CREATORS):
        creators.append({"id": f"u{i + 1:02d}", "name": name, "topic": topic, "bio": bio,
                         "followers": followers[i]})  # fmt: skip
    works: list[tuple[str, str, str]] = []  # (creator id, caption, place or ingredient)
    for pool in (TRAVEL, RECIPES):
        topic = "旅行" if pool is TRAVEL else "美食"
        owners = [c["id"] for c in creators if c["topic"] == topic]
        shuffled = list(pool)
        rng.shuffle(shuffled)
        for j, (caption, spot) in enumerate(shuffled):
            works.append((owners[j % len(owners)], caption, spot))
    for creator in creators:
        for caption in OTHERS.get(creator["topic"], ()):
            works.append((creator["id"], caption, ""))
    days = rng.sample(range(1, 200), len(works))
    views = rng.sample(range(8_000, 3_000_000), len(works))
    ids: set[str] = set()
    videos = []
    for (creator, caption, spot), ago, seen in zip(works, days, views, strict=True):
        video_id = ""
        while not video_id or video_id in ids:
            video_id = "".join(rng.choice(string.ascii_lowercase + string.digits) for _ in range(7))
        ids.add(video_id)
        likes = seen * rng.randrange(20, 120) // 1000 + rng.randrange(100)
        topic = next(c["topic"] for c in creators if c["id"] == creator)
        videos.append(
            {
                "id": video_id, "creator": creator, "caption": caption, "topic": topic,
                "spot": spot, "music": rng.choice(SONGS), "views": seen, "likes": likes,
                "comments": likes // rng.randrange(8, 30), "collects": likes // rng.randrange(3, 9),
                "shares": likes // rng.randrange(10, 40), "ago": ago,
                "poster": rng.choice(POSTERS),
            }
        )  # fmt: skip
    feed = [v["id"] for v in videos]
    rng.shuffle(feed)
    following = sorted(c["id"] for c in rng.sample(creators, 3))
    history = rng.sample(feed, 8)
    return {"creators": creators, "videos": videos, "feed": feed, "following": following,
            "history": history}  # fmt: skip


def spot_label(video: Any) -> str:
    """How the place or ingredient is shown: 📍 for a place, 食材 for a recipe."""
    if not video["spot"]:
        return ""
    return f"📍 {video['spot']}" if video["topic"] == "旅行" else f"主要食材：{video['spot']}"


def count(n: int) -> str:
    """A count as shown under a video: 1.2万 over ten thousand."""
    return f"{n / 10000:.1f}万" if n >= 10000 else str(n)
