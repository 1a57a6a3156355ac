"""TLS: a real nats-server that requires TLS and client certificates (certificates made with the
openssl CLI; skipped where it is missing)."""

import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from phonebuddy.bus import BusConnectError, NatsSettings, connect
from phonebuddy.testing import NatsServer

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl CLI")


_NEW_EC_KEY = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")


def _openssl(folder: Path, *args: str) -> None:
    subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)


def _signed(folder: Path, name: str, extensions: str) -> None:
    """`name`.pem and `name`.key, signed by the test CA, with these x509v3 extensions."""
    key, csr, ext = f"{name}.key", f"{name}.csr", f"{name}.ext"
    _openssl(folder, "req", *_NEW_EC_KEY, "-keyout", key, "-out", csr, "-subj", f"/CN={name}")
    (folder / ext).write_text(extensions + "\n")
    signing = ("-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "1")
    _openssl(folder, "x509", "-req", "-in", csr, *signing, "-out", f"{name}.pem", "-extfile", ext)


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("certs")
    ca_subject = ("-subj", "/CN=phonebuddy-test-ca")
    _openssl(folder, "req", "-x509", *_NEW_EC_KEY, "-keyout", "ca.key", "-out", "ca.pem",
             "-days", "1", *ca_subject)  # fmt: skip
    _signed(folder, "server", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth")
    _signed(folder, "client", "extendedKeyUsage=clientAuth")
    return folder


class TlsNatsServer(NatsServer):
    """The testing NatsServer, requiring TLS with a client certificate signed by the test CA."""

    def __init__(self, certs: Path) -> None:
        super().__init__(jetstream=False)
        self.certs = certs

    def command(self) -> Sequence[str]:
        return [
            *super().command(),
            "--tlsverify",
            "--tlscert", str(self.certs / "server.pem"),
            "--tlskey", str(self.certs / "server.key"),
            "--tlscacert", str(self.certs / "ca.pem"),
        ]  # fmt: skip


@pytest.fixture(scope="module")
def tls_server(certs: Path) -> Iterator[TlsNatsServer]:
    with TlsNatsServer(certs) as server:
        yield server


def _settings(server: TlsNatsServer, **overrides: object) -> NatsSettings:
    values: dict[str, object] = {
        "url": server.url,
        "user": server.user,
        "password": server.password,
        "tls_ca_file": server.certs / "ca.pem",
        "tls_cert_file": server.certs / "client.pem",
        "tls_key_file": server.certs / "client.key",
        "connect_timeout_s": 2.0,
    }
    values.update(overrides)
    return NatsSettings(**values)


async def test_connects_over_mutual_tls_with_settings_files(tls_server: TlsNatsServer) -> None:
    async with connect(_settings(tls_server)) as bus:
        assert bus.is_connected
        await bus.nc.flush(timeout=2)


async def test_server_certificate_from_unknown_ca_is_a_connect_error(
    tls_server: TlsNatsServer,
) -> None:
    # The client trusts only the client certificate, not the CA that signed the server's.
    settings = _settings(tls_server, tls_ca_file=tls_server.certs / "client.pem")

    started = time.monotonic()

    with pytest.raises(BusConnectError, match="certificate verify failed"):
        await connect(settings)

    assert time.monotonic() - started < 1.0


async def test_missing_tls_file_is_a_connect_error_naming_it(tls_server: TlsNatsServer) -> None:
    missing = tls_server.certs / "nope.pem"

    with pytest.raises(BusConnectError, match="cannot load the TLS files"):
        await connect(_settings(tls_server, tls_cert_file=missing))
