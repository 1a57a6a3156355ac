"""Task set-up over ADB: how a PhoneWorld phone behind the device gateway (source `real`) gets a
task's start state, the way real-device suites set up their tasks with `adb shell` commands.

`am broadcast -a com.phonebuddy.phoneworld.SETUP_TASK --es template_id T --ei seed S
[--es language en]` puts the phone in the start state of PhoneWorld task (T, S) — the very state
a `sim` reset gives — and answers like an ordered broadcast whose receiver set a result:
`result=-1` (RESULT_OK) with the task id as data, or `result=1` with the reason. A phone without
the receiver (any physical phone) answers `result=0`, which the gateway reports as a set-up
failure rather than running the task from the wrong state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.tasks.registry import UnknownTaskError, get_template
from phonebuddy.phoneworld.tasks.runner import instantiate, start

if TYPE_CHECKING:
    from phonebuddy.phoneworld.adb.commands.intents import Intent
    from phonebuddy.phoneworld.adb.phone import AdbPhone

TASK_SETUP_ACTION = "com.phonebuddy.phoneworld.SETUP_TASK"
RESULT_OK = -1
RESULT_FAILED = 1
LANGUAGES = ("en", "zh")


@dataclass(frozen=True, slots=True)
class SetupResult:
    code: int
    data: str


def setup_task(phone: AdbPhone, intent: Intent) -> SetupResult:
    """Run the SETUP_TASK receiver on `phone` (the caller holds its lock)."""
    template_id = intent.extras.get("template_id")
    seed = intent.extras.get("seed", 0)
    language = intent.extras.get("language", "en")
    if not isinstance(template_id, str) or not template_id:
        return SetupResult(RESULT_FAILED, "extra template_id (--es) is required")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        return SetupResult(RESULT_FAILED, "extra seed (--ei) must be a non-negative integer")
    if language not in LANGUAGES:
        return SetupResult(RESULT_FAILED, f"extra language must be one of {LANGUAGES}")
    try:
        template = get_template(template_id)
    except UnknownTaskError as exc:
        return SetupResult(RESULT_FAILED, str(exc))
    instance = instantiate(template, phone.device.world, seed, language=str(language))
    start(phone.device, instance)
    return SetupResult(RESULT_OK, instance.spec.task_id)
