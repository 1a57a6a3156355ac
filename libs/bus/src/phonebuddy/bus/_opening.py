"""`Opening`: what `connect()`, `Bus.serve()` and `Bus.consume()` return.

Await it to get the open resource (and close it yourself), or use it in `async with` to have the
resource closed when the block ends:

    bus = await connect(settings)          # ... await bus.close()
    async with connect(settings) as bus:   # closed on exit
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Generic, TypeVar

_Resource = TypeVar("_Resource", bound=AbstractAsyncContextManager[Any])


class Opening(Generic[_Resource]):
    """An open operation that is both awaitable and an async context manager."""

    def __init__(self, open_: Callable[[], Awaitable[_Resource]]) -> None:
        self._open = open_
        self._resource: _Resource | None = None

    def __await__(self) -> Generator[Any, None, _Resource]:
        return self._open().__await__()

    async def __aenter__(self) -> _Resource:
        if self._resource is not None:
            raise RuntimeError("this Opening was already entered; call the opener again")
        self._resource = await self._open()
        return await self._resource.__aenter__()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        resource, self._resource = self._resource, None
        if resource is not None:
            await resource.__aexit__(exc_type, exc, tb)
