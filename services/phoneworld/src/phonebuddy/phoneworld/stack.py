"""How `phonebuddy up` runs PhoneWorld in the local stack (entry point `phonebuddy.stack`).

The stack starts `phonebuddy <args> --host H --port P` with its PHONEBUDDY_* settings in the
environment, waits for `/readyz`, and has Prometheus scrape `/metrics`. It also tells the device
gateway PhoneWorld's app names (`open("Notes")` on a PhoneWorld phone over ADB), unless the user
set PHONEBUDDY_GATEWAY_APPS.
"""

from phonebuddy.phoneworld.world import default_world


def _gateway_apps() -> str:
    """`name=package` pairs (the gateway's APPS format) for every app's English and Chinese name."""
    pairs = {}
    for app in default_world(0).apps:
        for label in (app.label.en, app.label.zh):
            if "," not in label and "=" not in label:
                pairs[label] = app.package
    return ",".join(f"{label}={package}" for label, package in pairs.items())


STACK_SERVICE = {
    "name": "phoneworld",
    "nats_user": "phoneworld",
    "args": ["world", "serve", "--instance-id", "local"],
    "description": "PhoneWorld: simulated phones (env verbs over NATS, and ADB)",
    "defaults": {"PHONEBUDDY_GATEWAY_APPS": _gateway_apps()},
}
