"""How `phonebuddy up` runs PhoneWorld in the local stack (entry point `phonebuddy.stack`).

The stack starts `phonebuddy <args> --host H --port P` with its PHONEBUDDY_* settings in the
environment, waits for `/readyz`, and has Prometheus scrape `/metrics`.
"""

STACK_SERVICE = {
    "name": "phoneworld",
    "args": ["world", "serve", "--instance-id", "local"],
    "description": "PhoneWorld: simulated phones (env verbs over NATS, and ADB)",
}
