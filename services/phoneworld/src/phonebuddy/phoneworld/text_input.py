"""Text input of the simulated phone: typing into the focused field as a phone keyboard does,
Enter, delete, clear and paste. A part of `Device`, kept apart for size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from phonebuddy.phoneworld.interaction import Interaction, NoOp
from phonebuddy.phoneworld.state import Doc
from phonebuddy.protocol import text_entry

if TYPE_CHECKING:
    from phonebuddy.phoneworld.ui.widgets import Node


@dataclass(frozen=True, slots=True)
class ActResult:
    effect: Literal["applied", "no_op", "final"]
    note: str = ""


class TextInput:
    """The text-input half of `Device`, which provides what is declared here."""

    state: Doc

    if TYPE_CHECKING:

        @property
        def foreground(self) -> str | None: ...
        def top_entry(self, package: str) -> Doc: ...
        def layout(self) -> Node: ...
        def _changed(self) -> None: ...
        def _checkpoint(self) -> bytes: ...
        def _roll_back(self, checkpoint: bytes) -> None: ...
        def _interaction(self) -> Interaction: ...

    def _focused(self) -> tuple[Doc, str]:
        focus = self.state["ui"]["focus"]
        if focus is None or focus["package"] != self.foreground or self.foreground is None:
            raise NoOp("no text field has focus")
        return self.top_entry(self.foreground), focus["field"]

    def type_text(self, text: str) -> ActResult:
        """Type as a phone keyboard does (`phonebuddy.protocol.text_entry`): a line break is the
        Enter key, control characters type nothing. Keys after Enter go to whatever field has
        focus then; with none, they are lost."""
        self._focused()  # no field, no typing
        strokes = text_entry.keystrokes(text)
        if not strokes:
            raise NoOp("nothing to type: the text holds only control characters")
        applied: list[str] = []
        missed: list[str] = []
        for stroke in strokes:
            try:
                if stroke == text_entry.ENTER:
                    applied.append(self._enter_while_typing().note)
                else:
                    applied.append(self._insert(stroke).note)
            except NoOp as no_op:
                missed.append(no_op.reason)
            self._changed()  # the next key sees the screen this one left
        if not applied:
            raise NoOp(missed[0])
        return ActResult("applied", "; ".join(dict.fromkeys(applied + missed)))

    def _insert(self, text: str) -> ActResult:
        entry, field_name = self._focused()
        entry["fields"][field_name] = str(entry["fields"].get(field_name, "")) + text
        return ActResult("applied", f"typed into {field_name}")

    def _enter_while_typing(self) -> ActResult:
        """Enter inside typed text: a key press of its own, so a no-op rolls its handler back."""
        saved = self._checkpoint()
        try:
            return self.press_enter()
        except NoOp:
            self._roll_back(saved)
            raise

    def press_enter(self) -> ActResult:
        """The Enter key: a new line in a multi-line field, the action (submit) of a single-line
        one, as in Android's EditText."""
        if self._focused_is_multiline():
            return self._insert(text_entry.ENTER)
        return self.submit_focused()

    def clear_focused(self) -> ActResult:
        """Select all and delete: the focused field becomes empty."""
        entry, field_name = self._focused()
        if not entry["fields"].get(field_name):
            raise NoOp(f"{field_name} is already empty")
        entry["fields"][field_name] = ""
        return ActResult("applied", f"cleared {field_name}")

    def paste(self, text: str) -> ActResult:
        """Paste `text` whole into the focused field (no Enter presses): a single-line field
        gets its line breaks as spaces."""
        pasted = text_entry.normalize(text)
        if not self._focused_is_multiline():
            pasted = pasted.replace(text_entry.ENTER, " ")
        if not pasted:
            raise NoOp("nothing to paste")
        return self._insert(pasted)

    def _focused_is_multiline(self) -> bool:
        return any(n.focused and n.multiline for n in self.layout().walk())

    def delete_char(self) -> ActResult:
        entry, field_name = self._focused()
        value = str(entry["fields"].get(field_name, ""))
        if not value:
            raise NoOp(f"{field_name} is already empty")
        entry["fields"][field_name] = value[:-1]
        return ActResult("applied", "deleted a character")

    def submit_focused(self) -> ActResult:
        focused = next((n for n in self.layout().walk() if n.focused), None)
        if focused is None or focused.on_submit is None:
            raise NoOp("Enter: no focused field to submit")
        focused.on_submit(self._interaction())
        return ActResult("applied", "submitted")
