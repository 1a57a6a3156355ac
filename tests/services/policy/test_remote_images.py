"""Remote image URLs cannot make the policy server a probe of its own network: off by default;
when on, only allow-listed hosts on public addresses, the address checked is the one connected
to, redirects are bounded and checked the same way, and errors say nothing about the target.

Only loopback exists here, so `INTERNAL` (127.0.0.1) plays the pod's network, and `PUBLIC`
(127.0.0.2) plays a public host: the tests let the fetcher treat exactly that address as public
(`address_allowed`), nothing else; the real rule is tested on its own.
"""

import asyncio
import ipaddress
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response, StreamingResponse
from pydantic import ValidationError

from phonebuddy.policy.app import backend_for, create_app
from phonebuddy.policy.errors import ImageError
from phonebuddy.policy.images import REMOTE_REFUSED, ImageLimits, ImageLoader
from phonebuddy.policy.remote_images import (
    IPAddress,
    RemoteImageFetcher,
    RemotePolicy,
    host_allowed,
    is_public_address,
)
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.testing import serve_asgi, serve_asgi_in_thread

from .conftest import API_KEY, MODEL, settings_for, user_message
from .test_images import png

MAX_BYTES = 64_000
LIMITS = ImageLimits(max_bytes=MAX_BYTES, max_pixels=1_000_000)
LABEL = "image 1 (message 1)"
SHOT = png((30, 60), color=(9, 99, 199))
INTERNAL = "127.0.0.1"
PUBLIC = "127.0.0.2"
REFUSED = f"{LABEL}: {REMOTE_REFUSED}"


@dataclass
class Hits:
    """Every request an image server received: (path, Host header)."""

    requests: list[tuple[str, str]] = field(default_factory=list)


