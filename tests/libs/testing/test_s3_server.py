"""S3Server: a real S3 (SeaweedFS) that checks signatures and leaves nothing behind."""

from __future__ import annotations

import io
import os
import re
import socket
import stat
import time
from pathlib import Path

import pytest
from minio import Minio
from minio.error import S3Error

from phonebuddy.testing import S3Server


def client(
    server: S3Server, *, access_key: str | None = None, secret_key: str | None = None
) -> Minio:
    return Minio(
        server.endpoint,
        access_key=access_key or server.access_key,
        secret_key=secret_key or server.secret_key,
        secure=False,
    )


def test_serves_signed_s3_requests_on_loopback(s3_server: S3Server, unique_name: str) -> None:
    assert re.fullmatch(r"127\.0\.0\.1:\d+", s3_server.endpoint)
    assert s3_server.url == f"http://{s3_server.endpoint}"
    assert s3_server.is_ready()

    s3 = client(s3_server)
    s3.make_bucket(unique_name)
    try:
        s3.put_object(unique_name, "a/b.txt", io.BytesIO(b"hello"), 5)
        response = s3.get_object(unique_name, "a/b.txt")
        try:
            assert response.read() == b"hello"
        finally:
            response.close()
            response.release_conn()
    finally:
        s3.remove_object(unique_name, "a/b.txt")
        s3.remove_bucket(unique_name)


def test_identity_config_is_private(s3_server: S3Server) -> None:
    config = s3_server.work_dir / "s3.json"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600


def test_buckets_are_not_created_on_upload(s3_server: S3Server, unique_name: str) -> None:
    with pytest.raises(S3Error) as caught:
        client(s3_server).put_object(unique_name, "k", io.BytesIO(b"v"), 1)
    assert caught.value.code == "NoSuchBucket"


def test_rejects_a_wrong_secret_key(s3_server: S3Server) -> None:
    with pytest.raises(S3Error) as caught:
        client(s3_server, secret_key="wrong-secret").list_buckets()
    assert caught.value.code == "SignatureDoesNotMatch"


def test_rejects_an_unknown_access_key(s3_server: S3Server) -> None:
    with pytest.raises(S3Error) as caught:
        client(s3_server, access_key="intruder").list_buckets()
    assert caught.value.code == "InvalidAccessKeyId"


def test_stop_leaves_no_process_files_or_sockets() -> None:
    started = time.time() - 1  # file times may be a little coarser than the clock
    with S3Server(access_key="someone", secret_key="their-secret") as server:
        pid = server.pid
        work_dir = server.work_dir
        assert client(server).list_buckets() == []
        ports = set(server.ports.values())

    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)  # nor any child in its process group
    assert not work_dir.exists()
    # weed puts unix sockets in /tmp named after the HTTP or gRPC (HTTP + 10000) port; one of
    # an older weed killed elsewhere may carry the same number, so only this run's count.
    sockets = [
        path
        for path in Path("/tmp").glob("seaweedfs-*.sock")
        if int(path.stem.rsplit("-", 1)[1]) in ports | {port + 10000 for port in ports}
        and path.lstat().st_mtime >= started
    ]
    assert sockets == []


def test_start_moves_to_fresh_ports_when_one_was_taken() -> None:
    server = S3Server()
    taken = server.port
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", taken))
        squatter.listen()
        with server:
            assert server.port != taken
            assert client(server).list_buckets() == []
