"""Image inputs: data URIs and store references become RGB images, or an `ImageError` that
says which image and why (http(s) URLs: test_remote_images.py)."""

import asyncio
import base64
import io
import struct
import threading
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image
from transformers import Qwen2VLImageProcessorPil

from phonebuddy.policy.errors import ImageError
from phonebuddy.policy.images import ImageFit, ImageLimits, ImageLoader
from phonebuddy.policy.transformers_backend import processor_fit
from phonebuddy.policy_model.tiny import make_image_processor
from phonebuddy.storage import BLOB_PREFIX, LocalStore, S3Location, S3Store, blob_key
from phonebuddy.testing import S3Server

MAX_BYTES = 64_000
LIMITS = ImageLimits(max_bytes=MAX_BYTES, max_pixels=1_000_000)
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
    limits = ImageLimits(max_bytes=100, max_pixels=10**6)
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
    limits = ImageLimits(max_bytes=MAX_BYTES, max_pixels=100)
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
    limits = ImageLimits(max_bytes=MAX_BYTES, max_pixels=10**12)
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


# -- memory: the processor's size at once, few full-size decodes at a time -----------------------


def noise_png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.effect_noise((width, height), 60).convert("RGB").save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def processor() -> Qwen2VLImageProcessorPil:
    return make_image_processor()


@pytest.fixture(scope="module")
def fit(processor: Qwen2VLImageProcessorPil) -> ImageFit:
    fit = processor_fit(processor)
    assert fit is not None
    return fit


@pytest.mark.parametrize(
    "size", [(1600, 3600), (1080, 2400), (2400, 1080), (216, 480), (512, 512), (37, 2000)]
)
async def test_images_arrive_as_the_processor_would_make_them(
    processor: Qwen2VLImageProcessorPil, fit: ImageFit, size: tuple[int, int]
) -> None:
    """An image is resized to the processor's size as soon as it is decoded (a 1600x3600 one
    then holds 0.26 M pixels, not 5.8 M), and the processor makes exactly the pixels from it
    that it makes from the original: what the model sees does not change."""
    data = noise_png(*size)
    limits = ImageLimits(max_bytes=len(data), max_pixels=10**7)
    image = await ImageLoader(limits).load(data_uri(data), label=LABEL, fit=fit)
    assert image.size == fit.size(*size)
    assert image.width * image.height <= processor.size.longest_edge
    original = Image.open(io.BytesIO(data)).convert("RGB")
    expected = processor(images=[original], return_tensors="np")
    got = processor(images=[image], return_tensors="np")
    assert (got["image_grid_thw"] == expected["image_grid_thw"]).all()
    assert (got["pixel_values"] == expected["pixel_values"]).all()


async def test_a_shape_the_model_cannot_take_is_refused_from_its_header(fit: ImageFit) -> None:
    bomb = png_header_only(50, 12_000)  # 240:1, and no pixel data to decode
    with pytest.raises(ImageError) as caught:
        await ImageLoader(LIMITS).load(data_uri(bomb), label=LABEL, fit=fit)
    assert f"{LABEL} is 50x12000, which the model cannot take" in caught.value.message
    assert "aspect ratio" in caught.value.message


async def test_at_most_decode_slots_images_are_decoded_at_once() -> None:
    """Concurrent loads (one request's images, or many requests') hold at most `decode_slots`
    full-size images at a time; each reports its decoded bytes."""
    active = most = 0
    decoded: list[int] = []
    lock = threading.Lock()

    def on_decode(nbytes: int) -> None:
        nonlocal active, most
        with lock:
            active += 1
            most = max(most, active)
        time.sleep(0.05)
        with lock:
            active -= 1
            decoded.append(nbytes)

    images = ImageLoader(LIMITS, decode_slots=2, on_decode=on_decode)
    urls = [data_uri(png((40, 30 + i))) for i in range(8)]
    loaded = await asyncio.gather(*(images.load(url, label=LABEL) for url in urls))
    assert [image.size for image in loaded] == [(40, 30 + i) for i in range(8)]
    assert most == 2
    assert sorted(decoded) == [40 * (30 + i) * 3 for i in range(8)]
