"""`open_store`: the store that `StoreSettings` describe."""

from __future__ import annotations

from phonebuddy.storage.local import LocalStore
from phonebuddy.storage.s3 import S3Store
from phonebuddy.storage.settings import LocalLocation, StoreSettings
from phonebuddy.storage.store import ObjectStore


def open_store(settings: StoreSettings | None = None) -> ObjectStore:
    """A `LocalStore` or `S3Store` for `settings` (read from the environment if not given).

    Nothing is contacted yet: use the store as `async with open_store() as store:` (or call
    `await store.open()`) to check S3 credentials and the bucket up front.
    """
    settings = settings or StoreSettings()
    location = settings.location
    if isinstance(location, LocalLocation):
        return LocalStore(location.root)
    endpoint, access_key, secret_key = settings.s3_connection()
    return S3Store(
        endpoint,
        access_key,
        secret_key,
        location.bucket,
        prefix=location.prefix,
        secure=settings.secure,
        region=settings.region,
        create_bucket=settings.create_bucket,
    )
