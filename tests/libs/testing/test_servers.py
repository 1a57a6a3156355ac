import asyncio
import os
import socket
from pathlib import Path

import httpx
import nats
import pytest
from nats.aio.msg import Msg

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


async def test_nats_users_get_their_own_password_and_only_their_permissions() -> None:
    allowed = {"publish": {"allow": ["svc.ok"]}, "subscribe": {"allow": ["_INBOX.>"]}}
    with NatsServer(users={"svc": allowed}) as server:
        config = server.work_dir / "nats.conf"
        assert config.stat().st_mode & 0o077 == 0
        errors: list[str] = []

        async def on_error(exc: Exception) -> None:
            errors.append(str(exc))

        admin = await nats.connect(server.url, user=server.user, password=server.password)
        svc = await nats.connect(
            server.url, user="svc", password=server.passwords["svc"], error_cb=on_error
        )
        try:
            seen: list[str] = []

            async def collect(msg: Msg) -> None:
                seen.append(msg.subject)

            await admin.subscribe("svc.*", cb=collect)
            await admin.flush()
            await svc.publish("svc.ok", b"")
            await svc.publish("svc.not", b"")
            await svc.flush()
            await admin.flush()
            # The delivery and the server's -ERR reach their callbacks as tasks of their own: on
            # a busy machine they may still be pending after the flushes.
            for _ in range(100):
                if seen and errors:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.1)  # a wrongly delivered "svc.not" would arrive by now
        finally:
            await svc.close()
            await admin.close()

    assert seen == ["svc.ok"]
    assert any('publish to "svc.not"' in error for error in errors)


def test_the_full_access_nats_user_cannot_also_be_restricted() -> None:
    with pytest.raises(ValueError, match="full-access user"):
        NatsServer(user="svc", users={"svc": {}})


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
