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
    from phonebuddy.phoneworld.apps import APPS, app_tasks
    from phonebuddy.phoneworld.tasks import cross_app

    templates = (*(t for name in APPS for t in app_tasks(name).TEMPLATES), *cross_app.TEMPLATES)
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
