"""How `phonebuddy up` runs the gateway in the local stack (entry point `phonebuddy.stack`).

The stack starts `phonebuddy <args> --host H --port P` with its PHONEBUDDY_* settings in the
environment, waits for `/readyz` and has Prometheus scrape `/metrics`. A laptop usually has no
phone attached, so here the gateway is ready without one (`--ready-without-devices`): it drives
whatever the adb server at PHONEBUDDY_GATEWAY_ADB_SERVER [127.0.0.1:5037] lists (restrict with
PHONEBUDDY_GATEWAY_SERIALS, add network phones with PHONEBUDDY_GATEWAY_CONNECT) as phones
appear, and answers `no_device_available` until then.
"""

STACK_SERVICE = {
    "name": "device-gateway",
    "args": ["gateway", "serve", "--instance-id", "local", "--ready-without-devices"],
    "description": "device gateway: phones over ADB (env verbs for source real over NATS)",
}
