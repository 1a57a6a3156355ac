"""Cloud Drive: a Google-Drive-like cloud storage app. My Drive's folder tree (breadcrumbs,
sorting by name, date or size), search, Starred, Shared with me, the Trash (restore, delete
forever), a file's details (star, offline, rename, move, trash) and its Share page (people and
their roles, the link and who can open it)."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.drive.base import BLUE, DriveBase
from phonebuddy.phoneworld.apps.drive.content import (
    LINK_MODES,
    ME,
    QUOTA_GB,
    ROLES,
    ROOT,
    SHARED,
    date_label,
    link_url,
    person_name,
    size_label,
    slug,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Chip,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Spacer,
    Tabs,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)

TABS = (("drive", "My Drive"), ("starred", "Starred"), ("shared", "Shared"), ("trash", "Trash"))
SORTS = (("name", "Name"), ("modified", "Modified"), ("size", "Size"))
LEADING = {"doc": "W", "sheet": "X", "pdf": "P", "image": "I"}
ERROR: tuple[int, int, int] = (217, 48, 37)
STAR_ON: tuple[int, int, int] = (251, 188, 4)
STAR_OFF: tuple[int, int, int] = (189, 193, 198)


def sorted_files(files: list[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    if sort == "modified":
        return sorted(files, key=lambda f: -f["modified"])
    if sort == "size":
        return sorted(files, key=lambda f: -f["size"])
    return sorted(files, key=lambda f: f["name"].lower())


class Drive(DriveBase):
    # -- shared widgets ---------------------------------------------------------------------------
    def _file_row(self, v: View, file: dict[str, Any], *, owner: bool = False) -> ListItem:
        about = f"Owner: {person_name(file['owner'])}" if owner else size_label(file["size"])
        return ListItem(
            file["name"],
            subtitle=f"{about} · Modified {date_label(file['modified'])}",
            leading=LEADING[file["kind"]],
            leading_color=BLUE,
            on_tap=v.go("file", file_id=file["id"]),
            id=f"file_{file['id']}",
            action=IconButton("star", "Unstar" if file["starred"] else "Star",
                              v.do(self.toggle_star, file["id"]), id=f"star_{file['id']}",
                              color=STAR_ON if file["starred"] else STAR_OFF),
        )  # fmt: skip

    def _sort_chips(self, v: View) -> Wrap:
        sort = v.ui("sort", "name")
        return Wrap([Chip(label, v.set_ui("sort", key), selected=sort == key, id=f"sort_{key}")
                     for key, label in SORTS])  # fmt: skip

    def _listing(self, v: View, folder_id: str) -> list[Widget | None]:
        data = v.data
        rows: list[Widget | None] = []
        if folder_id != ROOT:
            above = self.trail(data, folder_id)[:-1]
            # Folders open one inside the other from My Drive: an ancestor is so many pops back.
            crumbs = [Chip(self.folder_name(data, f), v.do(self.up, len(above) - i),
                           id=f"crumb_{f}") for i, f in enumerate(above)]  # fmt: skip
            rows.append(Wrap(crumbs))
        rows.append(self._sort_chips(v))
        for folder in self.subfolders(data, folder_id):
            count = len(self.files_in(data, folder["id"])) + len(
                self.subfolders(data, folder["id"])
            )
            rows.append(ListItem(folder["name"], subtitle=f"Folder · {count} items", leading="F",
                                 leading_color=(95, 99, 104),
                                 on_tap=v.go("folder", folder_id=folder["id"]),
                                 id=f"folder_{folder['id']}"))  # fmt: skip
        files = sorted_files(self.files_in(data, folder_id), v.ui("sort", "name"))
        rows += [self._file_row(v, f) for f in files]
        if len(rows) <= 2:
            rows.append(Text("This folder is empty", color=theme.TEXT_SECONDARY, padding=40,
                             align="center", id="empty"))  # fmt: skip
        return rows

    def _new_folder_dialog(self, v: View, parent: str) -> Dialog | None:
        if v.ui("dialog") != "new_folder":
            return None
        error = v.ui("error")
        return Dialog(
            "New folder",
            body=[TextField("folder_name", v.field("folder_name"), "Folder name",
                            on_focus=v.focus("folder_name")),
                  Text(error, color=ERROR, id="error") if error else None],
            buttons=[Button("Cancel", v.do(self.cancel_dialog, "folder_name"), id="cancel",
                            style="secondary"),
                     Button("Create", v.do(self.new_folder, parent), id="create_folder")],
        )  # fmt: skip

    def _new_folder_button(self, v: View) -> IconButton:
        return IconButton("plus", "New folder", v.set_ui("dialog", "new_folder"), id="new_folder")

    # -- screens ----------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "drive")
        data = v.data
        body: list[Widget | None]
        overlay: Dialog | BottomSheet | None = None
        actions = [IconButton("search", "Search", v.go("search"), id="search")]
        if tab == "drive":
            used = self.used_kb(data) / 1_000_000
            body = [Text(f"{used:.1f} GB of {QUOTA_GB} GB used", size=36,
                         color=theme.TEXT_SECONDARY, padding=20, id="storage"),
                    *self._listing(v, ROOT)]  # fmt: skip
            actions.append(self._new_folder_button(v))
            overlay = self._new_folder_dialog(v, ROOT)
        elif tab == "starred":
            starred = [f for f in data["files"] if f["starred"] and not f["trashed"]]
            body = [self._sort_chips(v)]
            body += [self._file_row(v, f) for f in sorted_files(starred, v.ui("sort", "name"))]
        elif tab == "shared":
            shared = self.files_in(data, SHARED)
            body = [self._sort_chips(v)]
            body += [self._file_row(v, f, owner=True)
                     for f in sorted_files(shared, v.ui("sort", "name"))]  # fmt: skip
        else:
            body, overlay = self._trash(v)
        return Page("Cloud Drive", [*body, Spacer(60)], header=Tabs(TABS, tab, v.on_select("tab")),
                    actions=actions, overlay=overlay)  # fmt: skip

    def _trash(self, v: View) -> tuple[list[Widget | None], Dialog | BottomSheet | None]:
        trashed = [f for f in v.data["files"] if f["trashed"]]
        rows: list[Widget | None] = [
            Text("Items in the Trash can be restored or deleted forever.", size=34,
                 color=theme.TEXT_SECONDARY, padding=20)]  # fmt: skip
        rows += [ListItem(f["name"], subtitle=f"{size_label(f['size'])} · from "
                          f"{self.folder_name(v.data, f['parent'])}", leading=LEADING[f["kind"]],
                          id=f"trashed_{f['id']}",
                          action=IconButton("more", "Options", v.set_ui("sheet", f["id"]),
                                            id=f"trash_more_{f['id']}"))
                 for f in sorted(trashed, key=lambda f: f["name"].lower())]  # fmt: skip
        if not trashed:
            rows.append(Text("Trash is empty", color=theme.TEXT_SECONDARY, padding=40,
                             align="center", id="empty"))  # fmt: skip
        picked = self.file(v.data, v.ui("sheet") or "")
        overlay: Dialog | BottomSheet | None = None
        if picked is not None and picked["trashed"]:
            dialog = v.ui("dialog")
            if dialog == "restore":
                overlay = v.confirm(f"Restore '{picked['name']}'?",
                                    v.do(self.restore, picked["id"]), label="Restore",
                                    cancel_label="Cancel",
                                    confirm_id="confirm_restore")  # fmt: skip
            elif dialog == "forever":
                overlay = v.confirm(f"Delete '{picked['name']}' forever?",
                                    v.do(self.delete_forever, picked["id"]),
                                    message="You can't undo this.", label="Delete forever",
                                    cancel_label="Cancel", confirm_id="confirm_forever",
                                    danger=True)  # fmt: skip
            else:
                overlay = BottomSheet(picked["name"], [
                    Button("Restore", v.set_ui("dialog", "restore"), id="restore"),
                    Button("Delete forever", v.set_ui("dialog", "forever"), id="delete_forever",
                           style="danger"),
                ], on_dismiss=v.set_ui("sheet", None))  # fmt: skip
        return rows, overlay

    @screen("folder")
    def folder(self, v: View) -> Page:
        folder_id = v.params["folder_id"]
        if folder_id != ROOT and not any(f["id"] == folder_id for f in v.data["folders"]):
            return Page("Cloud Drive", [Text("This folder no longer exists", padding=40)],
                        on_back=v.back())  # fmt: skip
        return Page(self.folder_name(v.data, folder_id), [*self._listing(v, folder_id), Spacer(60)],
                    on_back=v.back(), actions=[self._new_folder_button(v)],
                    overlay=self._new_folder_dialog(v, folder_id))  # fmt: skip

    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("q").strip()
        rows: list[Widget | None] = [
            TextField("q", v.field("q"), "Search in Drive", on_focus=v.focus("q")),
            Button("Clear", v.do(self.clear_search), id="clear_search", style="secondary",
                   height=90, size=34) if query else None,
        ]  # fmt: skip
        if query:
            found = [f for f in v.data["files"]
                     if not f["trashed"] and query.lower() in f["name"].lower()]  # fmt: skip
            rows += [self._file_row(v, f) for f in sorted_files(found, "name")]
            if not found:
                rows.append(Text(f"No results for '{query}'", color=theme.TEXT_SECONDARY,
                                 padding=40, align="center", id="no_results"))  # fmt: skip
        return Page("Search", rows, on_back=v.back())

    @screen("file")
    def file_page(self, v: View) -> Page:
        file = self.file(v.data, v.params["file_id"])
        if file is None or file["trashed"]:
            return Page("Details", [Text("This file is in the Trash or was deleted", padding=40)],
                        on_back=v.back())  # fmt: skip
        mine = file["owner"] == ME
        editors = sum(1 for s in file["shares"] if s["role"] == "Editor")
        body: list[Widget | None] = [
            Text(file["name"], size=54, bold=True, padding=20, id="file_name"),
            ListItem("Type", trailing=file["kind"].upper() if file["kind"] == "pdf"
                     else file["kind"].capitalize(), id="detail_type"),
            ListItem("Size", trailing=size_label(file["size"]), id="detail_size"),
            ListItem("Owner", trailing=person_name(file["owner"]), id="detail_owner"),
            ListItem("Modified", trailing=date_label(file["modified"]), id="detail_modified"),
            ListItem("Location", subtitle=self.path_label(v.data, file["parent"]),
                     id="detail_location"),
            ListItem("Access", trailing=f"{len(file['shares'])} people · {editors} editors"
                     if mine else "Shared with you", id="detail_access"),
            Toggle("Starred", file["starred"], v.do(self.toggle_star, file["id"]), id="starred"),
            Toggle("Available offline", file["offline"], v.do(self.toggle_offline, file["id"]),
                   id="offline"),
            Button("Copy link", v.do(self.copy_link, file["id"]), id="copy_link",
                   style="secondary"),
        ]  # fmt: skip
        if mine:
            body += [
                Button("Share", v.go("share", file_id=file["id"]), id="share"),
                Button("Rename", v.set_ui("dialog", "rename"), id="rename", style="secondary"),
                Button("Move", v.go("move", file_id=file["id"]), id="move", style="secondary"),
                Button("Move to trash", v.set_ui("dialog", "trash"), id="trash", style="danger"),
            ]
        overlay = None
        if mine and v.ui("dialog") == "trash":
            overlay = v.confirm(f"Move '{file['name']}' to the Trash?",
                                v.do(self.trash, file["id"]),
                                message="People with access can no longer open it.",
                                label="Move to trash", cancel_label="Cancel",
                                confirm_id="confirm_trash", danger=True)  # fmt: skip
        elif mine and v.ui("dialog") == "rename":
            error = v.ui("error")
            overlay = Dialog("Rename", body=[
                TextField("new_name", v.field("new_name"), "New name",
                          on_focus=v.focus("new_name")),
                Text(error, color=ERROR, id="error") if error else None,
            ], buttons=[Button("Cancel", v.do(self.cancel_dialog, "new_name"), id="cancel",
                               style="secondary"),
                        Button("OK", v.do(self.rename, file["id"]), id="rename_ok")])  # fmt: skip
        return Page("Details", [*body, Spacer(60)], on_back=v.back(), body_padding=20,
                    spacing=12, overlay=overlay)  # fmt: skip

    @screen("move")
    def move_page(self, v: View) -> Page:
        file = self.file(v.data, v.params["file_id"])
        if file is None:
            return Page("Move", [Text("The file was deleted", padding=40)], on_back=v.back())
        places = [ROOT, *sorted((f["id"] for f in v.data["folders"]),
                                key=lambda f: self.path_label(v.data, f).lower())]  # fmt: skip
        rows: list[Widget | None] = [Text(f"Move '{file['name']}' to:", size=40, padding=20)]
        for place in places:
            here = place == file["parent"]
            rows.append(ListItem(self.path_label(v.data, place), leading="F",
                                 trailing="Current" if here else "",
                                 on_tap=v.do(self.move, file["id"], place),
                                 id=f"dest_{place}"))  # fmt: skip
        return Page("Move", [*rows, Spacer(60)], on_back=v.back())

    @screen("share")
    def share_page(self, v: View) -> Page:
        file = self.file(v.data, v.params["file_id"])
        if file is None or file["trashed"]:
            return Page("Share", [Text("The file is not available", padding=40)], on_back=v.back())
        role = v.ui("role", "Viewer")
        error = v.ui("error")
        body: list[Widget | None] = [
            Text(f"Share '{file['name']}'", size=46, bold=True, padding=20, id="share_title"),
            TextField("share_email", v.field("share_email"), "Add people by email",
                      on_focus=v.focus("share_email")),
            Wrap([Chip(r, v.set_ui("role", r), selected=role == r, id=f"role_{r.lower()}")
                  for r in ROLES]),
            Text(error, color=ERROR, id="error") if error else None,
            Button("Add", v.do(self.add_person, file["id"], role), id="share_add"),
            Text("People with access", size=40, bold=True, padding=12),
            ListItem("me", subtitle="Owner", leading="M", id="person_me"),
        ]  # fmt: skip
        for share in file["shares"]:
            email = share["id"]
            body.append(ListItem(email, subtitle=person_name(email) if person_name(email) != email
                                 else "", trailing=share["role"], leading=email[:1].upper(),
                                 on_tap=v.set_ui("sheet", email),
                                 id=f"person_{slug(email)}"))  # fmt: skip
        body += [
            Text("General access", size=40, bold=True, padding=12),
            Wrap([Chip(label, v.do(self.set_link, file["id"], key), selected=file["link"] == key,
                       id=f"link_{key}") for key, label in LINK_MODES]),
            Text(link_url(file), size=34, color=theme.TEXT_SECONDARY, id="link_url"),
            Button("Copy link", v.do(self.copy_link, file["id"]), id="copy_link",
                   style="secondary"),
            Button("Send link", v.do(self.send_link, file["id"]), id="send_link",
                   style="secondary"),
        ]  # fmt: skip
        overlay = None
        picked = v.ui("sheet")
        share = next((s for s in file["shares"] if s["id"] == picked), None)
        if share is not None:
            overlay = BottomSheet(share["id"], [
                *(Button(("✓ " if share["role"] == r else "") + r,
                         v.do(self.set_role, file["id"], share["id"], r),
                         id=f"set_{r.lower()}", style="secondary") for r in ROLES),
                Button("Remove access", v.do(self.remove_access, file["id"], share["id"]),
                       id="remove_access", style="danger"),
            ], on_dismiss=v.set_ui("sheet", None))  # fmt: skip
        return Page(
            "Share",
            [*body, Spacer(60)],
            on_back=v.back(),
            body_padding=20,
            spacing=12,
            overlay=overlay,
        )
