"""What the mini-programs' templates share: their seeded content, reading a row's or a
node's texts, paying through the wallet from the messenger."""

from __future__ import annotations

import re
from typing import Any

from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER, content
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World

WALLET = "com.pw.wallet"
PAYING = (MESSENGER, WALLET)
TIME = re.compile(r"^\d{2}:\d{2}$")


def mini_content(world: World, name: str) -> Any:
    return content(world)["mini"][name]


def row_texts(ui: OracleUI, row_id: str) -> list[str]:
    """The texts shown in a list row (its title, subtitle and trailing text)."""
    row = ui.find(row_id)
    if row is None:
        raise OracleError(f"{row_id!r} is not on screen")
    return [child.text for child in row.children if child.text]


def node_text(ui: OracleUI, widget_id: str) -> str:
    node = ui.find(widget_id)
    if node is None:
        raise OracleError(f"{widget_id!r} is not on screen")
    return node.text


# -- coffee ----------------------------------------------------------------------------------
