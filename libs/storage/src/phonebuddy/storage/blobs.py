"""Content-addressed blobs: bytes stored once under the hex sha256 of their content."""

from __future__ import annotations

import hashlib
import re

from pydantic import BaseModel, ConfigDict, Field

from phonebuddy.storage.errors import InvalidKeyError

BLOB_PREFIX = "blobs/sha256/"
_SHA256_HEX = re.compile(r"[0-9a-f]{64}")


class BlobRef(BaseModel):
    """Where a blob lives and what it is; small enough to embed in a trajectory record."""

    model_config = ConfigDict(frozen=True)

    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="hex sha256 of the content")
    size: int = Field(ge=0, description="content length in bytes")
    content_type: str = Field(description="MIME type given when the blob was first put")

    @property
    def key(self) -> str:
        return blob_key(self.sha256)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def blob_key(sha256: str) -> str:
    """The store key of the blob with this hex sha256: `blobs/sha256/<first 2>/<hash>`."""
    if not _SHA256_HEX.fullmatch(sha256):
        raise InvalidKeyError(sha256, "a blob address is 64 lowercase hex digits (sha256)")
    return f"{BLOB_PREFIX}{sha256[:2]}/{sha256}"
