"""Real servers on free loopback ports, for tests (pytest fixtures) and the local stack.

Every server is a `ManagedProcess`: a context manager (sync and async) that starts the binary in
its own process group, waits until it really answers, and on exit stops it by PID and removes
its scratch directory.

`ScriptedLLM` is the test double at the LLM boundary: a real OpenAI-compatible server whose
answers come from a script (text, JSON, HTTP errors, malformed bodies, slow answers).
"""

from phonebuddy.testing.adb import AdbServer, find_adb
from phonebuddy.testing.asgi import serve_asgi, serve_asgi_in_thread
from phonebuddy.testing.nats import NatsServer
from phonebuddy.testing.ports import free_port, free_port_range, port_accepts
from phonebuddy.testing.process import ManagedProcess, ServerStartError, find_binary
from phonebuddy.testing.prometheus import PrometheusQueryError, PrometheusServer
from phonebuddy.testing.s3 import S3Server
from phonebuddy.testing.scripted_llm import (
    RecordedRequest,
    ScriptedLLM,
    ScriptedReply,
    ScriptError,
    ScriptExhaustedError,
    always,
    in_order,
)

__all__ = [
    "AdbServer",
    "ManagedProcess",
    "NatsServer",
    "PrometheusQueryError",
    "PrometheusServer",
    "RecordedRequest",
    "S3Server",
    "ScriptError",
    "ScriptExhaustedError",
    "ScriptedLLM",
    "ScriptedReply",
    "ServerStartError",
    "always",
    "find_adb",
    "find_binary",
    "free_port",
    "free_port_range",
    "in_order",
    "port_accepts",
    "serve_asgi",
    "serve_asgi_in_thread",
]