def image_app(hits: Hits) -> FastAPI:
    app = FastAPI()

    @app.middleware("http")
    async def record(request: Request, call_next):  # type: ignore[no-untyped-def]
        hits.requests.append((request.url.path, request.headers.get("host", "")))
        return await call_next(request)

    @app.get("/shot.png")
    async def shot() -> Response:
        return Response(SHOT, media_type="image/png")

    @app.get("/redirect")
    async def redirect(to: str) -> RedirectResponse:
        return RedirectResponse(to, status_code=302)

    @app.get("/hops/{count}")
    async def hops(count: int) -> RedirectResponse:
        return RedirectResponse("/shot.png" if count == 1 else f"/hops/{count - 1}", 307)

    @app.get("/admin")
    async def admin() -> Response:
        return Response("internal console", status_code=418)

    @app.get("/huge.png")
    async def huge() -> StreamingResponse:
        async def chunks() -> AsyncIterator[bytes]:
            for _ in range(MAX_BYTES // 4096 + 2):
                yield b"\0" * 4096

        return StreamingResponse(chunks(), media_type="image/png")

    @app.get("/slow.png")
    async def slow() -> Response:
        await asyncio.sleep(1.0)
        return Response(SHOT, media_type="image/png")

    return app


@dataclass
class Server:
    url: str
    port: int
    hits: Hits


@pytest.fixture
async def internal() -> AsyncIterator[Server]:
    """A service on the pod's network (loopback) that no image URL may reach."""
    hits = Hits()
    async with serve_asgi(image_app(hits), host=INTERNAL) as url:
        yield Server(url, int(url.rsplit(":", 1)[1]), hits)


@pytest.fixture
async def public() -> AsyncIterator[Server]:
    """An allowed image host on a (stand-in) public address."""
    hits = Hits()
    async with serve_asgi(image_app(hits), host=PUBLIC) as url:
        yield Server(url, int(url.rsplit(":", 1)[1]), hits)


def only_public_stand_in(address: IPAddress) -> bool:
    return address == ipaddress.ip_address(PUBLIC)


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(trust_env=False) as client:
        yield client


def loader(
    http: httpx.AsyncClient,
    *,
    hosts: tuple[str, ...] = (PUBLIC,),
    max_redirects: int = 3,
    timeout_s: float = 5.0,
    address_allowed=only_public_stand_in,  # type: ignore[no-untyped-def]
    resolve=None,  # type: ignore[no-untyped-def]
) -> ImageLoader:
    policy = RemotePolicy(frozenset(hosts), max_redirects, timeout_s, MAX_BYTES)
    extra = {"resolve": resolve} if resolve is not None else {}
    fetcher = RemoteImageFetcher(policy, http, address_allowed=address_allowed, **extra)
    return ImageLoader(LIMITS, remote=fetcher)


async def refusal(images: ImageLoader, url: str) -> str:
    with pytest.raises(ImageError) as caught:
        await images.load(url, label=LABEL)
    assert caught.value.status == 400
    return caught.value.message


# -- what is fetched ---------------------------------------------------------------------------


async def test_an_allowed_public_host_is_fetched(public: Server, http: httpx.AsyncClient) -> None:
    image = await loader(http).load(f"{public.url}/shot.png", label=LABEL)
    assert (image.mode, image.size) == ("RGB", (30, 60))
    assert image.getpixel((0, 0)) == (9, 99, 199)
    assert public.hits.requests == [("/shot.png", f"{PUBLIC}:{public.port}")]


async def test_a_redirect_within_allowed_hosts_is_followed_up_to_the_limit(
    public: Server, http: httpx.AsyncClient
) -> None:
    images = loader(http, max_redirects=3)
    assert (await images.load(f"{public.url}/hops/3", label=LABEL)).size == (30, 60)
    public.hits.requests.clear()
    assert await refusal(images, f"{public.url}/hops/4") == REFUSED
    assert [path for path, _ in public.hits.requests] == [f"/hops/{n}" for n in (4, 3, 2, 1)]


async def test_the_connection_goes_to_the_address_that_was_checked(
    public: Server, internal: Server, http: httpx.AsyncClient
) -> None:
    """DNS rebinding: the name answers a public address when checked and an internal one after
    that. `images.test` is in no DNS, so the fetch succeeding means the connection went to the
    address the fetcher resolved and checked itself, once, with the name kept in `Host`."""
    answers: list[str] = []

    async def rebinding(host: str, port: int) -> list[IPAddress]:
        answers.append(host)
        return [ipaddress.ip_address(PUBLIC if len(answers) == 1 else INTERNAL)]

    images = loader(http, hosts=("images.test",), resolve=rebinding)
    image = await images.load(f"http://images.test:{public.port}/shot.png", label=LABEL)
    assert image.size == (30, 60)
    assert answers == ["images.test"]
    assert public.hits.requests == [("/shot.png", f"images.test:{public.port}")]
    assert internal.hits.requests == []


# -- what is refused, without contacting the target --------------------------------------------


async def test_remote_urls_are_refused_when_the_server_has_no_fetcher(internal: Server) -> None:
    message = await refusal(ImageLoader(LIMITS), f"{internal.url}/shot.png")
    assert "does not fetch remote image URLs" in message
    assert internal.hits.requests == []


async def test_a_host_not_on_the_allow_list_is_refused(
    public: Server, http: httpx.AsyncClient
) -> None:
    images = loader(http, hosts=("images.example.com",))
    assert await refusal(images, f"{public.url}/shot.png") == REFUSED
    assert public.hits.requests == []


@pytest.mark.parametrize("host", [INTERNAL, "localhost", "127.1", "0x7f000001", "[::1]"])
async def test_loopback_is_refused_even_when_allow_listed(
    host: str, internal: Server, http: httpx.AsyncClient
) -> None:
    """With the real public-address rule, an allow-listed name or address that is loopback
    is still refused, however it is spelled."""
    name = host.strip("[]")
    images = loader(http, hosts=(name,), address_allowed=is_public_address)
    assert await refusal(images, f"http://{host}:{internal.port}/shot.png") == REFUSED
    assert internal.hits.requests == []


async def test_a_redirect_to_the_internal_network_is_refused(
    public: Server, internal: Server, http: httpx.AsyncClient
) -> None:
    images = loader(http, hosts=(PUBLIC, INTERNAL))  # allow-listed, still not public
    url = f"{public.url}/redirect?to={internal.url}/admin"
    assert await refusal(images, url) == REFUSED
    assert [path for path, _ in public.hits.requests] == ["/redirect"]
    assert internal.hits.requests == []


@pytest.mark.parametrize(
    "target",
    ["http://images.example.com/shot.png", "file:///etc/passwd", "http://user:pw@127.0.0.2/"],
)
async def test_a_redirect_off_the_allow_list_or_to_another_scheme_is_refused(
    target: str, public: Server, http: httpx.AsyncClient
) -> None:
    assert await refusal(loader(http), f"{public.url}/redirect?to={target}") == REFUSED
    assert [path for path, _ in public.hits.requests] == ["/redirect"]


async def test_credentials_in_the_url_are_refused(public: Server, http: httpx.AsyncClient) -> None:
    url = f"http://user:secret@{PUBLIC}:{public.port}/shot.png"
    assert await refusal(loader(http), url) == REFUSED
    assert public.hits.requests == []


@pytest.mark.parametrize("path", ["/admin", "/missing.png", "/huge.png", "/slow.png"])
async def test_errors_reveal_nothing_about_the_target(
    path: str, public: Server, http: httpx.AsyncClient
) -> None:
    """A status (418, 404), a size or a timeout would tell a prober what answers where; the
    message is the same for all of them and names neither host, port nor status."""
    message = await refusal(loader(http, timeout_s=0.3), f"{public.url}{path}")
    assert message == REFUSED
    for secret in (str(public.port), PUBLIC, "418", "404", "internal console", "bytes"):
        assert secret not in message


# -- the public-address rule -------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1", "0.0.0.0", "224.0.0.1", "239.255.255.250", "255.255.255.255",
        "198.18.0.1", "192.0.0.1", "240.0.0.1",
        "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
        "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:10.0.0.1",
        "2002:7f00:1::1",  # 6to4 around 127.0.0.1
        "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo around 127.0.0.1
        "64:ff9b::a00:1",  # NAT64 around 10.0.0.1
    ],
)  # fmt: skip
def test_non_public_addresses_are_refused(address: str) -> None:
    assert not is_public_address(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])
