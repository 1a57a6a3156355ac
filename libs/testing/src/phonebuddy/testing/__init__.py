"""Real servers on free loopback ports, for tests (pytest fixtures) and the local stack.

Every server is a `ManagedProcess`: a context manager (sync and async) that starts the binary in
its own process group, waits until it really answers, and on exit stops it by PID and removes
its scratch directory.
"""

from phonebuddy.testing.adb import AdbServer, find_adb
from phonebuddy.testing.asgi import serve_asgi, serve_asgi_in_thread
from phonebuddy.testing.nats import NatsServer
from phonebuddy.testing.ports import free_port, free_port_range, port_accepts
from phonebuddy.testing.process import ManagedProcess, ServerStartError, find_binary
from phonebuddy.testing.prometheus import PrometheusQueryError, PrometheusServer
from phonebuddy.testing.s3 import S3Server

__all__ = [
    "AdbServer",
    "ManagedProcess",
    "NatsServer",
    "PrometheusQueryError",
    "PrometheusServer",
    "S3Server",
    "ServerStartError",
    "find_adb",
    "find_binary",
    "free_port",
    "free_port_range",
    "port_accepts",
    "serve_asgi",
    "serve_asgi_in_thread",
]
