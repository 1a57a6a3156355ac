"""Cross-app task templates, grouped by theme: passing things on to friends (`sharing`),
plans and reminders (`schedule`), and errands that end in a payment or a message (`errands`)."""

from __future__ import annotations

from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.phoneworld.tasks.cross_app import errands, schedule, sharing

TEMPLATES: tuple[TaskTemplate, ...] = (
    *sharing.TEMPLATES,
    *schedule.TEMPLATES,
    *errands.TEMPLATES,
)
