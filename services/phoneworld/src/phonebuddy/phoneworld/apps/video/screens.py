"""The screens of 短视频: the feed, a video's page, search, a creator's profile and 我."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.video.content import count, link, spot_label
from phonebuddy.phoneworld.apps.video.handlers import VideoHandlers
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Dialog,
    Handler,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

WHITE: Color = (255, 255, 255)
PINK: Color = (254, 44, 85)
FEED_TABS = (("rec", "推荐"), ("fol", "关注"))
SEARCH_TABS = (("videos", "视频"), ("users", "用户"))
ME_TABS = (("likes", "喜欢"), ("collects", "收藏"), ("following", "关注"), ("history", "历史"))


def creator_of(content: Any, creator_id: str) -> Any:
    return next(c for c in content["creators"] if c["id"] == creator_id)


def followers_now(content: Any, data: Any, creator_id: str) -> int:
    """The follower count shown: the seeded one, plus or minus this phone's own follow."""
    base = creator_of(content, creator_id)["followers"]
    return base + (creator_id in data["following"]) - (creator_id in content["following"])


def newest_first(videos: list[Any]) -> list[Any]:
    return sorted(videos, key=lambda video: video["ago"])


class VideoScreens(VideoHandlers):
    @staticmethod
    def video_of(v: View, video_id: str) -> Any:
        return next((x for x in v.data["videos"] if x["id"] == video_id), None)

    def feed_ids(self, v: View, tab: str) -> list[str]:
        if tab == "rec":
            return list(v.content["feed"])
        mine = [x for x in v.data["videos"] if x["creator"] in v.data["following"]]
        return [x["id"] for x in newest_first(mine)]

    def player(self, v: View, video: Any, *, on_feed: bool) -> list[Widget | None]:
        """The video filling the screen (its poster with caption, author and music) and the
        like / comment / collect / share buttons under it."""
        creator = creator_of(v.content, video["creator"])
        spot = spot_label(video)
        pad = 330 if on_feed else 150  # the feed's video fills the screen
        poster = Card(
            [
                Spacer(pad),
                Text(video["caption"], size=54, bold=True, color=WHITE, id="caption"),
                Text(spot, size=40, color=WHITE, id="spot") if spot else None,
                Text(f"@{creator['name']}", size=44, bold=True, color=WHITE, id="author",
                     on_tap=v.go("profile", creator_id=creator["id"])),
                Text(f"♪ {video['music']}", size=36, color=WHITE, id="music"),
                Text(f"{video['ago']}天前 · 播放 {count(video['views'])}", size=34, color=WHITE),
                Spacer(pad),
            ],
            fill=tuple(video["poster"]),  # type: ignore[arg-type]
            padding=48,
            spacing=20,
        )  # fmt: skip
        comments = v.do(self.open_video, video["id"]) if on_feed else v.focus("comment")
        liked, collected = video["liked"], video["collected"]
        buttons = Row(
            [
                Button(f"{'已赞' if liked else '点赞'} {count(video['likes'])}",
                       v.do(self.toggle_like, video["id"]), id="like",
                       style="primary" if liked else "secondary", height=110, size=32),
                Button(f"评论 {count(video['comments'])}", comments, id="comments",
                       style="secondary", height=110, size=32),
                Button(f"{'已收藏' if collected else '收藏'} {count(video['collects'])}",
                       v.do(self.toggle_collect, video["id"]), id="collect",
                       style="primary" if collected else "secondary", height=110, size=32),
                Button(f"分享 {count(video['shares'])}", v.set_ui("dialog", "share"), id="share",
                       style="secondary", height=110, size=32),
            ],
            spacing=12,
            weights=(1, 1, 1, 1),
        )  # fmt: skip
        return [poster, buttons]

    def share_sheet(self, v: View, video_id: str) -> Dialog:
        return v.confirm(
            "分享给朋友",
            v.do(self.copy_link, video_id),
            message=f"视频链接：{link(video_id)}",
            label="复制链接",
            confirm_id="copy_link",
        )

    def follow_button(self, v: View, creator_id: str) -> Button:
        if creator_id in v.data["following"]:
            return Button("已关注", v.set_ui("dialog", "unfollow"), id="follow", style="secondary",
                          height=110)  # fmt: skip
        return Button("关注", v.do(self.follow, creator_id), id="follow", height=110)

    def unfollow_dialog(self, v: View, creator_id: str) -> Dialog:
        name = creator_of(v.content, creator_id)["name"]
        return v.confirm(
            f"确定不再关注“{name}”？",
            v.do(self.unfollow, creator_id),
            label="不再关注",
            confirm_id="confirm_unfollow",
            danger=True,
        )

    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "rec")
        ids = self.feed_ids(v, tab)
        actions = [
            IconButton("search", "搜索", v.go("search", fields={"query": ""}), id="search"),
            IconButton("我", "我", v.go("me"), id="me"),
        ]
        header = Tabs(FEED_TABS, tab, v.on_select("tab"))
        if not ids:
            empty = Text("你关注的人还没有发布作品", color=theme.TEXT_SECONDARY, padding=60,
                         align="center")  # fmt: skip
            return Page("短视频", [empty], header=header, actions=actions,
                        **self.tab_swipes(v, tab))  # fmt: skip
        index = min(v.ui(f"index_{tab}", 0), len(ids) - 1)
        video = self.video_of(v, ids[index])
        pager = Row(
            [
                Button("上一个", v.do(self.page_feed, tab, ids, index - 1), id="prev",
                       style="secondary", enabled=index > 0, height=110),
                Text(f"{index + 1}/{len(ids)}", size=34, color=theme.TEXT_SECONDARY,
                     align="center", id="position"),
                Button("下一个", v.do(self.page_feed, tab, ids, index + 1), id="next",
                       style="secondary", enabled=index < len(ids) - 1, height=110),
            ],
            weights=(2, 1, 2),
        )  # fmt: skip
        return Page(
            "短视频",
            [*self.player(v, video, on_feed=True), pager, Spacer(40)],
            header=header,
            actions=actions,
            body_padding=24,
            spacing=20,
            overlay=self.share_sheet(v, video["id"]) if v.ui("dialog") == "share" else None,
            on_pull_down=v.do(self.page_feed, tab, ids, index - 1) if index > 0 else None,
            on_swipe_up=v.do(self.page_feed, tab, ids, index + 1) if index < len(ids) - 1 else None,
            **self.tab_swipes(v, tab),
        )

    @staticmethod
    def tab_swipes(v: View, tab: str) -> dict[str, Handler]:
        """Swiping left shows the tab to the right (关注), swiping right the one to the left."""
        names = [name for name, _ in FEED_TABS]
        at = names.index(tab)
        swipes = {}
        if at + 1 < len(names):
            swipes["on_swipe_left"] = v.set_ui("tab", names[at + 1])
        if at > 0:
            swipes["on_swipe_right"] = v.set_ui("tab", names[at - 1])
        return swipes

    @screen("video")
    def video_page(self, v: View) -> Page:
        video = self.video_of(v, v.params["video_id"])
        creator = creator_of(v.content, video["creator"])
        mine = [
            Text(f"我：{text}", size=36, id=f"my_comment_{i}")
            for i, text in enumerate(video["my_comments"])
        ]
        dialog = None
        if v.ui("dialog") == "share":
            dialog = self.share_sheet(v, video["id"])
        elif v.ui("dialog") == "unfollow" and creator["id"] in v.data["following"]:
            dialog = self.unfollow_dialog(v, creator["id"])
        fans = followers_now(v.content, v.data, creator["id"])
        return Page(
            "视频",
            [
                ListItem(creator["name"], subtitle=f"粉丝 {fans}", leading=creator["name"][:1],
                         leading_color=PINK, on_tap=v.go("profile", creator_id=creator["id"]),
                         id="creator", action=self.follow_button(v, creator["id"])),
                *self.player(v, video, on_feed=False),
                Text("分享链接（长按复制）", size=32, color=theme.TEXT_SECONDARY),
                Text(link(video["id"]), size=36, color=PINK, id="link"),
                Text(f"评论 {video['comments']}", size=40, bold=True, id="comment_count"),
                *mine,
                TextField("comment", v.field("comment"), "善语结善缘，恶言伤人心",
                          on_focus=v.focus("comment")),
                Button("发送", v.do(self.comment, video["id"]), id="send_comment", height=110),
                Spacer(60),
            ],
            on_back=v.back(),
            body_padding=24,
            spacing=20,
            overlay=dialog,
        )  # fmt: skip

    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("query").strip()
        tab, sort = v.ui("tab", "videos"), v.ui("sort", "hot")
        rows: list[Widget | None] = []
        if tab == "videos":
            rows.append(Wrap([
                Chip("最热", v.set_ui("sort", "hot"), selected=sort == "hot", id="sort_hot"),
                Chip("最新", v.set_ui("sort", "new"), selected=sort == "new", id="sort_new"),
            ]))  # fmt: skip
        if not query:
            rows.append(Text("输入关键词，搜索视频或用户", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        elif tab == "videos":
            found = []
            for video in v.data["videos"]:
                creator = creator_of(v.content, video["creator"])
                haystack = " ".join((video["caption"], video["spot"], video["topic"],
                                     creator["name"]))  # fmt: skip
                if query.lower() in haystack.lower():
                    found.append((video, creator))
            if sort == "hot":
                found.sort(key=lambda pair: -pair[0]["likes"])
            else:
                found.sort(key=lambda pair: pair[0]["ago"])
            for video, creator in found:
                rows.append(ListItem(
                    video["caption"], subtitle=f"@{creator['name']} · {video['ago']}天前",
                    trailing=f"♥{count(video['likes'])}", leading="▶",
                    leading_color=tuple(video["poster"]),  # type: ignore[arg-type]
                    on_tap=v.do(self.open_video, video["id"]), id=f"video_{video['id']}",
                ))  # fmt: skip
        else:
            for creator in v.content["creators"]:
                if query.lower() not in f"{creator['name']} {creator['topic']}".lower():
                    continue
                works = sum(x["creator"] == creator["id"] for x in v.data["videos"])
                fans = followers_now(v.content, v.data, creator["id"])
                rows.append(ListItem(
                    creator["name"], subtitle=f"粉丝 {fans} · 作品 {works}",
                    leading=creator["name"][:1], leading_color=PINK,
                    on_tap=v.go("profile", creator_id=creator["id"]), id=f"user_{creator['id']}",
                ))  # fmt: skip
        if query and len(rows) <= (tab == "videos"):
            rows.append(Text(f"没有找到与“{query}”相关的内容", color=theme.TEXT_SECONDARY,
                             padding=40, align="center"))  # fmt: skip
        field = TextField("query", v.field("query"), "搜索视频、用户", on_focus=v.focus("query"))
        return Page(
            "搜索",
            [field, *rows, Spacer(60)],
            header=Tabs(SEARCH_TABS, tab, v.on_select("tab")),
            on_back=v.back(),
            body_padding=24,
            spacing=16,
        )

    @screen("profile")
    def profile(self, v: View) -> Page:
        creator = creator_of(v.content, v.params["creator_id"])
        works = newest_first([x for x in v.data["videos"] if x["creator"] == creator["id"]])
        rows = [
            ListItem(video["caption"], subtitle=f"{video['ago']}天前 · 播放 {video['views']}",
                     trailing=f"♥{video['likes']}", leading="▶",
                     leading_color=tuple(video["poster"]),  # type: ignore[arg-type]
                     on_tap=v.do(self.open_video, video["id"]), id=f"work_{video['id']}")
            for video in works
        ]  # fmt: skip
        fans = followers_now(v.content, v.data, creator["id"])
        dialog = None
        if v.ui("dialog") == "unfollow" and creator["id"] in v.data["following"]:
            dialog = self.unfollow_dialog(v, creator["id"])
        head = Card(
            [
                Text(creator["name"], size=52, bold=True, id="creator_name"),
                Text(creator["bio"], size=36, color=theme.TEXT_SECONDARY),
                Text(f"粉丝 {fans}", size=38, id="followers"),
                Text(f"获赞 {sum(x['likes'] for x in works)}", size=38, id="total_likes"),
                self.follow_button(v, creator["id"]),
            ]
        )
        return Page(
            creator["name"],
            [head, Text(f"作品 {len(works)}", size=40, bold=True, id="works"), *rows, Spacer(60)],
            on_back=v.back(),
            body_padding=24,
            spacing=16,
            overlay=dialog,
        )

    @screen("me")
    def me(self, v: View) -> Page:
        tab = v.ui("tab", "likes")
        rows: list[Widget | None] = []
        if tab == "following":
            for creator_id in v.data["following"]:
                creator = creator_of(v.content, creator_id)
                fans = followers_now(v.content, v.data, creator_id)
                rows.append(ListItem(creator["name"], subtitle=f"粉丝 {fans}",
                                     leading=creator["name"][:1], leading_color=PINK,
                                     on_tap=v.go("profile", creator_id=creator_id),
                                     id=f"following_{creator_id}"))  # fmt: skip
        else:
            if tab == "history":
                videos = [self.video_of(v, i) for i in v.data["history"]]
                if videos:
                    rows.append(Button("清空观看历史", v.set_ui("dialog", "clear"),
                                       id="clear_history", style="danger", height=110))  # fmt: skip
            else:
                key = "liked" if tab == "likes" else "collected"
                videos = [x for x in v.data["videos"] if x[key]]
            for video in videos:
                name = creator_of(v.content, video["creator"])["name"]
                rows.append(ListItem(video["caption"], subtitle=f"@{name}",
                                     on_tap=v.do(self.open_video, video["id"]),
                                     id=f"{tab}_{video['id']}"))  # fmt: skip
        if not rows:
            empty = {"likes": "还没有喜欢的视频", "collects": "还没有收藏的视频",
                     "following": "还没有关注任何人", "history": "暂无观看历史"}[tab]  # fmt: skip
            rows.append(Text(empty, color=theme.TEXT_SECONDARY, padding=40, align="center"))
        dialog = None
        if v.ui("dialog") == "clear" and v.data["history"]:
            dialog = v.confirm(
                "清空观看历史？",
                v.do(self.clear_history),
                message="清空后将无法恢复。",
                label="清空",
                confirm_id="confirm_clear",
                danger=True,
            )
        return Page(
            "我",
            [*rows, Spacer(60)],
            header=Tabs(ME_TABS, tab, v.on_select("tab")),
            on_back=v.back(),
            body_padding=24,
            spacing=16,
            overlay=dialog,
        )
