"""Image inputs: `data:` URIs, http(s) URLs and object-store references -> RGB Pillow images.

Store references name an object in the server's store (PHONEBUDDY_STORE_*): `store:KEY`
(`store:blobs/sha256/ab/ab12...` is a screenshot stored by content hash, checked on read), or
`s3://BUCKET/PREFIX/KEY` when BUCKET and PREFIX are the store's own. Every failure is an
`ImageError` that says which image and why; sizes are limited before and after decoding.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import io
import re
from dataclasses import dataclass

import httpx
from PIL import Image

from phonebuddy.policy.errors import ImageError
from phonebuddy.storage import BLOB_PREFIX, ObjectStore, S3Location, StoreError

_DATA_URI = re.compile(r"^data:(?P<mime>image/[A-Za-z0-9.+-]+)?(?P<b64>;base64)?,", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ImageLimits:
    max_bytes: int
    max_pixels: int
    fetch_timeout_s: float
    allow_remote: bool


class ImageLoader:
    """Loads the images of one request. `store` and `store_location` are optional: without a
    store, `store:` references are refused with a clear message."""

    def __init__(
        self,
        limits: ImageLimits,
        *,
        http: httpx.AsyncClient | None = None,
        store: ObjectStore | None = None,
        store_location: S3Location | None = None,
    ) -> None:
        self.limits = limits
        self.http = http
        self.store = store
        self.store_location = store_location

    async def load(self, url: str, *, label: str) -> Image.Image:
        data = await self._bytes(url, label=label)
        if len(data) > self.limits.max_bytes:
            raise ImageError(f"{label} has {len(data)} bytes; the limit is {self.limits.max_bytes}")
        return await asyncio.to_thread(self._decode, data, label)

    async def _bytes(self, url: str, *, label: str) -> bytes:
        if url.startswith("data:"):
            return self._data_uri(url, label)
        if url.startswith(("http://", "https://")):
            return await self._fetch(url, label)
        if url.startswith(("store:", "s3://")):
            return await self._from_store(url, label)
        scheme = url.split(":", 1)[0][:16]
        raise ImageError(
            f"{label}: unsupported image URL scheme {scheme!r}; use a data: URI, http(s):// or "
            "store:KEY / s3://bucket/key"
        )

    def _data_uri(self, url: str, label: str) -> bytes:
        match = _DATA_URI.match(url)
        if match is None or not match.group("b64"):
            raise ImageError(f"{label}: a data URI must be data:image/<type>;base64,<data>")
        payload = url[match.end() :]
        if len(payload) > self.limits.max_bytes * 4 // 3 + 4:
            raise ImageError(f"{label} is larger than the {self.limits.max_bytes}-byte limit")
        try:
            return base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise ImageError(f"{label}: the data URI is not valid base64 ({exc})") from exc

    async def _fetch(self, url: str, label: str) -> bytes:
        if not self.limits.allow_remote or self.http is None:
            raise ImageError(f"{label}: this server does not fetch remote image URLs")
        try:
            async with self.http.stream(
                "GET", url, timeout=self.limits.fetch_timeout_s, follow_redirects=True
            ) as response:
                if response.status_code != 200:
                    raise ImageError(f"{label}: GET {url} answered {response.status_code}")
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > self.limits.max_bytes:
                        raise ImageError(
                            f"{label} at {url} is larger than {self.limits.max_bytes} bytes"
                        )
                    chunks.append(chunk)
                return b"".join(chunks)
        except httpx.HTTPError as exc:
            raise ImageError(f"{label}: could not fetch {url}: {exc!r}") from exc

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

    def _decode(self, data: bytes, label: str) -> Image.Image:
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                if width * height > self.limits.max_pixels:
                    raise ImageError(
                        f"{label} is {width}x{height}; the limit is {self.limits.max_pixels} pixels"
                    )
                image.load()
                return image.convert("RGB")
        except ImageError:
            raise
        except (OSError, ValueError, Image.DecompressionBombError) as exc:
            raise ImageError(f"{label} is not a decodable image: {exc}") from exc
