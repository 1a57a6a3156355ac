"""Object keys: the one set of rules both backends enforce, so a key valid here is valid there."""

from __future__ import annotations

import re

from phonebuddy.storage.errors import InvalidKeyError, StoreConfigError

# The local store writes `<dir>/.pbtmp-*` files and renames them into place; keys never use it.
TEMP_PREFIX = ".pbtmp-"
MAX_KEY_BYTES = 1024  # S3's limit on object names
_BUCKET_NAME = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")


def _check_text(key: str) -> None:
    if "\\" in key:
        raise InvalidKeyError(key, "backslashes are not allowed; separate segments with '/'")
    if "\x00" in key:
        raise InvalidKeyError(key, "NUL characters are not allowed")
    if key.startswith("/"):
        raise InvalidKeyError(key, "keys are relative; remove the leading '/'")
    if len(key.encode()) > MAX_KEY_BYTES:
        raise InvalidKeyError(key, f"longer than {MAX_KEY_BYTES} bytes")


def _check_segments(key: str, segments: list[str]) -> None:
    for segment in segments:
        if segment in ("", ".", ".."):
            raise InvalidKeyError(key, f"segment {segment!r} is not allowed (no '', '.' or '..')")
        if segment.startswith(TEMP_PREFIX):
            raise InvalidKeyError(key, f"names starting with {TEMP_PREFIX!r} are reserved")


def validate_key(key: str) -> str:
    """Return `key` if it is a valid object key: non-empty, relative, '/'-separated segments
    that are not empty, '.' or '..', no backslash or NUL. Raise `InvalidKeyError` otherwise."""
    if not key:
        raise InvalidKeyError(key, "the key is empty")
    _check_text(key)
    _check_segments(key, key.split("/"))
    return key


def validate_prefix(prefix: str) -> str:
    """Return `prefix` if it can start a valid key ('' lists everything; may end with '/')."""
    if not prefix:
        return prefix
    _check_text(prefix)
    # A trailing '/' leaves an empty last segment, and a partial last segment ('run' of
    # 'runs/...') is fine; the complete segments before it must be valid.
    _check_segments(prefix, prefix.split("/")[:-1])
    if prefix.split("/")[-1] in (".", ".."):
        raise InvalidKeyError(prefix, "segment '.' or '..' is not allowed")
    return prefix


def validate_bucket_name(bucket: str) -> str:
    """Return `bucket` if it is an S3 bucket name: 3-63 of a-z, 0-9, '.', '-'."""
    if not _BUCKET_NAME.fullmatch(bucket) or ".." in bucket:
        raise StoreConfigError(
            "bucket", f"{bucket!r} is not an S3 bucket name (3-63 of a-z 0-9 . -)"
        )
    return bucket
