"""Free loopback ports for servers started by tests and the local stack."""

from __future__ import annotations

import socket

# Linux hands out ephemeral ports from 32768-60999; a port picked there can be taken by an
# outgoing connection before the server binds it, so pick below that range.
_LOW, _HIGH = 20000, 32000
_handed_out: set[int] = set()


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = "127.0.0.1") -> int:
    """A port that is free now and was not handed out before by this process."""
    import random

    rng = random.SystemRandom()
    for _ in range(1000):
        port = rng.randrange(_LOW, _HIGH)
        if port in _handed_out or not port_is_free(port, host):
            continue
        _handed_out.add(port)
        return port
    raise RuntimeError(f"no free port on {host} in {_LOW}-{_HIGH} after 1000 tries")


def free_port_range(count: int, host: str = "127.0.0.1") -> int:
    """The first of `count` consecutive ports that are all free now (for per-device ports)."""
    import random

    rng = random.SystemRandom()
    for _ in range(1000):
        base = rng.randrange(_LOW, _HIGH - count)
        ports = range(base, base + count)
        if any(p in _handed_out for p in ports) or not all(port_is_free(p, host) for p in ports):
            continue
        _handed_out.update(ports)
        return base
    raise RuntimeError(f"no {count} consecutive free ports on {host} after 1000 tries")


def port_accepts(port: int, host: str = "127.0.0.1", timeout_s: float = 0.2) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return True
    except OSError:
        return False
