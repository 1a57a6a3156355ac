"""What the messenger's screens share: the directory of friends, groups and chats."""

from __future__ import annotations

from phonebuddy.phoneworld.app import App, View
from phonebuddy.phoneworld.apps.messenger.directory import Directory
from phonebuddy.phoneworld.interaction import Interaction

PACKAGE = "com.pw.messenger"
WALLET = "com.pw.wallet"
TABS = (("chats", "微信"), ("contacts", "通讯录"), ("discover", "发现"), ("me", "我"))
RECENT_MINIS_SHOWN = 8
# Minutes of silence after which the chat shows a time stamp again.
STAMP_GAP = 5 * 60
PANEL_DARK = (44, 44, 52)
SETTINGS = (
    ("notify", "新消息通知", "关闭后，收到新消息时不再提醒"),
    ("sound", "声音", "新消息提示音"),
    ("strangers_see_moments", "允许陌生人查看十条朋友圈", ""),
)


class MessengerBase(App):
    @staticmethod
    def directory(source: Interaction | View) -> Directory:
        """People and chats as this phone shows them, for a screen or a handler."""
        if isinstance(source, View):
            return Directory(source.content, source.data, int(source.os["clock"]))
        return Directory(source.content, source.data, source.clock)
