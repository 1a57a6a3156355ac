"""Cross-app task templates, grouped by theme: passing things on to friends (`sharing`),
plans and reminders (`schedule`), errands that end in a payment or a message (`errands`), and
everyday errands between the phone's own apps (`everyday`, `everyday_plans`, `everyday_more`)."""

from __future__ import annotations

from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.phoneworld.tasks.cross_app import (
    errands,
    everyday,
    everyday_more,
    everyday_plans,
    schedule,
    sharing,
)

TEMPLATES: tuple[TaskTemplate, ...] = (
    *sharing.TEMPLATES,
    *schedule.TEMPLATES,
    *errands.TEMPLATES,
    *everyday.TEMPLATES,
    *everyday_plans.TEMPLATES,
    *everyday_more.TEMPLATES,
)
