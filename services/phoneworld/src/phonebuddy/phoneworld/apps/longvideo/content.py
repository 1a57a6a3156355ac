"""The seeded catalogue of 追剧: series, films, variety shows and anime with their episodes,
cast and update schedules, and the user's watch history, 追剧 list and downloads."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

KINDS = ("电视剧", "电影", "综艺", "动漫")
WEEKDAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
# (title, kind, genre, region)
TITLES = (
    ("长安月下", "电视剧", "古装", "内地"), ("山河故人归", "电视剧", "古装", "内地"),
    ("锦绣南歌", "电视剧", "古装", "内地"), ("繁花深处", "电视剧", "都市", "内地"),
    ("星辰大海", "电视剧", "都市", "内地"), ("都市迷踪", "电视剧", "悬疑", "内地"),
    ("追光者", "电视剧", "青春", "台湾"), ("漫长的告白", "电视剧", "爱情", "内地"),
    ("玉楼春深", "电视剧", "古装", "内地"), ("迷雾追踪", "电视剧", "悬疑", "香港"),
    ("烟火人间", "电视剧", "都市", "内地"), ("江湖夜雨", "电视剧", "古装", "香港"),
    ("白夜追凶录", "电视剧", "悬疑", "内地"), ("南风知我意", "电视剧", "爱情", "内地"),
    ("大江东去", "电视剧", "都市", "内地"), ("春日暖阳", "电视剧", "爱情", "韩国"),
    ("孤星计划", "电影", "科幻", "内地"), ("流浪之地", "电影", "科幻", "内地"),
    ("深海回响", "电影", "冒险", "美国"), ("夏日终曲", "电影", "爱情", "美国"),
    ("逆光飞翔", "电影", "剧情", "台湾"), ("长夜将尽", "电影", "剧情", "内地"),
    ("沙漠之鹰", "电影", "动作", "香港"), ("灯塔守望者", "电影", "剧情", "日本"),
    ("归乡", "电影", "剧情", "内地"), ("寻龙秘境", "电影", "冒险", "内地"),
    ("歌手之夜", "综艺", "音乐", "内地"), ("乘风少年", "综艺", "真人秀", "内地"),
    ("向往的田园", "综艺", "真人秀", "内地"), ("极限挑战营", "综艺", "真人秀", "内地"),
    ("脱口秀之王", "综艺", "脱口秀", "内地"), ("明星大侦探团", "综艺", "真人秀", "内地"),
    ("美食寻味记", "综艺", "美食", "内地"), ("星海少年", "动漫", "科幻", "内地"),
    ("灵剑山传说", "动漫", "玄幻", "内地"), ("仙途漫漫", "动漫", "玄幻", "内地"),
    ("机甲纪元", "动漫", "科幻", "日本"), ("狐妖传说", "动漫", "玄幻", "内地"),
    ("秦时明月夜", "动漫", "玄幻", "内地"), ("画江湖", "动漫", "玄幻", "内地"),
)  # fmt: skip
ACTORS = (
    "肖遥", "杨紫琪", "赵露思雨", "王一川", "刘昊然然", "白鹿鸣", "周冬羽", "李现之",
    "张若云", "迪丽雅", "吴磊落", "宋茜然", "陈飞扬", "郭京飞", "孙俪华", "邓伦章",
    "黄轩宇", "倪妮可", "胡歌行", "刘诗雨", "靳东风", "唐嫣然", "王凯文", "江疏雨",
)  # fmt: skip
HOSTS = ("何炅辉", "谢娜娜", "汪涵光", "沈腾飞", "贾玲珑", "黄渤海", "李诞生", "杨迪克")
VOICES = ("阎萌萌", "山新月", "边江流", "藤新雨", "姜广涛声", "乔诗语")
DIRECTORS = ("郑晓龙门", "孔笙歌", "李路遥", "张黎明", "曹盾牌", "吕行舟", "陈思成", "韩寒星")
PLOTS = (
    "一段跨越半生的爱恨纠葛，在风云变幻中徐徐展开。",
    "小人物在大时代里的坚守与成长，温暖而有力量。",
    "一桩尘封多年的旧案重新浮出水面，真相扑朔迷离。", "少年们为梦想拼搏，在汗水与泪水中找到自己。",
    "繁华都市里，几个年轻人的职场与爱情故事。", "江湖路远，侠骨柔情，恩怨终须一个了断。",
    "一群好友走进山野乡村，感受最质朴的生活。", "宇宙深处传来神秘信号，人类的命运悬于一线。",
)  # fmt: skip
UPDATE_TIMES = ("12:00", "18:00", "20:00")


def _episodes(rng: random.Random, kind: str) -> tuple[list[dict[str, Any]], int]:
    """Episodes (number, minutes, VIP-only) and how many air for free first."""
    if kind == "电影":
        return [{"n": 1, "minutes": rng.randrange(92, 150), "vip": rng.random() < 0.5}], 1
    count, low, high = {"电视剧": (rng.randrange(12, 41), 40, 48),
                        "综艺": (rng.randrange(10, 15), 80, 110),
                        "动漫": (rng.randrange(12, 27), 20, 25)}[kind]  # fmt: skip
    free = rng.randrange(3, min(count - 2, 12))
    episodes = [{"n": n, "minutes": rng.randrange(low, high + 1), "vip": n > free}
                for n in range(1, count + 1)]  # fmt: skip
    return episodes, free


def build(rng: random.Random) -> dict[str, Any]:
    titles = []
    ratings = rng.sample(range(55, 98), len(TITLES))
    for i, ((name, kind, genre, region), rating) in enumerate(zip(TITLES, ratings, strict=True)):
        episodes, free = _episodes(rng, kind)
        pool = {"综艺": HOSTS, "动漫": VOICES}.get(kind, ACTORS)
        ongoing = kind != "电影" and rng.random() < 0.45
        aired = rng.randrange(free + 1, len(episodes)) if ongoing else len(episodes)
        schedule = (
            {"weekday": rng.randrange(7), "time": rng.choice(UPDATE_TIMES)} if ongoing else None
        )
        titles.append(
            {
                "id": f"t{i + 1:02d}",
                "title": name,
                "kind": kind,
                "genre": genre,
                "region": region,
                "year": 2025 if ongoing else rng.randrange(2018, 2026),
                "rating": rating / 10,
                "cast": rng.sample(pool, 4 if kind == "电视剧" else 3),
                "director": rng.choice(DIRECTORS),
                "episodes": episodes,
                "aired": aired,
                "schedule": schedule,
                "synopsis": f"《{name}》：" + rng.choice(PLOTS),
                "hot": rng.randrange(1000, 9999),
            }
        )
    series = [t for t in titles if t["kind"] != "电影"]
    watched = rng.sample(series, 7)
    history = []
    for t in watched:
        free = sum(1 for e in t["episodes"] if not e["vip"])
        episode = rng.randrange(1, min(free, t["aired"]) + 1)
        minutes = t["episodes"][episode - 1]["minutes"]
        history.append({"id": t["id"], "episode": episode,
                        "position": rng.randrange(60, minutes * 60 - 60),
                        "time": EPOCH_START - rng.randrange(2, 300) * 3600})  # fmt: skip
    follows = [
        {"id": t["id"], "time": EPOCH_START - rng.randrange(24, 900) * 3600}
        for t in rng.sample(watched, 3) + rng.sample([t for t in series if t not in watched], 2)
    ]
    downloads = []
    for t in rng.sample(watched, 3):
        downloads.append({"id": f"{t['id']}-1", "title": t["id"], "episode": 1,
                          "quality": rng.choice(("480P", "720P"))})  # fmt: skip
    return {"titles": titles, "history": history, "follows": follows, "downloads": downloads}


def clock_text(seconds: int) -> str:
    """A position in an episode as the player shows it: 754 -> '12:34'."""
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def schedule_text(schedule: Any) -> str:
    return f"每{WEEKDAYS[schedule['weekday']]} {schedule['time']} 更新"


def episode_label(title: Any, n: int) -> str:
    return "正片" if title["kind"] == "电影" else f"第{n}集"
