"""Remote image URLs, fetched only where that cannot turn the server into a probe of its network.

Off unless PHONEBUDDY_POLICY_ALLOW_REMOTE_IMAGES; then an image URL (and every redirect it
takes, at most `max_redirects`) must be http(s) without credentials, name a host on the
allow-list, and resolve to public addresses only (no loopback, private, link-local, shared,
reserved, multicast or unspecified ones, IPv4-mapped and 6to4/Teredo forms included). The
connection goes to the address that was checked — the URL is rewritten to it, with the name in
`Host` and in TLS's SNI and certificate check — so a second DNS answer cannot swap it (DNS
rebinding). Each refusal is a `RemoteImageError` whose reason is for the server's log; the
client only ever learns that the URL could not be fetched.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[IPAddress]]]
AddressPolicy = Callable[[IPAddress], bool]
DEFAULT_PORTS = {"http": 80, "https": 443}


class RemoteImageError(Exception):
    """A remote image that was refused or could not be fetched; the message is for logs only."""


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]  # the client's address
    return None


def is_public_address(address: IPAddress) -> bool:
    """Whether `address` is on the public internet (what remote image fetches may reach)."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None and not is_public_address(embedded):
            return False
    return address.is_global and not (
        address.is_multicast
        or address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_reserved
        or address.is_unspecified
    )


async def resolve_host(host: str, port: int) -> list[IPAddress]:
    """Every address `host` resolves to (a literal address resolves to itself)."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise RemoteImageError(f"cannot resolve {host}: {exc}") from exc
    return [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]


def host_allowed(host: str, allow_hosts: frozenset[str]) -> bool:
    """`host` is on the list, or a subdomain of a `*.domain` entry."""
    if host in allow_hosts:
        return True
    return any(entry.startswith("*.") and host.endswith(entry[1:]) for entry in allow_hosts)


@dataclass(frozen=True, slots=True)
class RemotePolicy:
    allow_hosts: frozenset[str]
    max_redirects: int
    timeout_s: float
    max_bytes: int


class RemoteImageFetcher:
    """Fetches remote image bytes under `RemotePolicy`. `resolve` and `address_allowed` are
    the DNS lookup and the public-address rule; tests stand a loopback address in for a public
    one through `address_allowed`, nothing else changes."""

    def __init__(
        self,
        policy: RemotePolicy,
        http: httpx.AsyncClient,
        *,
        resolve: Resolver = resolve_host,
        address_allowed: AddressPolicy = is_public_address,
    ) -> None:
        self.policy = policy
        self.http = http
        self.resolve = resolve
        self.address_allowed = address_allowed

    async def fetch(self, url: str) -> bytes:
        try:
            async with asyncio.timeout(self.policy.timeout_s):
                return await self._follow(httpx.URL(url))
        except TimeoutError as exc:
            raise RemoteImageError(f"no answer within {self.policy.timeout_s} s") from exc
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise RemoteImageError(repr(exc)) from exc

    async def _follow(self, url: httpx.URL) -> bytes:
        for _ in range(self.policy.max_redirects + 1):
            address = await self._checked_address(url)
            pinned = url.copy_with(host=str(address))
            extensions = {"sni_hostname": url.raw_host.decode()} if url.scheme == "https" else {}
            async with self.http.stream(
                "GET",
                pinned,
                headers={"Host": url.netloc.decode()},
                extensions=extensions,
                follow_redirects=False,
            ) as response:
                if response.is_redirect:  # a 3xx with a Location
                    url = url.join(response.headers["location"])
                    continue
                if response.status_code != 200:
                    raise RemoteImageError(f"GET {url} answered {response.status_code}")
                return await self._body(response, url)
        raise RemoteImageError(f"more than {self.policy.max_redirects} redirects")

    async def _checked_address(self, url: httpx.URL) -> IPAddress:
        if url.scheme not in DEFAULT_PORTS:
            raise RemoteImageError(f"{url}: only http(s) URLs are fetched")
        if url.userinfo:
            raise RemoteImageError(f"{url}: URLs with credentials are not fetched")
        host = url.raw_host.decode().lower().rstrip(".")
        if not host_allowed(host, self.policy.allow_hosts):
            raise RemoteImageError(f"{host} is not on PHONEBUDDY_POLICY_IMAGE_URL_ALLOW_HOSTS")
        addresses = await self.resolve(host, url.port or DEFAULT_PORTS[url.scheme])
        refused = [address for address in addresses if not self.address_allowed(address)]
        if not addresses or refused:
            raise RemoteImageError(
                f"{host} resolves to non-public addresses {refused or addresses}"
            )
        return addresses[0]

    async def _body(self, response: httpx.Response, url: httpx.URL) -> bytes:
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > self.policy.max_bytes:
                raise RemoteImageError(f"{url} is larger than {self.policy.max_bytes} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
