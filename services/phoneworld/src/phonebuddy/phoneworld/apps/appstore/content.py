"""The seeded catalogue of 应用市场: apps by category with developer, version, size, rating,
downloads, changelog, permissions, price and reviews; the phone's installed apps (some behind
the latest version) and the 愿望单."""

from __future__ import annotations

import random
from typing import Any

CATEGORIES = ("工具", "社交", "影音", "购物", "学习", "游戏", "出行")
NAMES = {
    "工具": ("天天记账", "番茄闹钟", "极速浏览器", "全能扫描王", "清理大师", "小熊输入法",
             "云朵网盘", "指南针助手", "天气早知道"),
    "社交": ("知心聊天", "兴趣圈", "同城交友", "树洞日记", "邻里圈", "校友录", "说说看",
             "悄悄话", "语音派对"),
    "影音": ("星光视频", "嗨唱K歌", "听听电台", "剪影视频剪辑", "光影相机", "追剧助手",
             "好声音播放器", "漫漫看"),
    "购物": ("拼拼乐", "优选商城", "省钱优惠券", "鲜果到家", "比价宝", "海淘速递", "生活超市",
             "折扣猎手"),
    "学习": ("背单词达人", "口语天天练", "作业帮手", "古诗词鉴赏", "编程小课堂", "数学思维乐园",
             "考研题库", "网课助手"),
    "游戏": ("消消乐园", "欢乐斗地主", "星际跑酷", "王国守卫战", "钓鱼大师", "围棋对弈",
             "像素农场", "极限赛车"),
    "出行": ("公交实时查", "地铁通", "顺风拼车", "单车骑行助手", "停车宝", "飞行助手",
             "火车票管家", "自驾导航", "周边游"),
}  # fmt: skip
DEVELOPERS = (
    "杭州云帆科技有限公司", "北京星河互动网络有限公司", "深圳小熊软件有限公司",
    "上海青禾信息技术有限公司", "成都熊猫游戏有限公司", "南京蓝鲸数据有限公司",
    "广州橙子网络科技有限公司", "武汉光谷创想有限公司", "苏州木棉工作室", "厦门海风互娱有限公司",
)  # fmt: skip
CHANGES = (
    "修复了部分机型上闪退的问题", "优化启动速度，打开更快", "新增深色模式", "界面全新改版，更简洁",
    "修复已知问题，提升稳定性", "新增桌面小组件", "优化耗电表现", "支持横屏浏览",
    "搜索结果更精准", "新增夜间护眼提醒", "修复通知无法显示的问题", "降低安装包体积",
    "新增云端同步功能", "优化弱网环境下的加载", "适配最新的系统版本",
)  # fmt: skip
PERMISSIONS = ("相机", "麦克风", "位置信息", "通讯录", "存储", "电话", "短信", "日历", "通知")
REVIEWERS = ("小雨", "阿杰", "晴天", "木子", "大白", "橙子", "老王", "糖糖", "远方", "阿花")
REVIEW_TEXTS = (
    (5, "非常好用，界面清爽没有广告"), (5, "用了两年了，一直很稳定"), (4, "整体不错，偶尔有点卡"),
    (4, "功能齐全，希望再多些设置项"), (3, "还行吧，更新后有些不习惯"), (2, "广告有点多"),
    (5, "客服回复很及时，点赞"), (1, "更新后经常闪退"), (4, "比同类应用好用"),
    (3, "中规中矩，能满足基本需求"),
)  # fmt: skip
AGES = {"游戏": ("12+", "16+"), "社交": ("16+",), "影音": ("12+",)}
PRICES = (600, 1200, 1800, 3000, 1500, 800)
INSTALLED = 12
OUTDATED = 5
PAID = 8


def _version(rng: random.Random) -> tuple[int, int, int]:
    return rng.randrange(1, 9), rng.randrange(1, 10), rng.randrange(0, 10)


def version_label(version: tuple[int, int, int] | list[int]) -> str:
    return ".".join(str(n) for n in version)


def build(rng: random.Random) -> dict[str, Any]:
    apps: list[dict[str, Any]] = []
    for category in CATEGORIES:
        for name in NAMES[category]:
            major, minor, patch = _version(rng)
            reviews = [
                {"user": user, "stars": stars, "text": text}
                for user, (stars, text) in zip(
                    rng.sample(REVIEWERS, 4), rng.sample(REVIEW_TEXTS, 4), strict=True
                )
            ]
            apps.append(
                {
                    "id": f"app-{len(apps) + 1:02d}",
                    "name": name,
                    "category": category,
                    "developer": rng.choice(DEVELOPERS),
                    "version": version_label((major, minor, patch)),
                    "size": round(rng.randrange(80, 2400) / 10, 1),
                    "rating": rng.randrange(32, 50) / 10,
                    "ratings": rng.randrange(300, 90000),
                    "downloads": rng.randrange(5, 9800),
                    "age": rng.choice(AGES.get(category, ("3+",))),
                    "changelog": rng.sample(CHANGES, 3),
                    "permissions": sorted(
                        rng.sample(PERMISSIONS, rng.randrange(2, 6)), key=PERMISSIONS.index
                    ),
                    "price": 0,
                    "iap": category == "游戏" or rng.random() < 0.2,
                    "intro": f"{name}是一款好用的{category}类应用，已有众多用户在使用。",
                    "reviews": reviews,
                }
            )
    for app in rng.sample(apps, PAID):
        app["price"] = rng.choice(PRICES)
    free = [a for a in apps if not a["price"]]
    chosen = rng.sample(free, INSTALLED)
    installed = []
    for i, app in enumerate(chosen):
        version = app["version"]
        if i < OUTDATED:
            major, minor, patch = (int(n) for n in version.split("."))
            version = version_label((major, minor - 1, rng.randrange(0, 10)) if minor > 1
                                    else (major - 1, rng.randrange(1, 10), patch))  # fmt: skip
        installed.append({"id": app["id"], "version": version})
    rng.shuffle(installed)
    others = [a for a in apps if a["id"] not in {i["id"] for i in installed}]
    wishlist = [{"id": a["id"]} for a in rng.sample(others, 2)]
    featured = [a["id"] for a in rng.sample(apps, 16)]
    return {"apps": apps, "installed": installed, "wishlist": wishlist, "featured": featured}


def price_label(price: int) -> str:
    return "免费" if price == 0 else f"¥{price // 100}.{price % 100:02d}"


def downloads_label(downloads: int) -> str:
    return f"{downloads}万"
