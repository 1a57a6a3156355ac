"""The Circle app (生活圈): a feed of posts with tabs (发现/关注/我) and search, a post's page with
like, collect, add to a board, follow, a typed comment (an empty one is refused) and the
author's page; publishing and boards are in `social`."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label, View, screen
from phonebuddy.phoneworld.apps.circle.social import ME, SocialScreens, post_row
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Dialog,
    Page,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
)

CIRCLE = "com.pw.circle"
RED: Color = (255, 36, 66)
AUTHORS = ("小鹿爱旅行", "吃货阿May", "健身的老王", "读书的猫", "摄影师阿杰", "穿搭日记Lily",
           "家居改造王", "咖啡控小周")  # fmt: skip
TOPICS = (
    ("杭州西湖一日游攻略", "旅行"), ("超简单的番茄炒蛋", "美食"), ("三十天减脂计划", "健身"),
    ("今年读过最好的五本书", "读书"), ("手机拍出大片的技巧", "摄影"), ("秋冬通勤穿搭", "穿搭"),
    ("出租屋改造小妙招", "家居"), ("手冲咖啡入门", "咖啡"), ("成都火锅店推荐", "美食"),
    ("云南自驾路线分享", "旅行"), ("居家瑜伽十分钟", "健身"), ("胶片相机选购指南", "摄影"),
    ("周末露营装备清单", "旅行"), ("低卡早餐合集", "美食"), ("极简主义书桌布置", "家居"),
    ("拿铁拉花练习记录", "咖啡"), ("冬季护肤心得", "穿搭"), ("推理小说入坑指南", "读书"),
)  # fmt: skip
# Posts about a place that Maps knows by this very name (its sights).
PLACE_POSTS = (
    ("灵隐寺半日游路线", "旅行", "灵隐寺"), ("西溪湿地骑行记", "旅行", "西溪湿地"),
    ("宋城千古情观演攻略", "旅行", "宋城"), ("西湖边的日落机位", "摄影", "西湖"),
)  # fmt: skip
TABS = (("discover", "发现"), ("following", "关注"), ("me", ME))
MAX_COMMENT = 100


def link(post_id: str) -> str:
    """The share link of a post."""
    return f"https://circle.example/p/{post_id}"


class Circle(SocialScreens):
    package = CIRCLE
    label = Label(zh="生活圈", en="Circle")
    domain = "social"
    theme = AppTheme(primary=RED)
    icon_text = "圈"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        topics = [(title, tag, "") for title, tag in TOPICS] + list(PLACE_POSTS)
        likes = rng.sample(range(20, 3000), len(topics))
        collects = rng.sample(range(5, 900), len(topics))
        posts = []
        for i, (title, tag, place) in enumerate(topics):
            where = f"地点：{place}。" if place else ""
            posts.append(
                {
                    "id": f"c{i + 1:02d}",
                    "author": AUTHORS[i % len(AUTHORS)],
                    "title": title,
                    "tag": tag,
                    "body": f"{title}，{where}亲测有效，分享给大家！#{tag}",
                    "likes": likes[i],
                    "collects": collects[i],
                    "day": 28 - i % 28,
                    "liked": False,
                    "collected": False,
                    "comments": [],
                    "place": place,
                }
            )
        followers = {a: rng.randrange(100, 50000) for a in AUTHORS}
        return {"posts": posts, "followers": followers}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "posts": [clone(p) for p in content["posts"]],
            "following": list(AUTHORS[:2]),
            "boards": [{"id": "board-default", "name": "默认专辑", "post_ids": []}],
        }

    # -- handlers -------------------------------------------------------------------------------
    def toggle_like(self, it: Interaction, post_id: str) -> None:
        post = self.find(it, post_id)
        post["liked"] = not post["liked"]
        post["likes"] += 1 if post["liked"] else -1
        it.toast("已点赞" if post["liked"] else "已取消点赞")

    def toggle_collect(self, it: Interaction, post_id: str) -> None:
        post = self.find(it, post_id)
        post["collected"] = not post["collected"]
        post["collects"] += 1 if post["collected"] else -1
        it.toast("已收藏" if post["collected"] else "已取消收藏")

    def toggle_follow(self, it: Interaction, author: str) -> None:
        following = it.data["following"]
        if author in following:
            following.remove(author)
            it.set_ui("dialog", None)
            it.toast("已取消关注")
        else:
            following.append(author)
            it.toast("已关注")

    def comment(self, it: Interaction, post_id: str) -> None:
        post = self.find(it, post_id)
        text = it.field("comment").strip()
        if not text:
            it.toast("评论内容不能为空")
            it.no_op("empty comment")
        if len(text) > MAX_COMMENT:
            it.toast(f"评论不能超过{MAX_COMMENT}字")
            it.no_op("comment too long")
        post["comments"].append(text)
        it.set_field("comment", "")
        it.toast("评论成功")

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "discover")
        query = v.field("search").strip()
        rows: list[Widget | None] = []
        if tab == "me":
            return Page("生活圈", [*self.me_tab(v), Spacer(60)],
                        header=Tabs(TABS, tab, v.on_select("tab")))  # fmt: skip
        for post in v.data["posts"]:
            if tab == "following" and post["author"] not in v.data["following"]:
                continue
            haystack = " ".join((post["title"], f"#{post['tag']}", post["author"]))
            if query and query not in haystack:
                continue
            rows.append(post_row(v, post))
        if not rows:
            empty = f"没有找到“{query}”相关笔记" if query else "还没有关注的人发布笔记"
            rows.append(Text(empty, color=theme.TEXT_SECONDARY, padding=40, align="center"))
        search = TextField("search", v.field("search"), "搜索笔记/标签/作者",
                           on_focus=v.focus("search"))  # fmt: skip
        return Page(
            "生活圈", [search, *rows, Spacer(60)], header=Tabs(TABS, tab, v.on_select("tab"))
        )

    @screen("post")
    def post(self, v: View) -> Page:
        post = next((p for p in v.data["posts"] if p["id"] == v.params["post_id"]), None)
        if post is None:
            return Page("笔记详情", [Text("笔记已删除", padding=40)], on_back=v.back())
        comments = [
            Text(f"我：{c}", size=36, id=f"comment_{i}") for i, c in enumerate(post["comments"])
        ]
        return Page(
            "笔记详情",
            [
                self.author_card(v, post),
                Card([Text("［图片］", size=60, align="center", padding=60)]),
                Text(post["title"], size=48, bold=True, id="title"),
                Text(post["body"], size=38, id="body"),
                Text(f"11月{post['day']}日发布", size=32, color=theme.TEXT_SECONDARY),
                Text("分享链接（长按复制）", size=32, color=theme.TEXT_SECONDARY),
                Text(link(post["id"]), size=34, color=RED, id="link"),
                Button(f"{'已赞' if post['liked'] else '点赞'} {post['likes']}",
                       v.do(self.toggle_like, post["id"]), id="like"),
                Button(f"{'已收藏' if post['collected'] else '收藏'} {post['collects']}",
                       v.do(self.toggle_collect, post["id"]), id="collect", style="secondary"),
                Button("加入专辑", v.set_ui("dialog", "boards"), id="to_board",
                       style="secondary"),
                Text(f"评论 {len(post['comments'])}", size=38, bold=True),
                *comments,
                TextField("comment", v.field("comment"), "说点什么…",
                          on_focus=v.focus("comment")),
                Button("发送", v.do(self.comment, post["id"]), id="send_comment"),
                Spacer(60),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
            overlay=self.post_dialog(v, post),
        )  # fmt: skip

    def author_card(self, v: View, post: dict[str, Any]) -> Card:
        author = post["author"]
        if post.get("mine"):
            delete = Button("删除笔记", v.set_ui("dialog", "delete"), id="delete_post",
                            style="secondary")  # fmt: skip
            return Card([Text(author, size=40, bold=True, id="author"), delete])
        followed = author in v.data["following"]
        followers = v.content["followers"][author] + (1 if followed else 0)
        follow = (
            Button("已关注", v.set_ui("dialog", "unfollow"), id="follow", style="secondary")
            if followed
            else Button("关注", v.do(self.toggle_follow, author), id="follow")
        )
        return Card([
            Text(author, size=40, bold=True, id="author",
                 on_tap=v.go("author", author=author)),
            Text(f"粉丝 {followers}", size=34, color=theme.TEXT_SECONDARY, id="followers"),
            follow,
        ])  # fmt: skip

    def post_dialog(self, v: View, post: dict[str, Any]) -> Dialog | BottomSheet | None:
        dialog = v.ui("dialog")
        if dialog == "unfollow" and post["author"] in v.data["following"]:
            return v.confirm(f"不再关注“{post['author']}”？",
                             v.do(self.toggle_follow, post["author"]), label="不再关注",
                             confirm_id="confirm_unfollow", danger=True)  # fmt: skip
        if dialog == "delete" and post.get("mine"):
            return v.confirm("删除这篇笔记？", v.do(self.delete_post, post["id"]), label="删除",
                             confirm_id="confirm_delete", danger=True)  # fmt: skip
        if dialog == "boards":
            return self.board_sheet(v, post["id"])
        return None
