"""Circle's own side: publishing a post (title, body, one tag), deleting one's own post behind a
confirmation, collection boards (专辑: make one, add a post to one), the 我 page, and an author's
page listing their posts."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import App, View, screen
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Chip,
    ListItem,
    Page,
    Spacer,
    Text,
    TextField,
    Widget,
    Wrap,
)

RED: Color = (255, 36, 66)
ME = "我"
TODAY = 29  # 11月29日: the day after the newest seeded post
TAGS = ("旅行", "美食", "健身", "读书", "摄影", "穿搭", "家居", "咖啡")
MAX_TITLE = 20
MAX_BODY = 500
MAX_BOARD_NAME = 12


def post_row(v: View, post: dict[str, Any], *, prefix: str = "post") -> ListItem:
    return ListItem(
        post["title"],
        subtitle=f"{post['author']}｜#{post['tag']}｜11月{post['day']}日",
        trailing=f"♥{post['likes']}",
        leading="图",
        leading_color=RED,
        on_tap=v.go("post", post_id=post["id"], fields={"comment": ""}),
        id=f"{prefix}_{post['id']}",
    )


class SocialScreens(App):
    """Publishing, boards and profiles; combined into `Circle`."""

    @staticmethod
    def find(it: Interaction, post_id: str) -> dict[str, Any]:
        for post in it.data["posts"]:
            if post["id"] == post_id:
                return post
        it.no_op(f"no post {post_id}")
        raise AssertionError

    # -- handlers -------------------------------------------------------------------------------
    def publish(self, it: Interaction) -> None:
        title, body = it.field("title").strip(), it.field("body").strip()
        tag = it.ui("tag")
        problem = (
            "请填写标题" if not title
            else f"标题不能超过{MAX_TITLE}字" if len(title) > MAX_TITLE
            else "请填写正文" if not body
            else f"正文不能超过{MAX_BODY}字" if len(body) > MAX_BODY
            else "请选择一个话题" if tag not in TAGS
            else None
        )  # fmt: skip
        if problem is not None:
            it.toast(problem)
            it.no_op(problem)
        post = {"id": it.new_id("mine"), "author": ME, "title": title, "tag": tag, "body": body,
                "likes": 0, "collects": 0, "day": TODAY, "liked": False, "collected": False,
                "comments": [], "place": "", "mine": True}  # fmt: skip
        it.data["posts"].insert(0, post)
        it.reset_to("home")
        it.set_ui("tab", "me")
        it.toast("发布成功")

    def delete_post(self, it: Interaction, post_id: str) -> None:
        post = self.find(it, post_id)
        if not post.get("mine"):
            it.no_op("only one's own posts can be deleted")
        it.data["posts"].remove(post)
        for board in it.data["boards"]:
            if post_id in board["post_ids"]:
                board["post_ids"].remove(post_id)
        it.reset_to("home")
        it.set_ui("tab", "me")
        it.toast("已删除")

    def create_board(self, it: Interaction) -> None:
        name = it.field("board_name").strip()
        if not name or len(name) > MAX_BOARD_NAME:
            it.toast(f"专辑名称需为1-{MAX_BOARD_NAME}个字")
            it.no_op("bad board name")
        if any(b["name"] == name for b in it.data["boards"]):
            it.toast("已有同名专辑")
            it.no_op(f"a board {name} exists")
        it.data["boards"].append({"id": it.new_id("board"), "name": name, "post_ids": []})
        it.pop()
        it.toast("专辑已创建")

    def add_to_board(self, it: Interaction, post_id: str, board_id: str) -> None:
        """Adding to a board collects the post too, as the real app does."""
        post = self.find(it, post_id)
        board = next((b for b in it.data["boards"] if b["id"] == board_id), None)
        if board is None or post_id in board["post_ids"]:
            it.no_op(f"{post_id} is already in {board_id}")
        board["post_ids"].append(post_id)
        if not post["collected"]:
            post["collected"] = True
            post["collects"] += 1
        it.set_ui("dialog", None)
        it.toast(f"已加入专辑“{board['name']}”")

    # -- screens --------------------------------------------------------------------------------
    def me_tab(self, v: View) -> list[Widget | None]:
        mine = [p for p in v.data["posts"] if p.get("mine")]
        rows: list[Widget | None] = [
            Button("发布笔记", v.go("compose", fields={"title": "", "body": ""}), id="compose"),
            Text(f"我的笔记 {len(mine)}", size=40, bold=True, id="my_posts"),
            *(post_row(v, p, prefix="mine") for p in mine),
            Text(f"我的专辑 {len(v.data['boards'])}", size=40, bold=True, id="my_boards"),
        ]
        rows += [
            ListItem(b["name"], subtitle=f"{len(b['post_ids'])}篇笔记",
                     on_tap=v.go("board", board_id=b["id"]), id=f"board_{b['id']}")
            for b in v.data["boards"]
        ]  # fmt: skip
        rows.append(Button("新建专辑", v.go("new_board", fields={"board_name": ""}),
                           id="new_board", style="secondary"))  # fmt: skip
        return rows

    @screen("compose")
    def compose(self, v: View) -> Page:
        tag = v.ui("tag")
        chips = [Chip(f"#{t}", v.set_ui("tag", t), selected=t == tag, id=f"tag_{t}")
                 for t in TAGS]  # fmt: skip
        return Page(
            "发布笔记",
            [
                TextField("title", v.field("title"), f"填写标题（{MAX_TITLE}字以内）",
                          on_focus=v.focus("title")),
                TextField("body", v.field("body"), "添加正文", on_focus=v.focus("body"),
                          multiline=True),
                Text("选择话题", size=36, color=theme.TEXT_SECONDARY),
                Wrap(chips),
                Button("发布", v.do(self.publish), id="publish"),
                Spacer(60),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=24,
        )  # fmt: skip

    @screen("new_board")
    def new_board(self, v: View) -> Page:
        return Page(
            "新建专辑",
            [
                TextField("board_name", v.field("board_name"), "专辑名称",
                          on_focus=v.focus("board_name")),
                Button("创建", v.do(self.create_board), id="create_board"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=24,
        )  # fmt: skip

    @screen("board")
    def board(self, v: View) -> Page:
        board = next(b for b in v.data["boards"] if b["id"] == v.params["board_id"])
        by_id = {p["id"]: p for p in v.data["posts"]}
        rows = [post_row(v, by_id[i]) for i in board["post_ids"] if i in by_id]
        if not rows:
            rows.append(ListItem("专辑里还没有笔记", id="board_empty"))
        return Page(board["name"], [*rows, Spacer(60)], on_back=v.back())

    @screen("author")
    def author_page(self, v: View) -> Page:
        author = v.params["author"]
        followed = author in v.data["following"]
        followers = v.content["followers"][author] + (1 if followed else 0)
        theirs = sorted((p for p in v.data["posts"] if p["author"] == author),
                        key=lambda p: -p["day"])  # fmt: skip
        return Page(
            author,
            [
                Card([
                    Text(author, size=48, bold=True, id="profile_name"),
                    Text(f"粉丝 {followers}｜笔记 {len(theirs)}", size=36,
                         color=theme.TEXT_SECONDARY, id="profile_stats"),
                ]),
                *(post_row(v, p) for p in theirs),
                Spacer(60),
            ],
            on_back=v.back(),
        )  # fmt: skip

    def board_sheet(self, v: View, post_id: str) -> BottomSheet:
        rows: list[Widget | None] = [
            ListItem(b["name"], subtitle=f"{len(b['post_ids'])}篇笔记",
                     on_tap=v.do(self.add_to_board, post_id, b["id"]), id=f"pick_{b['id']}")
            for b in v.data["boards"]
        ]  # fmt: skip
        return BottomSheet("加入专辑", rows, on_dismiss=v.set_ui("dialog", None), id="boards")
