"""The seeded catalogue of 读书: books with authors, categories, chapters and their text."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

CATEGORIES = ("小说", "历史", "科幻", "悬疑", "成长", "经管")
# (title, author, category)
BOOKS = (
    ("长河落日", "林远舟", "小说"), ("南方的雨季", "苏晚晴", "小说"),
    ("灯火人家", "陈默", "小说"), ("梧桐巷往事", "许青禾", "小说"),
    ("海边的书店", "周知夏", "小说"), ("山那边的村庄", "赵铁生", "小说"),
    ("大唐夜话", "王景行", "历史"), ("宋朝的烟火", "李慕白", "历史"),
    ("丝路千年", "马骁", "历史"), ("明朝那些官", "韩松", "历史"),
    ("三国风云录", "孙策远", "历史"), ("星海彼岸", "刘星河", "科幻"),
    ("第七颗卫星", "程一帆", "科幻"), ("火星移民日记", "顾北辰", "科幻"),
    ("时间的裂缝", "叶知秋", "科幻"), ("深空回声", "沈航", "科幻"),
    ("机器之心", "方启明", "科幻"), ("雾中的证人", "江寒", "悬疑"),
    ("午夜列车", "唐雪", "悬疑"), ("消失的画家", "白露", "悬疑"),
    ("密室十三号", "罗森", "悬疑"), ("老宅秘闻", "魏然", "悬疑"),
    ("慢慢变好", "林小溪", "成长"), ("一个人的远行", "夏天", "成长"),
    ("二十岁的清单", "郑可", "成长"), ("安静的力量", "温如玉", "成长"),
    ("学会独处", "黎明", "成长"), ("小公司的大生意", "钱多多", "经管"),
    ("极简管理课", "吴思远", "经管"), ("复利人生", "金一诺", "经管"),
    ("从零开始做产品", "杜鹏", "经管"), ("聪明的投资", "高远", "经管"),
)  # fmt: skip
CHAPTER_NAMES = ("初见", "远行", "风起", "转折", "夜谈", "离别", "重逢", "归来", "尾声", "新生")
SENTENCES = (
    "清晨的雾气还没有散去，街角的小店已经亮起了灯。", "他把那封信读了一遍又一遍，终于放进了抽屉。",
    "风从窗外吹进来，带着一点潮湿的泥土味。", "很多年以后，她仍然记得那天傍晚的天空。",
    "人总要在某个时刻，学会与过去和解。", "远处传来火车的汽笛声，像是一声悠长的叹息。",
    "桌上的茶已经凉了，谁也没有再说话。", "真正的勇气，是看清生活之后依然热爱它。",
    "雨下了一整夜，第二天的街道干净得发亮。", "他忽然明白，答案其实一直就在身边。",
    "灯光下，旧照片里的人都在笑。", "每一次出发，都是为了更好地回来。",
)  # fmt: skip
DAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
ON_SHELF = 6


def _chapters(rng: random.Random, count: int) -> list[dict[str, Any]]:
    names = rng.sample(CHAPTER_NAMES, count)
    return [
        {
            "title": f"第{i + 1}章 {name}",
            "paragraphs": ["".join(rng.sample(SENTENCES, 3)) for _ in range(3)],
        }
        for i, name in enumerate(names)
    ]


def build(rng: random.Random) -> dict[str, Any]:
    books = []
    ratings = rng.sample(range(60, 99), len(BOOKS))
    for i, ((title, author, category), rating) in enumerate(zip(BOOKS, ratings, strict=True)):
        free = rng.random() < 0.4
        count = rng.randrange(5, 9)
        books.append(
            {
                "id": f"b-{i + 1:02d}",
                "title": title,
                "author": author,
                "category": category,
                "rating": rating / 10,
                "price": 0 if free else rng.choice((990, 1290, 1990, 2500, 2990, 3600)),
                "words": rng.randrange(8, 60),
                "intro": f"《{title}》是{author}的{category}作品。" + rng.choice(SENTENCES),
                "chapters": _chapters(rng, count),
            }
        )
    shelf = []
    for book in rng.sample(books, ON_SHELF):
        chapter = rng.randrange(0, len(book["chapters"]) - 1)
        shelf.append(
            {
                "id": book["id"],
                "chapter": chapter,
                "progress": progress(chapter, len(book["chapters"])),
                "last_read": EPOCH_START - rng.randrange(1, 200) * 3600,
            }
        )
    minutes = [rng.randrange(0, 90) for _ in DAYS]
    return {"books": books, "shelf": shelf, "minutes": minutes}


def progress(chapter: int, count: int) -> int:
    """The percentage read when `chapter` (0-based) is the one being read."""
    return (chapter + 1) * 100 // count


def price_label(price: int) -> str:
    return "免费" if price == 0 else f"¥{price // 100}.{price % 100:02d}"
