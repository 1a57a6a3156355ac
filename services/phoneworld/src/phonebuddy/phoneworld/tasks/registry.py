"""The explicit registry of task templates: each app's own, then the cross-app ones."""

from __future__ import annotations

import functools

from phonebuddy.phoneworld.tasks.base import TaskTemplate


class UnknownTaskError(KeyError):
    def __init__(self, template_id: str) -> None:
        self.template_id = template_id
        super().__init__(f"unknown task template {template_id!r}; `phonebuddy world tasks` "
                         "lists them")  # fmt: skip

    def __str__(self) -> str:
        return str(self.args[0])


@functools.cache
def all_templates() -> tuple[TaskTemplate, ...]:
    from phonebuddy.phoneworld.apps.calendar import tasks as calendar
    from phonebuddy.phoneworld.apps.clock import tasks as clock
    from phonebuddy.phoneworld.apps.contacts import tasks as contacts
    from phonebuddy.phoneworld.apps.food import tasks as food
    from phonebuddy.phoneworld.apps.gallery import tasks as gallery
    from phonebuddy.phoneworld.apps.mail import tasks as mail
    from phonebuddy.phoneworld.apps.messages import tasks as messages
    from phonebuddy.phoneworld.apps.messenger import tasks as messenger
    from phonebuddy.phoneworld.apps.music import tasks as music
    from phonebuddy.phoneworld.apps.notes import tasks as notes
    from phonebuddy.phoneworld.apps.phone import tasks as phone
    from phonebuddy.phoneworld.apps.ride import tasks as ride
    from phonebuddy.phoneworld.apps.settings import tasks as settings
    from phonebuddy.phoneworld.apps.shop import tasks as shop
    from phonebuddy.phoneworld.apps.travel import tasks as travel
    from phonebuddy.phoneworld.apps.wallet import tasks as wallet
    from phonebuddy.phoneworld.apps.weather import tasks as weather
    from phonebuddy.phoneworld.tasks import cross_app

    templates = (
        *notes.TEMPLATES,
        *contacts.TEMPLATES,
        *phone.TEMPLATES,
        *messages.TEMPLATES,
        *messenger.TEMPLATES,
        *settings.TEMPLATES,
        *clock.TEMPLATES,
        *calendar.TEMPLATES,
        *mail.TEMPLATES,
        *gallery.TEMPLATES,
        *shop.TEMPLATES,
        *wallet.TEMPLATES,
        *food.TEMPLATES,
        *ride.TEMPLATES,
        *travel.TEMPLATES,
        *weather.TEMPLATES,
        *music.TEMPLATES,
        *cross_app.TEMPLATES,
    )
    ids = [t.id for t in templates]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise RuntimeError(f"duplicate task template ids: {sorted(duplicates)}")
    return templates


def get_template(template_id: str) -> TaskTemplate:
    for template in all_templates():
        if template.id == template_id:
            return template
    raise UnknownTaskError(template_id)
