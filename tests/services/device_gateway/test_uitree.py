"""uiautomator XML -> UINode: attributes, bounds, several windows, hostile documents, and the
same tree PhoneWorld's own observation carries."""

from __future__ import annotations

import pytest

from phonebuddy.device_gateway.uitree import ROOT_CLASS, UiDumpError, parse_bounds, parse_ui_dump
from phonebuddy.phoneworld.adb.uiautomator import dump_xml
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import default_world
from phonebuddy.protocol import Bounds, Open, ScreenSize

SCREEN = ScreenSize(width=1080, height=2400)
REAL_DUMP = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node index="0" text="" resource-id="" class="android.widget.FrameLayout"
        package="com.android.systemui" content-desc="" checkable="false" checked="false"
        clickable="false" enabled="true" focusable="false" focused="false" scrollable="false"
        long-clickable="false" password="false" selected="false" bounds="[0,0][1080,136]" />
  <node index="0" text="" resource-id="" class="android.widget.FrameLayout"
        package="com.tencent.mm" content-desc="" checkable="false" checked="false"
        clickable="false" enabled="true" focusable="false" focused="false" scrollable="false"
        long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">
    <node index="0" text="搜索 &amp; 发现 &lt;3" resource-id="com.tencent.mm:id/search"
          class="android.widget.EditText" package="com.tencent.mm" content-desc="Search"
          checkable="false" checked="false" clickable="true" enabled="true" focusable="true"
          focused="true" scrollable="false" long-clickable="true" password="false"
          selected="false" bounds="[24,160][1056,260]" />
    <node index="1" text="" resource-id="com.tencent.mm:id/list"
          class="androidx.recyclerview.widget.RecyclerView" package="com.tencent.mm"
          content-desc="" checkable="false" checked="false" clickable="false" enabled="true"
          focusable="true" focused="false" scrollable="true" long-clickable="false"
          password="false" selected="false" bounds="[0,280][1080,2300]">
      <node index="0" text="Wi-Fi" resource-id="android:id/switch_widget"
            class="android.widget.Switch" package="com.tencent.mm" content-desc=""
            checkable="true" checked="true" clickable="true" enabled="false" focusable="true"
            focused="false" scrollable="false" long-clickable="false" password="false"
            selected="true" bounds="[-20,2250][1100,2450]" />
    </node>
  </node>
</hierarchy>"""


def test_a_real_dump_with_two_windows_gets_a_root_as_large_as_the_screen() -> None:
    root = parse_ui_dump(REAL_DUMP, SCREEN)
    assert root.class_name == ROOT_CLASS
    assert root.bounds == Bounds(left=0, top=0, right=1080, bottom=2400)
    status_bar, app = root.children
    assert status_bar.package == "com.android.systemui"
    [search] = root.find(resource_id="com.tencent.mm:id/search")
    assert search.text == "搜索 & 发现 <3"
    assert search.content_desc == "Search"
    assert search.class_name == "android.widget.EditText"
    assert (search.clickable, search.focused, search.focusable, search.long_clickable) == (
        True, True, True, True,
    )  # fmt: skip
    assert search.bounds == Bounds(left=24, top=160, right=1056, bottom=260)
    [scroller] = root.find(resource_id="com.tencent.mm:id/list")
    assert scroller.scrollable
    [switch] = scroller.children
    assert (switch.checkable, switch.checked, switch.enabled, switch.selected) == (
        True, True, False, True,
    )  # fmt: skip
    assert switch.bounds == Bounds(left=0, top=2250, right=1080, bottom=2400)  # clipped
    assert app.children[0] is search


def test_one_window_is_the_root_itself() -> None:
    xml = (
        '<?xml version=\'1.0\' ?><hierarchy rotation="0"><node class="a.B" '
        'bounds="[0,0][10,20]" text="x" /></hierarchy>'
    )
    root = parse_ui_dump(xml)
    assert root.class_name == "a.B"
    assert root.text == "x"
    assert not root.children


@pytest.mark.parametrize(
    ("text", "bounds"),
    [
        ("[0,0][1080,2400]", (0, 0, 1080, 2400)),
        ("[-5,-5][20,30]", (0, 0, 20, 30)),
        ("[50,60][40,70]", (50, 60, 50, 70)),  # inverted: empty, not an error
        ("[0,0][5000,9000]", (0, 0, 1080, 2400)),
    ],
)
def test_bounds_are_parsed_and_clipped(text: str, bounds: tuple[int, int, int, int]) -> None:
    parsed = parse_bounds(text, SCREEN)
    assert (parsed.left, parsed.top, parsed.right, parsed.bottom) == bounds


@pytest.mark.parametrize(
    "document",
    [
        "not xml at all",
        "<?xml version='1.0' ?><root/>",
        '<hierarchy><node bounds="[0,0]" /></hierarchy>',
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><hierarchy>&lol;</hierarchy>',
        "ERROR: could not get idle state.",
    ],
)
def test_what_is_not_a_dump_is_a_typed_error(document: str) -> None:
    with pytest.raises(UiDumpError):
        parse_ui_dump(document, SCREEN)


@pytest.mark.parametrize("app", [None, "com.pw.notes", "com.pw.shop", "com.pw.messenger"])
def test_phoneworld_xml_parses_back_into_its_own_tree(app: str | None) -> None:
    device = Device(default_world(0))
    if app is not None:
        device.act(Open(text=app))
    tree = device.ui_tree()
    assert parse_ui_dump(dump_xml(tree), device.screen) == tree
