"""`phonebuddy gateway ...` as an operator runs it: real processes for PhoneWorld
(`world serve --adb-ports`), the gateway, NATS and the adb server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phonebuddy.bus import NatsSettings, RemoteError, connect
from phonebuddy.cli.main import full_app
from phonebuddy.protocol import ErrorCode, Open, Source
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import EnvVerb, env_lease_subject, env_verb_subject
from phonebuddy.stack.local import ServiceProcess, registered_services
from phonebuddy.testing import AdbServer, NatsServer, free_port

app = full_app()
runner = CliRunner()


def world_process(
    nats: NatsServer, name: str, base: int, devices: int, work: Path
) -> ServiceProcess:
    args = ["world", "serve", "--devices", str(devices), "--instance-id", name,
            "--adb-ports", str(base)]  # fmt: skip
    env = {"PHONEBUDDY_NATS_URL": nats.url, "PHONEBUDDY_NATS_USER": nats.user,
           "PHONEBUDDY_NATS_PASSWORD": nats.password}  # fmt: skip
    return ServiceProcess(name=name, args=args, env=env, work_dir=work / name)


def test_gateway_is_registered_as_a_command_and_a_stack_service() -> None:
    result = runner.invoke(app, ["gateway", "--help"])
    assert result.exit_code == 0
    assert "serve" in result.output
    assert "devices" in result.output
    [spec] = [s for s in registered_services() if s["name"] == "device-gateway"]
    assert spec["args"][:2] == ["gateway", "serve"]


def test_bad_settings_stop_with_one_sentence() -> None:
    result = runner.invoke(app, ["gateway", "devices", "--adb-server", "nowhere"])
    assert result.exit_code == 2
    assert "adb_server" in result.output
    assert "HOST:PORT" in result.output


def test_devices_lists_what_the_gateway_would_drive(
    nats_server: NatsServer, adb_server: AdbServer, tmp_path: Path, port_block
) -> None:
    base = port_block(2)
    with world_process(nats_server, "clidevices", base, 2, tmp_path):
        addresses = [f"127.0.0.1:{base}", f"127.0.0.1:{base + 1}"]
        result = runner.invoke(app, [
            "gateway", "devices", "--adb-server", f"127.0.0.1:{adb_server.port}",
            "--connect", addresses[0], "--connect", addresses[1],
            "--serial", addresses[0], "--serial", addresses[1],
        ])  # fmt: skip
    assert result.exit_code == 0, result.output
    described = json.loads(result.stdout)  # the JSON; logs go to stderr
    assert described["adb_server_reachable"]
    devices = {d["serial"]: d for d in described["devices"]}
    assert set(devices) == set(addresses)
    assert all(d["healthy"] for d in devices.values())
    assert devices[addresses[0]]["screen"] == {"width": 1080, "height": 2400}


def test_devices_says_when_the_adb_server_is_unreachable() -> None:
    result = runner.invoke(app, ["gateway", "devices", "--adb-server", f"127.0.0.1:{free_port()}"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["adb_server_reachable"] is False


async def test_serving_process_survives_a_phoneworld_process_that_stops(
    nats_server: NatsServer, adb_server: AdbServer, tmp_path: Path, port_block, unique_name: str
) -> None:
    """Two PhoneWorld processes, one gateway process; stopping one PhoneWorld process costs
    only its phone: a typed device_lost for its lease, and the other phone keeps working."""
    stays, goes = port_block(1), port_block(1)
    addresses = [f"127.0.0.1:{stays}", f"127.0.0.1:{goes}"]
    nats = NatsSettings(url=nats_server.url, user=nats_server.user, password=nats_server.password)
    env = {
        "PHONEBUDDY_NATS_URL": nats_server.url,
        "PHONEBUDDY_NATS_USER": nats_server.user,
        "PHONEBUDDY_NATS_PASSWORD": nats_server.password,
        "PHONEBUDDY_GATEWAY_SETTLE_S": "0",
        "PHONEBUDDY_GATEWAY_ADB_TIMEOUT_S": "3",
        "PHONEBUDDY_GATEWAY_HEALTH_INTERVAL_S": "0.5",
        "PHONEBUDDY_GATEWAY_APPS": "Notes=com.pw.notes",
    }
    gateway_args = ["gateway", "serve", "--adb-server", f"127.0.0.1:{adb_server.port}",
                    "--instance-id", unique_name]  # fmt: skip
    for address in addresses:
        gateway_args += ["--connect", address, "--serial", address]
    with (
        world_process(nats_server, f"{unique_name}a", stays, 1, tmp_path),
        world_process(nats_server, f"{unique_name}b", goes, 1, tmp_path) as doomed,
        ServiceProcess(name="gateway", args=gateway_args, env=env, work_dir=tmp_path / "gw"),
    ):
        async with connect(nats) as bus:

            def subject(verb: EnvVerb) -> str:
                return env_verb_subject(Source.REAL, unique_name, verb)

            async def lease() -> m.Lease:
                request = m.LeaseRequest(client_id="cli-test", ttl_s=60)
                return await bus.request(env_lease_subject(Source.REAL), request, m.Lease)

            async def act(held: m.Lease) -> m.ActReply:
                request = m.ActRequest(lease_id=held.lease_id, action=Open(text="Notes"))
                return await bus.request(subject(EnvVerb.ACT), request, m.ActReply)

            leases = {held.device_id: held for held in [await lease(), await lease()]}
            assert set(leases) == set(addresses)
            doomed.stop()
            with pytest.raises(RemoteError) as raised:
                await act(leases[addresses[1]])
            assert raised.value.code == ErrorCode.DEVICE_LOST
            assert (await act(leases[addresses[0]])).effect == "applied"
