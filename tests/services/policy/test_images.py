"""Image inputs: data URIs, http(s) URLs and store references become RGB images, or an
`ImageError` that says which image and why."""

import asyncio
import base64
import io
import struct
import zlib
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.responses import RedirectResponse, Response, StreamingResponse
from PIL import Image

from phonebuddy.policy.errors import ImageError
from phonebuddy.policy.images import ImageLimits, ImageLoader
from phonebuddy.storage import BLOB_PREFIX, LocalStore, S3Location, S3Store, blob_key
from phonebuddy.testing import S3Server, serve_asgi
from phonebuddy.testing.ports import free_port

MAX_BYTES = 64_000
LIMITS = ImageLimits(
    max_bytes=MAX_BYTES, max_pixels=1_000_000, fetch_timeout_s=5.0, allow_remote=True
)
LABEL = "messages[0].content[1]"


def png(
    size: tuple[int, int] = (36, 80), mode: str = "RGB", color: object = (20, 90, 160)
) -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, color).save(buffer, "PNG")  # type: ignore[arg-type]
    return buffer.getvalue()


def data_uri(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


def png_header_only(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims `width` x `height` pixels and whose data is empty: what a
    decompression bomb looks like before anything is decoded."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b""))
        + chunk(b"IEND", b"")
    )


async def load(loader: ImageLoader, url: str) -> Image.Image:
    return await loader.load(url, label=LABEL)


async def load_error(loader: ImageLoader, url: str) -> str:
    """The message of the `ImageError` loading `url` raises; it always names the image."""
    with pytest.raises(ImageError) as caught:
        await loader.load(url, label=LABEL)
    assert caught.value.code == "invalid_image"
    assert caught.value.status == 400
    assert LABEL in caught.value.message
    return caught.value.message


# -- data URIs ---------------------------------------------------------------------------------


async def test_png_data_uri_loads_as_an_rgb_image() -> None:
    image = await load(ImageLoader(LIMITS), data_uri(png((36, 80), color=(20, 90, 160))))
    assert image.mode == "RGB"
    assert image.size == (36, 80)
    assert image.getpixel((5, 5)) == (20, 90, 160)


@pytest.mark.parametrize(("mode", "color"), [("RGBA", (1, 2, 3, 128)), ("L", 77), ("P", 5)])
async def test_non_rgb_images_are_converted_to_rgb(mode: str, color: object) -> None:
    image = await load(ImageLoader(LIMITS), data_uri(png((8, 8), mode, color)))
    assert image.mode == "RGB"
    assert image.size == (8, 8)


async def test_jpeg_data_uri_loads() -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (16, 12), (200, 10, 10)).save(buffer, "JPEG")
    image = await load(ImageLoader(LIMITS), data_uri(buffer.getvalue(), "image/jpeg"))
    assert (image.mode, image.size) == ("RGB", (16, 12))


async def test_data_uri_without_a_mime_type_still_loads() -> None:
    url = "data:;base64," + base64.b64encode(png((4, 4))).decode()
    assert (await load(ImageLoader(LIMITS), url)).size == (4, 4)


@pytest.mark.parametrize(
    "url",
    [
        "data:image/png," + "%89PNG",  # not base64
        "data:text/plain;base64,aGVsbG8=",  # not an image type
        "data:image/png;base64",  # no comma
    ],
)
async def test_malformed_data_uri_is_refused_with_its_expected_form(url: str) -> None:
    message = await load_error(ImageLoader(LIMITS), url)
    assert "data:image/<type>;base64,<data>" in message


async def test_data_uri_with_invalid_base64_is_refused() -> None:
    message = await load_error(ImageLoader(LIMITS), "data:image/png;base64,iVBOR*w0K!!")
    assert "not valid base64" in message


async def test_data_uri_over_the_byte_limit_is_refused_before_decoding() -> None:
    payload = base64.b64encode(b"\0" * (MAX_BYTES + 100)).decode()
    message = await load_error(ImageLoader(LIMITS), f"data:image/png;base64,{payload}")
    assert f"{MAX_BYTES}-byte limit" in message


async def test_decoded_data_over_the_byte_limit_is_refused() -> None:
    limits = ImageLimits(max_bytes=100, max_pixels=10**6, fetch_timeout_s=1.0, allow_remote=False)
    # 101 bytes are 136 characters of base64, within the text bound (100 * 4 // 3 + 4 = 137).
    message = await load_error(ImageLoader(limits), data_uri(b"\0" * 101))
    assert "has 101 bytes; the limit is 100" in message


# -- decoding ----------------------------------------------------------------------------------


async def test_bytes_that_are_no_image_are_refused() -> None:
    message = await load_error(ImageLoader(LIMITS), data_uri(b"certainly not a picture"))
    assert "not a decodable image" in message


