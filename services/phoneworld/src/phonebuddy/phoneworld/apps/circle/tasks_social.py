"""Circle templates of its own side: publishing a post, a board of collected posts, and the
total likes on an author's page (a sum over a scrolled list)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.circle.app import AUTHORS, CIRCLE
from phonebuddy.phoneworld.apps.circle.social import ME
from phonebuddy.phoneworld.tasks.answers import Expectation, Number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

ROOT = f"apps/{CIRCLE}"
POSTS = f"{ROOT}/posts"
BOARDS = f"{ROOT}/boards"
NEW_POSTS = (
    ("周末citywalk路线", "旅行", "从河坊街走到南宋御街，全程两小时，沿途小吃很多"),
    ("十分钟早餐燕麦杯", "美食", "燕麦、酸奶和蓝莓，前一晚做好放冰箱"),
    ("通勤路上读完的书", "读书", "这个月在地铁上读完了三本书，最推荐第二本"),
    ("阳台小花园改造", "家居", "两百块改造朝南阳台，种了薄荷和小番茄"),
    ("第一次手冲的心得", "咖啡", "水温九十二度，粉水比一比十五，味道干净"),
    ("跑步三个月的变化", "健身", "每周三次五公里，体脂降了四个点"),
)  # fmt: skip
BOARD_NAMES = ("周末去哪", "想吃的", "健身计划", "待读书单", "装修灵感")


def posts(world: World) -> list[Any]:
    return list(world.content(CIRCLE)["posts"])


def new_post_problems(diff: StateDiff, title: str, tag: str, body: str) -> list[str]:
    post, problems = one_added(diff, POSTS, "post")
    if post is None:
        return problems
    wanted = {"title": title, "tag": tag, "body": body, "author": ME, "mine": True}
    return problems + [
        f"the new post's {key} is {post.get(key)!r}, expected {value!r}"
        for key, value in wanted.items()
        if post.get(key) != value
    ]


def publish(ui: OracleUI, title: str, tag: str, body: str | None) -> Iterator[Action]:
    """From Circle's 我 tab: write and publish a post (`body` None: it is pasted already)."""
    yield ui.tap("compose")
    yield from ui.type_into("title", title)
    if body is not None:
        yield from ui.type_into("body", body)
    yield ui.back()  # the keyboard
    yield ui.tap(f"tag_{tag}")
    yield ui.tap("publish")


def open_me(ui: OracleUI) -> Iterator[Action]:
    yield ui.open("生活圈")
    yield ui.tap("tab_me")


class CircleTemplate(TaskTemplate):
    category = Category.SINGLE_APP
    apps = (CIRCLE,)


