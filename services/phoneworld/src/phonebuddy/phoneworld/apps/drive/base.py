"""Cloud Drive's base: the app's identity, look-ups over its data and every handler (the only
place data changes). The screens are in `app.py`."""

from __future__ import annotations

import random
import re
from typing import Any

from phonebuddy.phoneworld.app import App, Label
from phonebuddy.phoneworld.apps.drive import content
from phonebuddy.phoneworld.apps.drive.content import ME, ROLES, ROOT, SHARED, link_url
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

DRIVE = "com.pw.drive"
BLUE: Color = (26, 115, 232)
EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")


class DriveBase(App):
    package = DRIVE
    label = Label(zh="Cloud Drive", en="Cloud Drive")
    domain = "cloud storage"
    theme = AppTheme(primary=BLUE)
    icon_text = "D"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"folders": clone(content["folders"]), "files": clone(content["files"])}

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def file(data: dict[str, Any], file_id: str) -> dict[str, Any] | None:
        return next((f for f in data["files"] if f["id"] == file_id), None)

    @staticmethod
    def folder_name(data: dict[str, Any], folder_id: str) -> str:
        if folder_id == ROOT:
            return "My Drive"
        if folder_id == SHARED:
            return "Shared with me"
        return next((str(f["name"]) for f in data["folders"] if f["id"] == folder_id), "?")

    @staticmethod
    def trail(data: dict[str, Any], folder_id: str) -> list[str]:
        """The folder ids from My Drive down to `folder_id`."""
        chain = []
        by_id = {f["id"]: f for f in data["folders"]}
        while folder_id in by_id:
            chain.append(folder_id)
            folder_id = by_id[folder_id]["parent"]
        return [ROOT, *reversed(chain)]

    def path_label(self, data: dict[str, Any], folder_id: str) -> str:
        if folder_id == SHARED:
            return "Shared with me"
        return " / ".join(self.folder_name(data, f) for f in self.trail(data, folder_id))

    @staticmethod
    def subfolders(data: dict[str, Any], folder_id: str) -> list[dict[str, Any]]:
        return sorted((f for f in data["folders"] if f["parent"] == folder_id),
                      key=lambda f: f["name"].lower())  # fmt: skip

    @staticmethod
    def files_in(data: dict[str, Any], folder_id: str) -> list[dict[str, Any]]:
        return [f for f in data["files"] if f["parent"] == folder_id and not f["trashed"]]

    @staticmethod
    def used_kb(data: dict[str, Any]) -> int:
        return content.OTHER_USAGE_KB + sum(f["size"] for f in data["files"] if f["owner"] == ME)

    def _mine(self, it: Interaction, file_id: str) -> dict[str, Any]:
        file = self.file(it.data, file_id)
        if file is None:
            it.no_op(f"no file {file_id}")
            raise AssertionError  # no_op raises
        if file["owner"] != ME:
            it.toast("Only the owner can do this")
            it.no_op(f"{file_id} is not mine")
        return file

    @staticmethod
    def _close(it: Interaction) -> None:
        it.set_ui("dialog", None)
        it.set_ui("sheet", None)

    # -- handlers ---------------------------------------------------------------------------------
    def toggle_star(self, it: Interaction, file_id: str) -> None:
        file = self.file(it.data, file_id)
        if file is None or file["trashed"]:
            it.no_op(f"no live file {file_id}")
            return
        file["starred"] = not file["starred"]
        it.toast("Added to Starred" if file["starred"] else "Removed from Starred")

    def toggle_offline(self, it: Interaction, file_id: str) -> None:
        file = self.file(it.data, file_id)
        if file is None or file["trashed"]:
            it.no_op(f"no live file {file_id}")
            return
        file["offline"] = not file["offline"]
        it.toast("Available offline" if file["offline"] else "Removed from offline")

    def _name_problem(self, data: dict[str, Any], name: str, parent: str, kind: str) -> str | None:
        if not name:
            return "Name can't be empty"
        if "/" in name:
            return "Name can't contain '/'"
        taken = [f["name"] for f in data["folders"] if f["parent"] == parent and kind == "folder"]
        taken += [f["name"] for f in data["files"]
                  if f["parent"] == parent and not f["trashed"] and kind == "file"]  # fmt: skip
        if name.lower() in (t.lower() for t in taken):
            return f"'{name}' already exists in this folder"
        return None

    def rename(self, it: Interaction, file_id: str) -> None:
        file = self._mine(it, file_id)
        name = it.field("new_name").strip()
        if name == file["name"]:
            it.no_op("the name did not change")
        problem = self._name_problem(it.data, name, file["parent"], "file")
        if problem is not None:
            it.set_ui("error", problem)
            it.no_op(problem)
        file["name"] = name
        file["modified"] = it.clock
        it.set_ui("error", None)
        self._close(it)
        it.toast("Renamed")

    def new_folder(self, it: Interaction, parent: str) -> None:
        name = it.field("folder_name").strip()
        problem = self._name_problem(it.data, name, parent, "folder")
        if problem is not None:
            it.set_ui("error", problem)
            it.no_op(problem)
        it.data["folders"].append({"id": it.new_id("fd"), "name": name, "parent": parent})
        it.set_field("folder_name", "")
        it.set_ui("error", None)
        self._close(it)
        it.toast(f"Folder '{name}' created")

    def move(self, it: Interaction, file_id: str, folder_id: str) -> None:
        file = self._mine(it, file_id)
        if file["parent"] == folder_id:
            it.toast("The file is already in this folder")
            it.no_op("same folder")
        clash = self._name_problem(it.data, file["name"], folder_id, "file")
        if clash is not None:
            it.toast(clash)
            it.no_op(clash)
        file["parent"] = folder_id
        it.pop()
        it.toast(f"Moved to {self.folder_name(it.data, folder_id)}")

    def trash(self, it: Interaction, file_id: str) -> None:
        file = self._mine(it, file_id)
        if file["trashed"]:
            it.no_op("already in the trash")
        file["trashed"] = True
        file["starred"] = False
        self._close(it)
        it.pop()
        it.toast("Moved to Trash")

    def restore(self, it: Interaction, file_id: str) -> None:
        file = self.file(it.data, file_id)
        if file is None or not file["trashed"]:
            it.no_op(f"{file_id} is not in the trash")
            return
        clash = self._name_problem(it.data, file["name"], file["parent"], "file")
        if clash is not None:
            it.toast(clash)
            it.no_op(clash)
        file["trashed"] = False
        self._close(it)
        it.toast("Restored")

    def delete_forever(self, it: Interaction, file_id: str) -> None:
        file = self.file(it.data, file_id)
        if file is None or not file["trashed"]:
            it.no_op(f"{file_id} is not in the trash")
            return
        it.data["files"] = [f for f in it.data["files"] if f["id"] != file_id]
        self._close(it)
        it.toast("Deleted forever")

    def add_person(self, it: Interaction, file_id: str, role: str) -> None:
        file = self._mine(it, file_id)
        email = it.field("share_email").strip().lower()
        problem = None
        if not EMAIL.match(email):
            problem = "Enter a valid email address"
        elif any(s["id"] == email for s in file["shares"]):
            problem = f"{email} already has access"
        if problem is not None:
            it.set_ui("error", problem)
            it.no_op(problem)
        file["shares"].append({"id": email, "role": role if role in ROLES else "Viewer"})
        it.set_field("share_email", "")
        it.set_ui("error", None)
        it.toast(f"Shared with {email}")

    def set_role(self, it: Interaction, file_id: str, email: str, role: str) -> None:
        file = self._mine(it, file_id)
        share = next((s for s in file["shares"] if s["id"] == email), None)
        if share is None or share["role"] == role:
            it.no_op("the role did not change")
            return
        share["role"] = role
        self._close(it)
        it.toast(f"{email} is now {role}")

    def remove_access(self, it: Interaction, file_id: str, email: str) -> None:
        file = self._mine(it, file_id)
        if not any(s["id"] == email for s in file["shares"]):
            it.no_op(f"{email} has no access")
        file["shares"] = [s for s in file["shares"] if s["id"] != email]
        self._close(it)
        it.toast(f"Removed {email}")

    def set_link(self, it: Interaction, file_id: str, mode: str) -> None:
        file = self._mine(it, file_id)
        if file["link"] == mode:
            it.no_op("the link access did not change")
        file["link"] = mode
        it.toast("Anyone with the link can view" if mode == "anyone" else "Link restricted")

    def copy_link(self, it: Interaction, file_id: str) -> None:
        file = self.file(it.data, file_id)
        if file is None:
            it.no_op(f"no file {file_id}")
            return
        it.copy(link_url(file))
        it.toast("Link copied")

    def send_link(self, it: Interaction, file_id: str) -> None:
        file = self.file(it.data, file_id)
        if file is None:
            it.no_op(f"no file {file_id}")
            return
        it.share({"kind": "link", "text": link_url(file)})

    @staticmethod
    def cancel_dialog(it: Interaction, field: str) -> None:
        """Cancel in a dialog with a text field: closed, its text and error cleared."""
        it.set_ui("dialog", None)
        it.set_ui("error", None)
        it.set_field(field, "")

    @staticmethod
    def up(it: Interaction, levels: int) -> None:
        for _ in range(levels):
            it.pop()

    @staticmethod
    def clear_search(it: Interaction) -> None:
        if not it.field("q"):
            it.no_op("the search is empty")
        it.set_field("q", "")
