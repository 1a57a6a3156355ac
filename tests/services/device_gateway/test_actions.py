"""Every protocol action -> the device commands that perform it, in pixels of the real screen."""

from __future__ import annotations

import pytest

from phonebuddy.device_gateway.actions import (
    ActionPlan,
    AppTable,
    keycode_argument,
    launch_command,
    plan_action,
)
from phonebuddy.device_gateway.phone import (
    parse_focused_package,
    parse_wm_size,
    png_size,
)
from phonebuddy.protocol import (
    ACTION_NAMES,
    Action,
    Answer,
    CallTool,
    Click,
    Direction,
    Key,
    LongPress,
    Open,
    ScreenSize,
    Swipe,
    SystemButton,
    SystemButtonName,
    Terminate,
    TerminateStatus,
    Type,
    Wait,
)

SCREEN = ScreenSize(width=1080, height=2400)
APPS = AppTable({"Notes": "com.pw.notes", "备忘录": "com.pw.notes"})
LAUNCH = ("-c", "android.intent.category.LAUNCHER", "1")

CASES: list[tuple[Action, ActionPlan]] = [
    (Click(coordinate=(0, 0)), ActionPlan("applied", (("input", "tap", "0", "0"),))),
    (Click(coordinate=(1000, 1000)), ActionPlan("applied", (("input", "tap", "1079", "2399"),))),
    (Click(coordinate=(500, 500)), ActionPlan("applied", (("input", "tap", "540", "1200"),))),
    (
        LongPress(coordinate=(500, 250), time=1.5),
        ActionPlan("applied", (("input", "swipe", "540", "600", "540", "600", "1500"),)),
    ),
    (
        Swipe(coordinate=(100, 900), coordinate2=(100, 100)),
        ActionPlan("applied", (("input", "swipe", "108", "2159", "108", "240", "300"),)),
    ),
    (
        Swipe(direction=Direction.UP),
        ActionPlan("applied", (("input", "swipe", "540", "1919", "540", "480", "300"),)),
    ),
    (
        Swipe(direction=Direction.LEFT),
        ActionPlan("applied", (("input", "swipe", "863", "1200", "216", "1200", "300"),)),
    ),
    (Type(text="hi there"), ActionPlan("applied", (("input", "text", "hi%sthere"),))),
    (Type(text="\t\x00"), ActionPlan("no_op", note="nothing to type")),
    (Key(text="enter"), ActionPlan("applied", (("input", "keyevent", "KEYCODE_ENTER"),))),
    (Key(text="KEYCODE_DEL"), ActionPlan("applied", (("input", "keyevent", "KEYCODE_DEL"),))),
    (Key(text="66"), ActionPlan("applied", (("input", "keyevent", "66"),))),
    (
        SystemButton(button=SystemButtonName.BACK),
        ActionPlan("applied", (("input", "keyevent", "4"),)),
    ),
    (
        SystemButton(button=SystemButtonName.HOME),
        ActionPlan("applied", (("input", "keyevent", "3"),)),
    ),
    (
        SystemButton(button=SystemButtonName.MENU),
        ActionPlan("applied", (("input", "keyevent", "187"),)),
    ),
    (
        SystemButton(button=SystemButtonName.ENTER),
        ActionPlan("applied", (("input", "keyevent", "66"),)),
    ),
    (Open(text="备忘录"), ActionPlan("applied", (("monkey", "-p", "com.pw.notes", *LAUNCH),))),
    (Open(text="NOTES"), ActionPlan("applied", (("monkey", "-p", "com.pw.notes", *LAUNCH),))),
    (Open(text="微信"), ActionPlan("applied", (("monkey", "-p", "com.tencent.mm", *LAUNCH),))),
    (Open(text="org.example.app"), ActionPlan("applied", (launch_command("org.example.app"),))),
    (Open(text="Nope; reboot"), ActionPlan("no_op", note="no app named 'Nope; reboot' is known")),
    (Wait(time=2.5), ActionPlan("applied", (("sleep", "2.5"),), sleep_s=2.5)),
    (Answer(text="42"), ActionPlan("final")),
    (Terminate(status=TerminateStatus.SUCCESS), ActionPlan("final")),
    (CallTool(name="create_note"), ActionPlan("no_op", note="direct tools")),
]


def test_every_action_name_has_a_case() -> None:
    assert {action.action for action, _ in CASES} == set(ACTION_NAMES)


@pytest.mark.parametrize(("action", "expected"), CASES, ids=lambda v: getattr(v, "action", ""))
def test_action_to_commands(action: Action, expected: ActionPlan) -> None:
    plan = plan_action(action, SCREEN, APPS)
    assert plan.effect == expected.effect
    assert plan.commands == expected.commands
    assert plan.sleep_s == expected.sleep_s
    assert expected.note in plan.note


def test_pixels_follow_the_device_screen() -> None:
    small = ScreenSize(width=720, height=1280)
    plan = plan_action(Click(coordinate=(500, 500)), small, APPS)
    assert plan.commands == (("input", "tap", "360", "640"),)


def test_a_model_cannot_smuggle_a_package_into_a_launch() -> None:
    with pytest.raises(ValueError, match="not a package name"):
        launch_command("com.x; reboot")
    with pytest.raises(ValueError, match="not package names"):
        AppTable({"Evil": "com.x && reboot"})


@pytest.mark.parametrize(
    ("name", "argument"), [("back", "KEYCODE_BACK"), ("KEYCODE_HOME", "KEYCODE_HOME"), ("007", "7")]
)
def test_keycode_arguments(name: str, argument: str) -> None:
    assert keycode_argument(name) == argument


@pytest.mark.parametrize(
    ("output", "size"),
    [
        ("Physical size: 1080x2400", (1080, 2400)),
        ("Physical size: 1440x3120\nOverride size: 1080x2340", (1080, 2340)),
        ("", None),
    ],
)
def test_wm_size(output: str, size: tuple[int, int] | None) -> None:
    parsed = parse_wm_size(output)
    assert ((parsed.width, parsed.height) if parsed else None) == size


@pytest.mark.parametrize(
    ("dumpsys", "package"),
    [
        (
            "  mCurrentFocus=Window{41b3757 u0 com.tencent.mm/com.tencent.mm.ui.LauncherUI}",
            "com.tencent.mm",
        ),
        (
            "  mCurrentFocus=Window{9c1 u0 NotificationShade}\n"
            "  mFocusedApp=ActivityRecord{5d2 u0 com.pw.notes/.MainActivity t12}",
            "com.pw.notes",
        ),
        ("  mCurrentFocus=null\n  mFocusedApp=null", None),
    ],
)
def test_focused_package(dumpsys: str, package: str | None) -> None:
    assert parse_focused_package(dumpsys) == package


def test_png_size_reads_the_header() -> None:
    header = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (1080).to_bytes(4, "big")
    assert png_size(header + (2400).to_bytes(4, "big")) == SCREEN
    with pytest.raises(ValueError, match="not a PNG"):
        png_size(b"garbage" * 10)
