"""Image inputs: `data:` URIs, http(s) URLs and object-store references -> RGB Pillow images.

Store references name an object in the server's store (PHONEBUDDY_STORE_*): `store:KEY`
(`store:blobs/sha256/ab/ab12...` is a screenshot stored by content hash, checked on read), or
`s3://BUCKET/PREFIX/KEY` when BUCKET and PREFIX are the store's own. Remote URLs go through
`RemoteImageFetcher` (off by default). Every failure is an `ImageError` that says which image
and why; sizes are limited before and after decoding.

Memory: an image's size is read from its header before anything is decoded; at most
`decode_slots` images (all requests together) are decoded at full size at once, and each is
resized at once to the size the model's image processor would give it (`ImageFit`, the same
size and filter, so the processor sees the same pixels it would have made itself), so a request
holds at most its image count times the processor's pixel cap.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import io
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from phonebuddy.policy.errors import ImageError
from phonebuddy.policy.remote_images import RemoteImageError, RemoteImageFetcher
from phonebuddy.storage import BLOB_PREFIX, ObjectStore, S3Location, StoreError

log = logging.getLogger(__name__)
_DATA_URI = re.compile(r"^data:(?P<mime>image/[A-Za-z0-9.+-]+)?(?P<b64>;base64)?,", re.IGNORECASE)
REMOTE_REFUSED = "the image URL could not be fetched"


@dataclass(frozen=True, slots=True)
class ImageLimits:
    max_bytes: int
    max_pixels: int


@dataclass(frozen=True, slots=True)
class ImageFit:
    """How the model's image processor sizes an image: `size(width, height)` is the
    `(width, height)` it resizes to (it may raise `ValueError` for a shape it cannot take),
    with the Pillow filter `resample`."""

    size: Callable[[int, int], tuple[int, int]]
    resample: int


class ImageLoader:
    """Loads the images of requests. `remote` fetches http(s) URLs (without it they are
    refused); `store` and `store_location` are optional: without a store, `store:` references
    are refused with a clear message."""

    def __init__(
        self,
        limits: ImageLimits,
        *,
        remote: RemoteImageFetcher | None = None,
        store: ObjectStore | None = None,
        store_location: S3Location | None = None,
        decode_slots: int = 2,
        on_decode: Callable[[int], None] | None = None,
    ) -> None:
        self.limits = limits
        self.remote = remote
        self.store = store
        self.store_location = store_location
        self._decode_slots = asyncio.Semaphore(decode_slots)
        self.on_decode = on_decode  # told the bytes of each full-size decode

    async def load(self, url: str, *, label: str, fit: ImageFit | None = None) -> Image.Image:
        """The image at `url` as RGB, already resized as `fit` would resize it."""
        if url.startswith("data:"):
            self._check_data_uri(url, label)
            async with self._decode_slots:  # the decoded bytes, too, exist one slot at a time
                return await asyncio.to_thread(self._decode_data_uri, url, label, fit)
        data = await self._bytes(url, label=label)
        if len(data) > self.limits.max_bytes:
            raise ImageError(f"{label} has {len(data)} bytes; the limit is {self.limits.max_bytes}")
        async with self._decode_slots:
            return await asyncio.to_thread(self._decode, data, label, fit)

    async def _bytes(self, url: str, *, label: str) -> bytes:
        if url.startswith(("http://", "https://")):
            return await self._fetch(url, label)
        if url.startswith(("store:", "s3://")):
            return await self._from_store(url, label)
        scheme = url.split(":", 1)[0][:16]
        raise ImageError(
            f"{label}: unsupported image URL scheme {scheme!r}; use a data: URI, http(s):// or "
            "store:KEY / s3://bucket/key"
        )

    def _check_data_uri(self, url: str, label: str) -> None:
        match = _DATA_URI.match(url)
        if match is None or not match.group("b64"):
            raise ImageError(f"{label}: a data URI must be data:image/<type>;base64,<data>")
        if len(url) - match.end() > self.limits.max_bytes * 4 // 3 + 4:
            raise ImageError(f"{label} is larger than the {self.limits.max_bytes}-byte limit")

    def _decode_data_uri(self, url: str, label: str, fit: ImageFit | None) -> Image.Image:
        payload = url[url.index(",") + 1 :]
        try:
            data = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise ImageError(f"{label}: the data URI is not valid base64 ({exc})") from exc
        del payload
        if len(data) > self.limits.max_bytes:
            raise ImageError(f"{label} has {len(data)} bytes; the limit is {self.limits.max_bytes}")
        return self._decode(data, label, fit)

    async def _fetch(self, url: str, label: str) -> bytes:
        if self.remote is None:
            raise ImageError(f"{label}: this server does not fetch remote image URLs")
        try:
            return await self.remote.fetch(url)
        except RemoteImageError as exc:
            log.warning("refused remote image %.200s: %s", url, exc)
            raise ImageError(f"{label}: {REMOTE_REFUSED}") from None

    def _store_key(self, url: str, label: str) -> str:
        if url.startswith("store:"):
            return url.removeprefix("store:")
        bucket, _, key = url.removeprefix("s3://").partition("/")
        location = self.store_location
        if location is None or bucket != location.bucket:
            raise ImageError(f"{label}: {url} is not in this server's store")
        prefix = f"{location.prefix}/" if location.prefix else ""
        if not key.startswith(prefix):
            raise ImageError(f"{label}: {url} is outside the store prefix {location.prefix!r}")
        return key.removeprefix(prefix)

    async def _from_store(self, url: str, label: str) -> bytes:
        if self.store is None:
            raise ImageError(f"{label}: this server has no object store configured for {url}")
        key = self._store_key(url, label)
        try:
            if key.startswith(BLOB_PREFIX):
                return await self.store.get_blob(key.rsplit("/", 1)[-1])
            return await self.store.get_bytes(key)
        except StoreError as exc:
            raise ImageError(f"{label}: {exc}") from exc

    def _decode(self, data: bytes, label: str, fit: ImageFit | None) -> Image.Image:
        try:
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > self.limits.max_pixels:
                raise ImageError(
                    f"{label} is {width}x{height}; the limit is {self.limits.max_pixels} pixels"
                )
            try:  # before decoding: a shape the model cannot take costs nothing
                target = fit.size(width, height) if fit is not None else None
            except ValueError as exc:
                raise ImageError(
                    f"{label} is {width}x{height}, which the model cannot take: {exc}"
                ) from exc
            image.load()
            if self.on_decode is not None:
                self.on_decode(width * height * len(image.getbands()))
            if image.mode != "RGB":
                image = image.convert("RGB")
            if fit is not None and target is not None and target != image.size:
                image = image.resize(target, fit.resample)  # the full-size pixels go here
            return image
        except ImageError:
            raise
        except (OSError, ValueError, Image.DecompressionBombError) as exc:
            raise ImageError(f"{label} is not a decodable image: {exc}") from exc