async def test_truncated_image_is_refused() -> None:
    data = png((64, 64), color=(1, 2, 3))
    message = await load_error(ImageLoader(LIMITS), data_uri(data[: len(data) // 2]))
    assert "not a decodable image" in message


async def test_image_at_the_pixel_limit_loads_and_one_row_more_is_refused() -> None:
    limits = ImageLimits(
        max_bytes=MAX_BYTES, max_pixels=100, fetch_timeout_s=1.0, allow_remote=False
    )
    loader = ImageLoader(limits)
    assert (await load(loader, data_uri(png((10, 10))))).size == (10, 10)
    message = await load_error(loader, data_uri(png((10, 11))))
    assert "10x11; the limit is 100 pixels" in message


async def test_decompression_bomb_is_refused_from_its_header_without_decoding() -> None:
    bomb = png_header_only(5000, 5000)
    assert len(bomb) < 100
    message = await load_error(ImageLoader(LIMITS), data_uri(bomb))
    # Had it been decoded, the empty pixel data would have failed as "not decodable" instead.
    assert "5000x5000; the limit is 1000000 pixels" in message


async def test_header_beyond_pillows_own_bomb_limit_is_an_image_error() -> None:
    limits = ImageLimits(
        max_bytes=MAX_BYTES, max_pixels=10**12, fetch_timeout_s=1.0, allow_remote=False
    )
    message = await load_error(ImageLoader(limits), data_uri(png_header_only(60_000, 60_000)))
    assert "not a decodable image" in message


# -- unsupported schemes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "scheme"),
    [
        ("file:///etc/passwd", "file"),
        ("ftp://example.com/a.png", "ftp"),
        ("/tmp/screen.png", "/tmp/screen.png"),
        ("DATA:image/png;base64,AAAA", "DATA"),
    ],
)
async def test_unsupported_url_scheme_is_refused_naming_it(url: str, scheme: str) -> None:
    message = await load_error(ImageLoader(LIMITS), url)
    assert f"unsupported image URL scheme {scheme!r}" in message


# -- http(s) -----------------------------------------------------------------------------------

SHOT = png((30, 60), color=(9, 99, 199))


def image_app() -> FastAPI:
    app = FastAPI()

    @app.get("/shot.png")
    async def shot() -> Response:
        return Response(SHOT, media_type="image/png")

    @app.get("/moved.png")
    async def moved() -> RedirectResponse:
        return RedirectResponse("/shot.png", status_code=302)

    @app.get("/huge.png")
    async def huge() -> StreamingResponse:
        async def chunks() -> AsyncIterator[bytes]:
            for _ in range(MAX_BYTES // 4096 + 2):
                yield b"\0" * 4096

        return StreamingResponse(chunks(), media_type="image/png")

    @app.get("/slow.png")
    async def slow() -> Response:
        await asyncio.sleep(0.5)
        return Response(SHOT, media_type="image/png")

    return app


@pytest.fixture
async def image_server() -> AsyncIterator[str]:
    async with serve_asgi(image_app()) as url:
        yield url


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as client:
        yield client


async def test_http_image_is_fetched_and_decoded(
    image_server: str, http: httpx.AsyncClient
) -> None:
    image = await load(ImageLoader(LIMITS, http=http), f"{image_server}/shot.png")
    assert (image.mode, image.size) == ("RGB", (30, 60))
    assert image.getpixel((0, 0)) == (9, 99, 199)


async def test_http_redirect_is_followed(image_server: str, http: httpx.AsyncClient) -> None:
    image = await load(ImageLoader(LIMITS, http=http), f"{image_server}/moved.png")
    assert image.size == (30, 60)


async def test_http_error_status_is_reported(image_server: str, http: httpx.AsyncClient) -> None:
    url = f"{image_server}/missing.png"
    message = await load_error(ImageLoader(LIMITS, http=http), url)
    assert f"GET {url} answered 404" in message


async def test_http_body_over_the_byte_limit_is_refused_while_streaming(
    image_server: str, http: httpx.AsyncClient
) -> None:
    message = await load_error(ImageLoader(LIMITS, http=http), f"{image_server}/huge.png")
    assert f"larger than {MAX_BYTES} bytes" in message


async def test_http_fetch_past_the_timeout_is_an_image_error(
    image_server: str, http: httpx.AsyncClient
) -> None:
    limits = ImageLimits(
        max_bytes=MAX_BYTES, max_pixels=10**6, fetch_timeout_s=0.1, allow_remote=True
    )
    message = await load_error(ImageLoader(limits, http=http), f"{image_server}/slow.png")
    assert "could not fetch" in message
    assert "Timeout" in message


async def test_unreachable_http_server_is_an_image_error(http: httpx.AsyncClient) -> None:
    url = f"http://127.0.0.1:{free_port('127.0.0.1')}/shot.png"
    message = await load_error(ImageLoader(LIMITS, http=http), url)
    assert f"could not fetch {url}" in message


async def test_remote_urls_are_refused_when_remote_fetching_is_off(
    image_server: str, http: httpx.AsyncClient
) -> None:
    limits = ImageLimits(
        max_bytes=MAX_BYTES, max_pixels=10**6, fetch_timeout_s=5.0, allow_remote=False
    )
    message = await load_error(ImageLoader(limits, http=http), f"{image_server}/shot.png")
    assert "does not fetch remote image URLs" in message


async def test_remote_urls_are_refused_without_an_http_client() -> None:
    message = await load_error(ImageLoader(LIMITS), "https://example.com/shot.png")
    assert "does not fetch remote image URLs" in message


# -- store references --------------------------------------------------------------------------


async def test_store_blob_reference_loads_the_blob(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    ref = await store.put_blob(png((12, 24)), content_type="image/png")
    assert ref.key.startswith(BLOB_PREFIX)
    image = await load(ImageLoader(LIMITS, store=store), f"store:{ref.key}")
    assert (image.mode, image.size) == ("RGB", (12, 24))


async def test_store_key_reference_loads_the_object(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    await store.put_bytes("episodes/7/step-3.png", png((5, 7)), content_type="image/png")
    image = await load(ImageLoader(LIMITS, store=store), "store:episodes/7/step-3.png")
    assert image.size == (5, 7)


async def test_corrupt_store_blob_is_refused(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    ref = await store.put_blob(png((12, 24)))
    await store.put_bytes(ref.key, png((13, 24)))  # the bytes no longer match the hash
    message = await load_error(ImageLoader(LIMITS, store=store), f"store:{ref.key}")
    assert "corrupt" in message


@pytest.mark.parametrize(
    "key",
    [
        "episodes/404.png",  # no such object
        blob_key("0" * 64),  # no such blob
        "../outside.png",  # not a valid key
        f"{BLOB_PREFIX}ab/not-a-hash",  # not a valid blob address
    ],
)
async def test_store_reference_the_store_cannot_serve_is_an_image_error(
    tmp_path: Path, key: str
) -> None:
    (tmp_path / "outside.png").write_bytes(png())
    store = LocalStore(tmp_path / "store")
    await load_error(ImageLoader(LIMITS, store=store), f"store:{key}")


async def test_store_reference_without_a_configured_store_is_refused() -> None:
    message = await load_error(ImageLoader(LIMITS), "store:episodes/7/step-3.png")
    assert "no object store configured" in message


async def test_s3_reference_without_a_store_location_is_refused(tmp_path: Path) -> None:
    loader = ImageLoader(LIMITS, store=LocalStore(tmp_path))
    message = await load_error(loader, "s3://screens/episodes/7/step-3.png")
    assert "is not in this server's store" in message


async def test_s3_references_inside_the_store_bucket_and_prefix_load(
    s3_server: S3Server, unique_name: str
) -> None:
    async with S3Store(
        s3_server.endpoint,
        s3_server.access_key,
        s3_server.secret_key,
        unique_name,
        prefix="phone/shots",
        create_bucket=True,
    ) as store:
        ref = await store.put_blob(png((12, 24)), content_type="image/png")
        await store.put_bytes("episodes/7/step-3.png", png((5, 7)), content_type="image/png")
        loader = ImageLoader(
            LIMITS, store=store, store_location=S3Location(bucket=unique_name, prefix="phone/shots")
        )
        blob = await load(loader, f"s3://{unique_name}/phone/shots/{ref.key}")
        plain = await load(loader, f"s3://{unique_name}/phone/shots/episodes/7/step-3.png")
        by_key = await load(loader, f"store:{ref.key}")
        missing = await load_error(loader, f"s3://{unique_name}/phone/shots/episodes/404.png")
    assert (blob.mode, blob.size) == ("RGB", (12, 24))
    assert plain.size == (5, 7)
    assert by_key.size == (12, 24)
    assert "episodes/404.png" in missing


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("s3://another-bucket/phone/shots/episodes/7/step-3.png", "is not in this server's store"),
        ("s3://screens-bucket/elsewhere/episodes/7/step-3.png", "outside the store prefix"),
        ("s3://screens-bucket/phone/shotsX/episodes/7/step-3.png", "outside the store prefix"),
        ("s3://screens-bucket/phone/episodes/7/step-3.png", "outside the store prefix"),
    ],
)
async def test_s3_reference_outside_the_store_bucket_or_prefix_is_refused(
    tmp_path: Path, url: str, reason: str
) -> None:
    store = LocalStore(tmp_path)
    await store.put_bytes("episodes/7/step-3.png", png())
    location = S3Location(bucket="screens-bucket", prefix="phone/shots")
    message = await load_error(ImageLoader(LIMITS, store=store, store_location=location), url)
    assert reason in message


async def test_s3_reference_with_an_empty_store_prefix_maps_the_whole_bucket(
    tmp_path: Path,
) -> None:
    store = LocalStore(tmp_path)
    await store.put_bytes("episodes/7/step-3.png", png((5, 7)))
    loader = ImageLoader(
        LIMITS, store=store, store_location=S3Location(bucket="screens-bucket", prefix="")
    )
    image = await load(loader, "s3://screens-bucket/episodes/7/step-3.png")
    assert image.size == (5, 7)
