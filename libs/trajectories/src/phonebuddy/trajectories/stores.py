"""`RunStores`: the trajectory stores a service opens for the requests it serves.

A request (a rollout, a judge request) may name the store its run lives in, but which stores a
service writes to is the service's configuration, never the request's: a store URL is allowed
when it is the service's own store (`home`) or lies inside it or one of its configured `roots`
— a folder under a `local:` root, or a prefix under an `s3://bucket[/prefix]` root on the same
S3 server (its credentials are the service's PHONEBUDDY_STORE_*). Anything else is refused with
`StoreNotAllowedError` before a byte is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

from phonebuddy.storage import (
    LocalLocation,
    ObjectStore,
    S3Location,
    StoreError,
    StoreSettings,
    open_store,
    parse_store_url,
)
from phonebuddy.trajectories.store import TrajectoryStore

ROOTS_VARIABLE = "PHONEBUDDY_STORE_ROOTS"


class StoreNotAllowedError(ValueError):
    """A store URL that this service is not configured to write to (or not a store URL)."""

    def __init__(self, url: str, allowed: Iterable[str], reason: str = "") -> None:
        self.url = url
        self.allowed = tuple(allowed)
        listed = ", ".join(self.allowed) or "none"
        why = f" ({reason})" if reason else ""
        super().__init__(
            f"store {url!r} is not allowed{why}: runs go to this service's own store or under "
            f"its store roots ({ROOTS_VARIABLE}): {listed}"
        )


def split_roots(value: object) -> object:
    """A comma-separated `PHONEBUDDY_STORE_ROOTS` value as a tuple (other values unchanged)."""
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return value


def _local_path(location: LocalLocation) -> Path:
    return Path(os.path.expanduser(location.root)).resolve()


def _root_location(root: str) -> LocalLocation | S3Location:
    try:
        location = parse_store_url(root)
    except StoreError as exc:
        raise ValueError(f"store root {root!r}: {exc}") from exc
    if isinstance(location, LocalLocation):
        return LocalLocation(_local_path(location))
    return location


def within(url: str, root: str) -> bool:
    """Whether the store at `url` lies inside `root` (the same store counts); `~` in a local
    root is the home directory, and local paths are compared after resolving symlinks."""
    inside = parse_store_url(url)
    outside = _root_location(root)
    if isinstance(inside, LocalLocation) and isinstance(outside, LocalLocation):
        if not inside.root.is_absolute():
            return False  # relative to whose working directory? Only absolute paths.
        return _local_path(inside).is_relative_to(outside.root)
    if isinstance(inside, S3Location) and isinstance(outside, S3Location):
        if inside.bucket != outside.bucket:
            return False
        return not outside.prefix or (inside.prefix + "/").startswith(outside.prefix + "/")
    return False


class RunStores:
    """Opens, checks and caches the stores requests name. `home` is the service's own store
    URL (a request naming none gets it); `home_store` an already open store for it."""

    def __init__(
        self,
        *,
        home: str | None,
        roots: Iterable[str] = (),
        home_store: ObjectStore | None = None,
    ) -> None:
        self.home = home
        self.roots = tuple(roots)
        for root in self.allowed:
            _root_location(root)  # a bad root is a configuration error, found at start-up
        self._home_store = home_store
        self._stores: dict[str, TrajectoryStore] = {}
        self._opened: list[ObjectStore] = []
        self._lock = asyncio.Lock()

    @property
    def allowed(self) -> tuple[str, ...]:
        return ((self.home,) if self.home else ()) + self.roots

    def check(self, url: str | None) -> str:
        """The store a request means (`home` for None), if this service may write there;
        otherwise `StoreNotAllowedError`."""
        if url is None:
            if self.home is None:
                raise StoreNotAllowedError("(none)", self.allowed, "this service has no store")
            return self.home
        if url == self.home:
            return url
        try:
            if any(within(url, root) for root in self.allowed):
                return url
        except (StoreError, ValueError) as exc:
            raise StoreNotAllowedError(url, self.allowed, str(exc)) from None
        raise StoreNotAllowedError(url, self.allowed)

    async def get(self, url: str | None) -> TrajectoryStore:
        """The (opened) trajectory store at an allowed `url`."""
        url = self.check(url)
        async with self._lock:
            if url not in self._stores:
                if url == self.home and self._home_store is not None:
                    raw = self._home_store
                else:
                    raw = open_store(StoreSettings(url=url))
                    await raw.open()
                    self._opened.append(raw)
                self._stores[url] = TrajectoryStore(raw)
            return self._stores[url]

    async def close(self) -> None:
        """Close the stores this object opened (not `home_store`, which its owner closes)."""
        for raw in self._opened:
            with contextlib.suppress(Exception):
                await raw.close()
        self._opened.clear()
        self._stores.clear()
