"""Errors raised by the object store; each carries its data and builds its message once."""

from __future__ import annotations


class StoreError(Exception):
    """Base of every error `phonebuddy.storage` raises."""


class StoreConfigError(StoreError, ValueError):
    """A store setting (URL, endpoint, credentials, bucket name) is missing or malformed."""

    def __init__(self, setting: str, reason: str) -> None:
        self.setting = setting
        self.reason = reason
        super().__init__(f"{setting}: {reason}")


class InvalidKeyError(StoreError, ValueError):
    """An object key (or listing prefix) the store refuses."""

    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"invalid object key {key!r}: {reason}")


class ObjectNotFoundError(StoreError):
    """No object is stored under the key."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"no object stored under key {key!r}")


class IntegrityError(StoreError):
    """A content-addressed blob's bytes no longer hash to its address."""

    def __init__(self, key: str, expected_sha256: str, actual_sha256: str) -> None:
        self.key = key
        self.expected_sha256 = expected_sha256
        self.actual_sha256 = actual_sha256
        super().__init__(
            f"blob {key!r} is corrupt: its content hashes to sha256 {actual_sha256}, "
            f"not {expected_sha256}"
        )


class StoreAuthError(StoreError):
    """The S3 server rejected the access key / secret key pair (or denied access)."""

    def __init__(self, endpoint: str, access_key: str, *, code: str | None = None) -> None:
        self.endpoint = endpoint
        self.access_key = access_key
        self.code = code
        detail = f" ({code})" if code else ""
        super().__init__(
            f"the S3 server at {endpoint} rejected the credentials of access key "
            f"{access_key!r}{detail}; check PHONEBUDDY_STORE_ACCESS_KEY and "
            "PHONEBUDDY_STORE_SECRET_KEY, and that this key may use the bucket"
        )


class BucketNotFoundError(StoreError):
    """The configured bucket does not exist on the S3 server."""

    def __init__(self, bucket: str, endpoint: str) -> None:
        self.bucket = bucket
        self.endpoint = endpoint
        super().__init__(
            f"bucket {bucket!r} does not exist on the S3 server at {endpoint}; create it, or "
            "pass create_bucket=True (PHONEBUDDY_STORE_CREATE_BUCKET=true) to create it on open"
        )


class StoreConnectionError(StoreError):
    """The S3 server could not be reached or answered with a failure that is not an S3 error."""

    def __init__(self, endpoint: str, reason: str) -> None:
        self.endpoint = endpoint
        self.reason = reason
        super().__init__(f"the S3 server at {endpoint} failed: {reason}")
