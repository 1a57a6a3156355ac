"""How `phonebuddy up` runs the gateway in the local stack (entry point `phonebuddy.stack`).

The stack starts `phonebuddy <args> --host H --port P` with its PHONEBUDDY_* settings in the
environment, waits for `/readyz` and has Prometheus scrape `/metrics`. The stack runs its own
adb server, and PhoneWorld's phones register with it over ADB (a laptop usually has no phone),
so the gateway starts after PhoneWorld and drives exactly those phones
(PHONEBUDDY_GATEWAY_ADB_SERVER, PHONEBUDDY_GATEWAY_SERIALS).
"""

STACK_SERVICE = {
    "name": "device-gateway",
    "nats_user": "device-gateway",
    "args": ["gateway", "serve", "--instance-id", "local"],
    "after": ["phoneworld"],
    "description": "device gateway: phones over ADB (env verbs for source real over NATS)",
}