class PublishPost(CircleTemplate):
    id = "circle.publish_post"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        title, tag, body = rng.choice(NEW_POSTS)
        return {"title": title, "tag": tag, "body": body}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, tag, b = params["title"], params["tag"], params["body"]
        return phrased(
            zh=[f"在生活圈发一篇笔记，标题“{t}”，正文“{b}”，话题选“{tag}”",
                f"帮我在生活圈发布笔记“{t}”，内容写“{b}”，带上“{tag}”话题",
                f"用生活圈发条笔记：标题是“{t}”，正文“{b}”，选“{tag}”这个话题"],
            en=[f"Publish a post in Circle titled '{t}' with the text '{b}' and the topic '{tag}'",
                f"Please post '{t}' on Circle, body '{b}', under the topic '{tag}'",
                f"In Circle, write a new post: title '{t}', text '{b}', topic '{tag}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return new_post_problems(diff, params["title"], params["tag"], params["body"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_me(ui)
        yield from publish(ui, params["title"], params["tag"], params["body"])


class BoardOfTwo(CircleTemplate):
    """A new board, and two posts added to it (which collects them)."""

    id = "circle.board_of_two"
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        first, second = pick(rng, posts(world), 2)
        return {"board": rng.choice(BOARD_NAMES), "ids": [first["id"], second["id"]],
                "titles": [first["title"], second["title"]]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        board, (a, b) = params["board"], params["titles"]
        return phrased(
            zh=[f"在生活圈新建专辑“{board}”，把“{a}”和“{b}”两篇笔记加进去",
                f"帮我建一个叫“{board}”的专辑，再把笔记“{a}”“{b}”收进这个专辑",
                f"生活圈里把“{a}”和“{b}”加入一个新专辑“{board}”"],
            en=[f"In Circle, create the board '{board}' and add the posts '{a}' and '{b}' to it",
                f"Make a new Circle board called '{board}', then put '{a}' and '{b}' in it",
                f"Add the posts '{a}' and '{b}' to a new board '{board}' in Circle"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        board, problems = one_added(diff, BOARDS, "board")
        if board is None:
            return problems
        if board["name"] != params["board"]:
            problems.append(f"the board is named {board['name']!r}, not {params['board']!r}")
        if sorted(board["post_ids"]) != sorted(params["ids"]):
            problems.append(f"the board holds {board['post_ids']}, expected {params['ids']}")
        before = {p["id"]: p for p in diff.value_before(POSTS)}
        for post_id in params["ids"]:
            path = f"{POSTS}[{post_id}]"
            if before[post_id]["collected"]:
                continue
            diff.touched(f"{path}/collected")
            diff.touched(f"{path}/collects")
            if diff.value_after(f"{path}/collected") is not True:
                problems.append(f"{post_id} is not collected")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_me(ui)
        yield from ui.scroll_to("new_board")
        yield ui.tap("new_board")
        yield from ui.type_into("board_name", params["board"])
        yield ui.tap("create_board")
        yield ui.tap("tab_discover")
        for i, title in enumerate(params["titles"]):
            if i:
                yield ui.back()
            yield from ui.scroll_to(text=title)
            yield ui.tap(text=title)
            yield from ui.scroll_to("to_board")
            yield ui.tap("to_board")
            yield ui.tap(text=params["board"])


class AuthorTotalLikes(CircleTemplate):
    """QA, a sum: the likes of every post on an author's page."""

    id = "circle.author_total_likes"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        author = rng.choice(AUTHORS)
        total = sum(p["likes"] for p in posts(world) if p["author"] == author)
        return {"author": author, "total": total}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a = params["author"]
        return phrased(
            zh=[f"生活圈里“{a}”的所有笔记加起来一共有多少个赞？",
                f"去“{a}”的主页，把每篇笔记的点赞数加起来告诉我",
                f"算一下生活圈作者“{a}”全部笔记的总点赞数"],
            en=[f"How many likes do all of '{a}''s posts in Circle have together?",
                f"Go to '{a}''s page in Circle and add up the likes of every post",
                f"Work out the total likes over all posts by '{a}' in Circle"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        theirs = [p for p in diff.value_before(POSTS) if p["author"] == params["author"]]
        return Number(sum(p["likes"] for p in theirs), unit="个")

    def wrong_answer(self, params: Params) -> str:
        return str(params["total"] + 100)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("生活圈")
        yield from ui.type_into("search", params["author"])
        first = next(n for n in ui.find_all() if ":id/post_" in n.resource_id)
        yield ui.tap(first.resource_id.rpartition(":id/")[2])
        yield ui.tap("author")
        likes: dict[str, int] = {}
        while True:
            for node in ui.find_all():
                if ":id/post_" in node.resource_id:
                    heart = next(t for t in texts(node) if t.startswith("♥"))
                    likes[node.resource_id] = int(heart.removeprefix("♥"))
            if ui.device.scroll_room("content")[1] <= 0:
                break
            yield ui.page_down()
        yield Answer(text=f"一共{sum(likes.values())}个赞")


TEMPLATES: tuple[TaskTemplate, ...] = (PublishPost(), BoardOfTwo(), AuthorTotalLikes())
