"""The messenger's contacts (a friend's profile, remarks) and moments (likes, comments,
publishing a post).
"""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.messenger import content as seed
from phonebuddy.phoneworld.apps.messenger.base import MessengerBase
from phonebuddy.phoneworld.apps.messenger.content import ME
from phonebuddy.phoneworld.apps.messenger.directory import Directory, private_chat_id
from phonebuddy.phoneworld.apps.messenger.timeline import moment_label
from phonebuddy.phoneworld.apps.messenger.widgets import (
    BAR_GREY,
    NICKNAME_BLUE,
    WECHAT_GREEN,
    Avatar,
    Beside,
    ContactRow,
    NavBar,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Column,
    IconButton,
    Image,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    TextField,
    Widget,
)


class PeopleScreens(MessengerBase):
    # -- handlers: contacts --------------------------------------------------------------------
    def save_remark(self, it: Interaction, friend_id: str) -> None:
        remark = it.field("remark").strip()
        directory = self.directory(it)
        if remark != directory.remark(friend_id):
            it.data["remarks"][friend_id] = remark
            it.toast("已保存")
        it.pop()

    @staticmethod
    def clear_remark_field(it: Interaction) -> None:
        if not it.field("remark"):
            it.no_op("the remark field is already empty")
        it.set_field("remark", "")
        it.focus("remark")

    def chat_with(self, it: Interaction, friend_id: str) -> None:
        self.open_chat(it, private_chat_id(friend_id))

    # -- handlers: moments ---------------------------------------------------------------------
    def toggle_like(self, it: Interaction, moment_id: str) -> None:
        liked = it.data["moments"]["liked"]
        if liked.get(moment_id):
            del liked[moment_id]
        else:
            liked[moment_id] = True
        it.set_ui("menu", None)

    def start_comment(self, it: Interaction, moment_id: str) -> None:
        it.set_ui("menu", None)
        it.set_ui("commenting", moment_id)
        it.set_field("comment", "")
        it.focus("comment")

    def send_comment(self, it: Interaction) -> None:
        moment_id, text = it.ui("commenting"), it.field("comment").strip()
        if moment_id is None or not text:
            it.no_op("nothing to comment")
        it.data["moments"]["comments"].append(
            {"id": it.new_id("cm"), "moment": moment_id, "text": text, "time": it.clock}
        )
        it.set_ui("commenting", None)
        it.set_field("comment", "")
        # The comment bar goes away with its field, so the keyboard must go too (Interaction
        # can focus a field but not drop the focus).
        it.device.state["ui"]["focus"] = None

    def publish_moment(self, it: Interaction) -> None:
        text = it.field("moment_text").strip()
        if not text:
            it.toast("说点什么吧")
            it.no_op("an empty moment is not posted")
        it.data["moments"]["posts"].append({"id": it.new_id("mp"), "text": text, "time": it.clock})
        it.pop()

    def _contacts(self, v: View, directory: Directory) -> list[Widget | None]:
        rows: list[Widget | None] = [
            ContactRow("新的朋友", "新", (250, 157, 59), v.go("search"), id="new_friends"),
            ContactRow("群聊", "群", WECHAT_GREEN, v.go("groups"), id="group_chats"),
        ]
        # By index letter, names without a letter ("#") last, as WeChat sorts them.
        people = sorted(
            directory.friends(),
            key=lambda f: (
                seed.initial_of(directory.name(f["id"])).replace("#", "~"),
                directory.name(f["id"]),
            ),
        )
        letter = None
        for friend in people:
            name = directory.name(friend["id"])
            if seed.initial_of(name) != letter:
                letter = seed.initial_of(name)
                rows.append(Text(letter, size=34, color=theme.TEXT_SECONDARY, padding=14))
            rows.append(
                ContactRow(
                    name,
                    name,
                    directory.color(friend["id"]),
                    v.go("profile", friend=friend["id"]),
                    id=f"contact_{friend['id']}",
                )
            )
        rows.append(
            Text(
                f"{len(people)}个朋友",
                size=36,
                color=theme.TEXT_SECONDARY,
                align="center",
                padding=30,
            )
        )
        return rows

    # -- screens: contacts ---------------------------------------------------------------------
    @screen("profile")
    def profile(self, v: View) -> Page:
        directory = self.directory(v)
        friend = directory.friend(v.params["friend"])
        name = directory.name(friend["id"])
        details = [Text(name, size=56, bold=True, id="profile_name")]
        if directory.remark(friend["id"]):
            details.append(
                Text(
                    f"昵称：{friend['nickname']}", color=theme.TEXT_SECONDARY, id="profile_nickname"
                )
            )
        details += [
            Text(f"微信号：{friend['wxid']}", color=theme.TEXT_SECONDARY, id="profile_wxid"),
            Text(f"地区：{friend['region']}", color=theme.TEXT_SECONDARY),
        ]
        body: list[Widget | None] = [
            Beside(Avatar(name, directory.color(friend["id"]), size=180), details, padding=50),
            Spacer(20),
            ListItem(
                "备注",
                trailing=directory.remark(friend["id"]) or "设置备注 ›",
                on_tap=v.go(
                    "remark", friend=friend["id"], fields={"remark": directory.remark(friend["id"])}
                ),
                id="set_remark",
            ),
            ListItem(
                "朋友圈",
                trailing="›",
                on_tap=v.go("moments", author=friend["id"]),
                id="profile_moments",
            ),
            ListItem("个性签名", subtitle=friend["signature"] or "未填写"),
            Spacer(40),
            Column(
                [Button("发消息", v.do(self.chat_with, friend["id"]), id="send_message")],
                padding=40,
            ),
        ]
        return Page(None, body, header=NavBar("", on_back=v.back(), fill=theme.SURFACE))

    @screen("remark")
    def remark(self, v: View) -> Page:
        friend_id = v.params["friend"]
        body = [
            Text("备注名", color=theme.TEXT_SECONDARY),
            Row(
                [
                    TextField(
                        "remark",
                        v.field("remark"),
                        "添加备注名",
                        on_focus=v.focus("remark"),
                        on_submit=v.do(self.save_remark, friend_id),
                    ),
                    IconButton("close", "清除", v.do(self.clear_remark_field), id="remark_clear"),
                ],
                spacing=12,
            ),
            Button("完成", v.do(self.save_remark, friend_id), id="remark_done"),
        ]
        return Page(
            None,
            body,
            header=NavBar("设置备注和标签", on_back=v.back()),
            body_padding=40,
            spacing=30,
        )

    # -- screens: moments ----------------------------------------------------------------------
    @screen("moments")
    def moments(self, v: View) -> Page:
        directory = self.directory(v)
        author = v.params.get("author")
        cover_name = directory.name(author or ME)
        body: list[Widget | None] = [
            Image(f"{cover_name}的朋友圈", height=560, color=(90, 110, 130)),
        ]
        for post in directory.moments(author):
            body.append(self._moment(v, directory, post))
        if len(body) == 1:
            body.append(
                Text("朋友圈暂无内容", color=theme.TEXT_SECONDARY, align="center", padding=60)
            )
        bottom = None
        if v.ui("commenting"):
            bottom = Column(
                [
                    Row(
                        [
                            TextField(
                                "comment",
                                v.field("comment"),
                                "评论",
                                on_focus=v.focus("comment"),
                                on_submit=v.do(self.send_comment),
                            ),
                            Button("发送", v.do(self.send_comment), id="comment_send", height=110),
                        ],
                        weights=(4, 1),
                        spacing=20,
                    )
                ],
                padding=20,
                fill=BAR_GREY,
            )
        return Page(
            None,
            body,
            header=NavBar(
                "朋友圈",
                on_back=v.back(),
                actions=[IconButton("edit", "发表文字", v.go("compose"), id="compose")],
            ),
            bottom=bottom,
            scroll_id="feed",
            background=theme.SURFACE,
        )

    def _moment(self, v: View, directory: Directory, post: dict[str, Any]) -> Widget:
        moment_id = post["id"]
        liked = directory.liked(moment_id)
        likers = [directory.name(f) for f in post["likes"]] + (
            [directory.name(ME)] if liked else []
        )
        comments = [f"{directory.name(c['from'])}：{c['text']}" for c in post["comments"]]
        comments += [f"{directory.name(ME)}：{c['text']}" for c in directory.my_comments(moment_id)]
        parts: list[Widget | None] = [
            Text(
                directory.name(post["author"]),
                size=44,
                bold=True,
                color=NICKNAME_BLUE,
                id=f"author_{moment_id}",
            ),
            Text(post["text"], size=44, id=f"moment_{moment_id}"),
        ]
        if post["photos"]:
            parts.append(
                Image(
                    "照片" if post["photos"] == 1 else f"{post['photos']}张照片",
                    height=320 if post["photos"] == 1 else 240,
                    color=(180, 196, 210),
                )
            )
        parts.append(
            Row(
                [
                    Text(moment_label(post["time"], v.os["clock"]), size=34, color=(160, 160, 160)),
                    IconButton(
                        "more",
                        "赞和评论",
                        v.set_ui("menu", moment_id),
                        id=f"moment_more_{moment_id}",
                        size=90,
                        color=NICKNAME_BLUE,
                    ),
                ]
            )
        )
        if v.ui("menu") == moment_id:
            parts.append(
                Row(
                    [
                        Button(
                            "取消" if liked else "赞",
                            v.do(self.toggle_like, moment_id),
                            id=f"like_{moment_id}",
                            height=100,
                            size=38,
                        ),
                        Button(
                            "评论",
                            v.do(self.start_comment, moment_id),
                            id=f"comment_{moment_id}",
                            height=100,
                            size=38,
                        ),
                    ]
                )
            )
        if likers or comments:
            box: list[Widget | None] = []
            if likers:
                box.append(
                    Text(
                        "♡ " + "，".join(likers),
                        size=38,
                        color=NICKNAME_BLUE,
                        id=f"likes_{moment_id}",
                    )
                )
            box += [Text(c, size=38) for c in comments]
            parts.append(Column(box, spacing=8, padding=20, fill=(247, 247, 247)))
        return Beside(
            Avatar(directory.name(post["author"]), directory.color(post["author"]), size=110),
            parts,
            id=f"post_{moment_id}",
        )

    @screen("compose")
    def compose(self, v: View) -> Page:
        body = [
            TextField(
                "moment_text",
                v.field("moment_text"),
                "这一刻的想法...",
                multiline=True,
                on_focus=v.focus("moment_text"),
            ),
            ListItem("谁可以看", trailing="公开 ›"),
            Button("发表", v.do(self.publish_moment), id="publish"),
        ]
        return Page(
            None,
            body,
            header=NavBar("发表文字", on_back=v.back()),
            background=theme.SURFACE,
            body_padding=40,
            spacing=30,
        )
