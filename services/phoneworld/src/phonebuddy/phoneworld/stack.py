"""How `phonebuddy up` runs PhoneWorld in the local stack (entry point `phonebuddy.stack`).

The stack starts `phonebuddy <args> --host H --port P` with its PHONEBUDDY_* settings in the
environment, waits for `/readyz`, and has Prometheus scrape `/metrics`. It also tells the device
gateway how to drive PhoneWorld's phones over ADB — their app names (`open("Notes")`) and the
task set-up broadcast that gives a `real` episode its task's start state — unless the user set
PHONEBUDDY_GATEWAY_APPS or _TASK_SETUP_ACTION, and points the rubric judge at PhoneWorld's
ground-truth grader (a labelled stand-in for a judge model, for these phones only) unless the
user set any PHONEBUDDY_JUDGE_{RUBRIC,GRADER}_* to a real model.
"""

from phonebuddy.phoneworld.adb.task_setup import TASK_SETUP_ACTION
from phonebuddy.phoneworld.ground_truth import MODEL as GROUND_TRUTH_MODEL
from phonebuddy.phoneworld.service.ground_truth_api import PREFIX as GROUND_TRUTH_PREFIX
from phonebuddy.phoneworld.world import default_world


def _gateway_apps() -> str:
    """`name=package` pairs (the gateway's APPS format) for every app's English and Chinese name."""
    pairs = {}
    for app in default_world(0).apps:
        for label in (app.label.en, app.label.zh):
            if "," not in label and "=" not in label:
                pairs[label] = app.package
    return ",".join(f"{label}={package}" for label, package in pairs.items())


_JUDGE_MODEL = {
    **{
        f"PHONEBUDDY_JUDGE_{role}_{key}": value
        for role in ("RUBRIC", "GRADER")
        for key, value in (
            ("BASE_URL", "{url}" + GROUND_TRUTH_PREFIX),
            ("MODEL", GROUND_TRUTH_MODEL),
        )
    },
    "PHONEBUDDY_JUDGE_TASK_METADATA": "true",
}

STACK_SERVICE = {
    "name": "phoneworld",
    "nats_user": "phoneworld",
    "args": ["world", "serve", "--instance-id", "local"],
    "description": "PhoneWorld: simulated phones (env verbs over NATS, and ADB)",
    "defaults": [
        {"PHONEBUDDY_GATEWAY_APPS": _gateway_apps()},
        {"PHONEBUDDY_GATEWAY_TASK_SETUP_ACTION": TASK_SETUP_ACTION},
        _JUDGE_MODEL,
    ],
}
