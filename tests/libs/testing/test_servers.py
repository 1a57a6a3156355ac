import os
import socket
from pathlib import Path

import httpx
import pytest

from phonebuddy.testing import NatsServer, PrometheusServer, ServerStartError, free_port


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_nats_server_stops_by_pid_and_removes_its_scratch_dir() -> None:
    server = NatsServer()
    with server:
        pid = server.pid
        assert httpx.get(f"{server.monitor_url}/varz").json()["jetstream"]["config"]
    assert not pid_alive(pid)
    assert not server.work_dir.exists()


def test_nats_password_is_not_on_the_command_line() -> None:
    with NatsServer() as server:
        cmdline = Path(f"/proc/{server.pid}/cmdline").read_bytes().decode()
    assert server.password not in cmdline


def test_a_server_that_cannot_bind_fails_with_its_log() -> None:
    port = free_port()
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", port))
        blocker.listen()
        with pytest.raises(ServerStartError, match="nats did not start") as raised:
            NatsServer(port=port).start()
    assert "address already in use" in raised.value.log_tail.lower()


def test_prometheus_scrapes_targets_added_while_running(
    prometheus_server: PrometheusServer,
) -> None:
    prometheus_server.set_targets("self_again", [f"127.0.0.1:{prometheus_server.port}"])
    result = prometheus_server.wait_for('up{job="self_again"} == 1')
    assert result[0]["metric"]["job"] == "self_again"


def test_prometheus_query_errors_name_the_query(prometheus_server: PrometheusServer) -> None:
    with pytest.raises(Exception, match="sum by"):
        prometheus_server.query("sum by (")


def test_prometheus_stops_leaving_no_process() -> None:
    with PrometheusServer() as server:
        pid = server.pid
    assert not pid_alive(pid)
