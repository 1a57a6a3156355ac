"""Real servers on free loopback ports, for tests (pytest fixtures) and the local stack.

Every server is a `ManagedProcess`: a context manager (sync and async) that starts the binary in
its own process group, waits until it really answers, and on exit stops it by PID and removes
its scratch directory.
"""

from phonebuddy.testing.nats import NatsServer
from phonebuddy.testing.ports import free_port, port_accepts
from phonebuddy.testing.process import ManagedProcess, ServerStartError, find_binary

__all__ = [
    "ManagedProcess",
    "NatsServer",
    "ServerStartError",
    "find_binary",
    "free_port",
    "port_accepts",
]
