"""What the messenger's task templates share: paths into its data, oracle steps (open the app
past its permission prompt, open a chat, enter a mini-program by search or from the pull-down
list, confirm a wallet payment) and verifier checks (a new message)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from phonebuddy.phoneworld.apps.messenger.base import PACKAGE, WALLET
from phonebuddy.phoneworld.apps.messenger.content import ME
from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.apps.messenger.miniprograms import PROGRAMS
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Swipe, from_pixels

MESSENGER = PACKAGE
NOTES = "com.pw.notes"
ROOT = f"apps/{MESSENGER}"
MESSAGES = f"{ROOT}/messages"
PAY_CONFIRM = f"{WALLET}:id/pay_confirm"
# First-use prompts of the mini-programs: an agent may answer them either way.
FRICTION = (
    f"{ROOT}/mini/coffee/welcome_shown",
    f"{ROOT}/mini/coffee/coupons",
    f"{ROOT}/mini/bike/location",
)


def mini(name: str, *parts: str) -> str:
    """The path of a mini-program's data: mini("coffee", "orders")."""
    return "/".join((ROOT, "mini", name, *parts))


def content(world: World) -> Any:
    return world.content(MESSENGER)


def shown_name(friend: Any) -> str:
    """How a fresh phone shows a friend: the seeded remark, else the nickname."""
    return str(friend["remark"] or friend["nickname"])


def friend_fields(friend: Any) -> Params:
    """A friend as the messenger's templates name them: `friend` (the id) and `name` (as a
    fresh phone shows them)."""
    return {"friend": str(friend["id"]), "name": shown_name(friend)}


def friend_by_id(world: World, friend_id: str) -> Any:
    return next(f for f in content(world)["friends"] if f["id"] == friend_id)


def facts(world: World, kind: str, **where: Any) -> list[Any]:
    return [
        f
        for f in content(world)["facts"]
        if f["kind"] == kind and all(f.get(k) == v for k, v in where.items())
    ]


class MessengerTemplate(TaskTemplate):
    """A messenger template: `check` holds the task's own expectations; answering a
    mini-program's first-use prompt (coupon, location) is never held against the agent."""

    apps = (MESSENGER,)

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        for path in FRICTION:
            diff.touched(path)
        return self.check(diff, params, answer)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        raise NotImplementedError


# -- verifier checks -------------------------------------------------------------------------


def friend_says(
    it: Interaction, friend_id: str, lines: Sequence[str | tuple[bool, str]], *, key: str
) -> None:
    """Setup: messages in the private chat with `friend_id`, a minute apart, the last three
    minutes ago, with the ids `task-<key>-1`, `-2`... A line is the friend's, or
    `(theirs, text)` where False makes it one I sent."""
    start = it.clock - 60 * (len(lines) + 2)
    said = [(True, line) if isinstance(line, str) else line for line in lines]
    it.app_data(MESSENGER)["messages"] += [
        {"id": f"task-{key}-{i + 1}", "chat": private_chat_id(friend_id),
         "from": friend_id if theirs else ME, "kind": "text", "text": text, "time": start + 60 * i}
        for i, (theirs, text) in enumerate(said)
    ]  # fmt: skip


def one_message(diff: StateDiff, chat_id: str) -> tuple[dict[str, Any] | None, list[str]]:
    """The single message I sent in this episode, which must be in `chat_id`."""
    added = diff.added(MESSAGES)
    if len(added) != 1:
        return None, [f"expected one new message, found {len(added)}"]
    message = added[0]
    problems = []
    if message["chat"] != chat_id:
        problems.append(f"the message went to {message['chat']}, expected {chat_id}")
    if message["from"] != ME:
        problems.append("the message is not from me")
    return message, problems


def same_text(said: str, expected: str) -> bool:
    """Messages and notes match when they differ only in surrounding blanks."""
    return said.strip() == expected.strip()


# -- oracle steps ----------------------------------------------------------------------------


def open_messenger(ui: OracleUI) -> Iterator[Action]:
    """Bring the messenger up on its home screen (it reopens where it was left)."""
    yield from ui.open_app("微信")
    for _ in range(12):
        if ui.visible("tab_chats"):
            return
        yield ui.back()
    raise OracleError("could not get back to the messenger's home screen")


def home_tab(ui: OracleUI, tab: str) -> Iterator[Action]:
    yield from open_messenger(ui)
    yield ui.tap(f"tab_{tab}")


def open_private_chat(ui: OracleUI, friend_name: str, friend_id: str) -> Iterator[Action]:
    """Search the friend by name and open the chat with them."""
    yield from open_messenger(ui)
    yield ui.tap("search")
    yield from ui.type_into("query", friend_name)
    yield ui.tap(f"result_{friend_id}")


def open_profile(ui: OracleUI, friend_id: str) -> Iterator[Action]:
    yield from home_tab(ui, "contacts")
    yield from ui.scroll_to(f"contact_{friend_id}", scroll="contacts")
    yield ui.tap(f"contact_{friend_id}")


def open_group(ui: OracleUI, group_id: str) -> Iterator[Action]:
    yield from home_tab(ui, "contacts")
    yield ui.tap("group_chats")
    yield ui.tap(f"group_{group_id}")


def pull_down(ui: OracleUI, scroll: str = "content") -> Swipe:
    """Drag the top of a list downwards (pulls the chat list down to the mini-programs)."""
    container = ui.find(scroll)
    if container is None:
        raise OracleError(f"scroll container {scroll!r} is not on screen")
    b = container.bounds
    x, height = (b.left + b.right) // 2, b.bottom - b.top
    start, end = (x, b.top + height // 6), (x, b.top + height * 2 // 3)
    return Swipe(
        coordinate=from_pixels(start, ui.device.screen),
        coordinate2=from_pixels(end, ui.device.screen),
    )


def open_mini(ui: OracleUI, name: str, *, via_recent: bool = False) -> Iterator[Action]:
    """Enter a mini-program: from the pull-down recent list when it is there, else by search in
    发现 → 小程序."""
    yield from open_messenger(ui)
    if via_recent:
        yield pull_down(ui)
        if ui.visible(f"recent_{name}"):
            yield ui.tap(f"recent_{name}")
            return
        yield ui.tap("panel_search")
    else:
        yield ui.tap("tab_discover")
        yield ui.tap("discover_minis")
    yield from ui.type_into("mini_search", PROGRAMS[name].keywords[0])
    yield ui.tap(f"mini_result_{name}")


def pass_first_use_prompts(ui: OracleUI) -> Iterator[Action]:
    """Decline the coupon, allow the location, as a user would who just wants to get on."""
    for widget in ("coupon_close", "location_allow"):
        if ui.visible(widget):
            yield ui.tap(widget)