def test_public_addresses_are_allowed(address: str) -> None:
    assert is_public_address(ipaddress.ip_address(address))


# -- the server: off by default, and the attack fails when on ---------------------------------


@pytest.fixture(scope="module")
def remote_server(tiny_checkpoint: Path) -> Iterator[str]:
    """The policy server with remote images on, loopback allow-listed (a misconfiguration)."""
    settings = settings_for(
        tiny_checkpoint,
        allow_remote_images=True,
        image_url_allow_hosts=(INTERNAL, "localhost"),
    )
    with serve_asgi_in_thread(create_app(settings, backend_for(settings))) as url:
        yield url


def ask_for(server: str, image_url: str) -> httpx.Response:
    return httpx.post(
        f"{server}/v1/chat/completions",
        headers={"Authorization": f"Bearer {API_KEY}"},
        json={"model": MODEL, "messages": [user_message("look", image_url)], "max_tokens": 1},
        timeout=60,
    )


async def test_by_default_the_server_fetches_no_image_url(server: str, internal: Server) -> None:
    response = await asyncio.to_thread(ask_for, server, f"{internal.url}/admin")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_image"
    assert "does not fetch remote image URLs" in error["message"]
    assert internal.hits.requests == []


@pytest.mark.parametrize("host", [INTERNAL, "localhost"])
async def test_with_remote_images_on_the_pod_network_stays_unreachable(
    host: str, remote_server: str, internal: Server
) -> None:
    """The port scan of the description: every port of the pod's network answers the same
    400, whether something listens there or not, and nothing is contacted."""
    closed_port = internal.port + 1 if internal.port < 65535 else internal.port - 1
    answers = [
        await asyncio.to_thread(ask_for, remote_server, f"http://{host}:{port}/admin")
        for port in (internal.port, closed_port)
    ]
    assert internal.hits.requests == []
    assert [answer.status_code for answer in answers] == [400, 400]
    bodies = [answer.json() for answer in answers]
    assert bodies[0] == bodies[1]
    assert bodies[0]["error"]["message"] == REFUSED
    for secret in (str(internal.port), "418"):
        assert secret not in answers[0].text


# -- settings ----------------------------------------------------------------------------------


def test_remote_images_are_off_by_default() -> None:
    assert PolicySettings(model="m").allow_remote_images is False


def test_remote_images_need_an_allow_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONEBUDDY_POLICY_ALLOW_REMOTE_IMAGES", "true")
    with pytest.raises(ValidationError, match="PHONEBUDDY_POLICY_IMAGE_URL_ALLOW_HOSTS"):
        PolicySettings(model="m")
    monkeypatch.setenv("PHONEBUDDY_POLICY_IMAGE_URL_ALLOW_HOSTS", " Shots.Example.com,*.cdn.org ")
    settings = PolicySettings(model="m")
    assert settings.image_url_allow_hosts == ("shots.example.com", "*.cdn.org")


@pytest.mark.parametrize("entry", ["http://a.example.com", "a.example.com:8080", "a*.org", "*."])
def test_allow_list_entries_are_host_names(entry: str) -> None:
    with pytest.raises(ValidationError, match="is not a host name"):
        PolicySettings(model="m", image_url_allow_hosts=entry)  # type: ignore[arg-type]


def test_a_wildcard_entry_allows_subdomains_only() -> None:
    assert host_allowed("shots.cdn.org", frozenset({"*.cdn.org"}))
    assert host_allowed("a.b.cdn.org", frozenset({"*.cdn.org"}))
    assert not host_allowed("cdn.org", frozenset({"*.cdn.org"}))
    assert not host_allowed("evilcdn.org", frozenset({"*.cdn.org"}))
