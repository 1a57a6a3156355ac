"""phonebuddy.stack: the local stack — NATS, an object store, Prometheus, an adb server and every
installed service's process on one machine (`phonebuddy up`, `phonebuddy demo`).

- `phonebuddy.stack.local`: `LocalStack`, `ServiceProcess`, `registered_services`
- `phonebuddy.stack.stack_file`: the stack file through which other commands find the stack
- `phonebuddy.stack.launch`: runs a service's sub-command without the `phonebuddy` command
- `phonebuddy.stack.watchdog`: a service the stack started goes when the stack goes
- `phonebuddy.stack.cli`: `phonebuddy up` and `phonebuddy env`

Submodules are imported by name, so reading the stack file or launching a service does not load
the servers' packages.
"""
