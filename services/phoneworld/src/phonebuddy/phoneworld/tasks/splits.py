"""PhoneWorld's train/test split, declared once. Three ways a task is held out:

- held-out seeds: every template, at seeds in `TEST_SEEDS` (a fresh device state and fresh
  parameters for a template the policy trained on);
- held-out templates: templates of trained apps the policy never trains on;
- held-out apps: every template that touches an app the policy never sees in training
  (generalization to an unseen app, the hard case).

A task is on the train side only when its template is neither held out nor touches a held-out
app, and its seed is in `TRAIN_SEEDS`. Training jobs refuse test tasks unless told explicitly;
evaluation samples test seeds only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phonebuddy.protocol import Split, seed_split

if TYPE_CHECKING:
    from phonebuddy.phoneworld.tasks.base import TaskTemplate

HELD_OUT_APPS: frozenset[str] = frozenset({"com.pw.music", "com.pw.ride"})

# One or two per trained app, across the three categories and question-answer tasks.
HELD_OUT_TEMPLATES: frozenset[str] = frozenset(
    {
        "contacts.edit_phone",
        "phone.missed_today",
        "messages.send_to_number",
        "messenger.like_moment",
        "settings.night_mode",
        "clock.alarm_reschedule",
        "calendar.delete_event",
        "mail.ask_train",
        "gallery.rename_file",
        "shop.change_quantity",
        "wallet.last_transfer",
        "food.cancel_unpaid",
        "travel.add_passenger",
        "weather.switch_unit",
        "mail.note_to_mail",
        "gallery.mail_photo",
        "shop.buy_note_list",
        "messenger.parcel_from_note",
        "mini.movies.from_card",
        "mini.parcels.pickup_code",
    }
)

__all__ = [
    "HELD_OUT_APPS",
    "HELD_OUT_TEMPLATES",
    "held_out_reason",
    "split_of",
]


def held_out_reason(template: TaskTemplate) -> str | None:
    """Why a template is on the test side at every seed ('app' or 'template'), else None."""
    if HELD_OUT_APPS.intersection(template.apps):
        return "app"
    if template.id in HELD_OUT_TEMPLATES:
        return "template"
    return None


def split_of(template: TaskTemplate, seed: int) -> Split | None:
    """The side of the split (template, seed) is on; None for a seed beyond both ranges, which
    neither a training job nor evaluation samples."""
    if held_out_reason(template) is not None:
        return Split.TEST
    return seed_split(seed)
