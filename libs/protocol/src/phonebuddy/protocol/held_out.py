"""PhoneWorld's held-out templates, declared as data every component can read: PhoneWorld stamps
tasks with it, and the training jobs decide from it (and the seed) whether a stored step or a task
is on the test side — never from the `split` label a task carries, which anyone can write.

Three ways a task is held out:
- held-out seeds: every template, at seeds in `TEST_SEEDS`;
- held-out templates ("template"): templates of trained apps the policy never trains on;
- held-out apps ("app"): every template that touches an app the policy never sees in training.

PhoneWorld's tests check this table against its catalogue (every template touching a held-out
app is listed as "app", every listed id exists), so a new template cannot slip past it."""

from __future__ import annotations

from typing import Literal

from phonebuddy.protocol.tasks import Split, seed_split

HeldOutReason = Literal["app", "template"]

HELD_OUT_APPS: frozenset[str] = frozenset({"com.pw.music", "com.pw.ride"})

# One or two per trained app, across the three categories and question-answer tasks.
_HELD_OUT_TEMPLATES = (
    "contacts.edit_phone", "phone.missed_today", "messages.send_to_number",
    "messenger.like_moment", "settings.night_mode", "clock.alarm_reschedule",
    "calendar.delete_event", "mail.ask_train", "gallery.rename_file", "shop.change_quantity",
    "wallet.last_transfer", "food.cancel_unpaid", "travel.add_passenger", "weather.switch_unit",
    "mail.note_to_mail", "gallery.mail_photo", "shop.buy_note_list",
    "messenger.parcel_from_note", "mini.movies.from_card", "mini.parcels.pickup_code",
)  # fmt: skip

# Every template that touches a held-out app (PhoneWorld's tests keep this list complete).
_TOUCHING_HELD_OUT_APPS = (
    "cross_app.calendar_place_ride", "cross_app.everyday_playlist_from_chat",
    "cross_app.everyday_ride_plate_chat", "cross_app.everyday_song_tip_sms",
    "music.create_playlist", "music.delete_playlist", "music.like_song", "music.play_song",
    "music.playlist_count", "music.playlist_to_note", "music.remove_from_playlist",
    "music.set_play_mode", "music.share_now_playing", "music.who_sings", "ride.call",
    "ride.cancel", "ride.estimate", "ride.go_home", "ride.last_fare", "ride.note_place",
    "ride.set_place",
)  # fmt: skip

HELD_OUT: dict[str, HeldOutReason] = {
    **dict.fromkeys(_HELD_OUT_TEMPLATES, "template"),
    **dict.fromkeys(_TOUCHING_HELD_OUT_APPS, "app"),
}


def held_out_reason(template_id: str) -> HeldOutReason | None:
    """Why a template is on the test side at every seed ('app' or 'template'), else None."""
    return HELD_OUT.get(template_id)


def declared_split(template_id: str, seed: int | None) -> Split | None:
    """The side of the split (template, seed) is on: test for a held-out template at any seed,
    else the seed's range; None for a seed beyond both ranges or not known."""
    if template_id in HELD_OUT:
        return Split.TEST
    return None if seed is None else seed_split(seed)
