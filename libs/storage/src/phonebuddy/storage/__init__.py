"""PhoneBuddy's object store: one async interface, two backends.

`LocalStore` (a folder, the embedded default) and `S3Store` (any S3 server, via `minio`) both
implement `ObjectStore`: bytes and JSON by key, atomic manifests, and content-addressed blobs
(`put_blob` -> `BlobRef`, stored once under their sha256 and verified on read). `open_store()`
picks the backend from `StoreSettings` (PHONEBUDDY_STORE_URL and friends)::

    async with open_store() as store:
        ref = await store.put_blob(png, content_type="image/png")
        await store.write_manifest("episodes/42/manifest.json", {"screenshot": ref})
"""

from phonebuddy.storage.blobs import BLOB_PREFIX, BlobRef, blob_key
from phonebuddy.storage.errors import (
    BucketNotFoundError,
    IntegrityError,
    InvalidKeyError,
    ObjectNotFoundError,
    StoreAuthError,
    StoreConfigError,
    StoreConnectionError,
    StoreError,
)
from phonebuddy.storage.factory import open_store
from phonebuddy.storage.keys import validate_key
from phonebuddy.storage.local import LocalStore
from phonebuddy.storage.s3 import S3Store
from phonebuddy.storage.settings import LocalLocation, S3Location, StoreSettings, parse_store_url
from phonebuddy.storage.store import ObjectStore

__all__ = [
    "BLOB_PREFIX",
    "BlobRef",
    "BucketNotFoundError",
    "IntegrityError",
    "InvalidKeyError",
    "LocalLocation",
    "LocalStore",
    "ObjectNotFoundError",
    "ObjectStore",
    "S3Location",
    "S3Store",
    "StoreAuthError",
    "StoreConfigError",
    "StoreConnectionError",
    "StoreError",
    "StoreSettings",
    "blob_key",
    "open_store",
    "parse_store_url",
    "validate_key",
]
