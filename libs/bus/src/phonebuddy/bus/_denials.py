"""`Denials`: the server's permission violations, handed to the operations that caused them.

A NATS server that refuses a publish or a subscription does not fail the command: it sends an
asynchronous `-ERR 'Permissions Violation for Publish to "subject"'` and drops the message, so a
denied request would only time out, and a denied subscription would never receive anything.
`Bus` reports each violation here; an operation that watches its subject fails at once with
`PermissionDeniedError` instead. A refused subscription to this client's own inbox fails every
publish and request being guarded, since no reply could reach them.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Iterator
from typing import Literal, TypeVar

from phonebuddy.bus.errors import PermissionDeniedError

T = TypeVar("T")
Action = Literal["publish", "subscribe"]

# nats-py lowercases the server's error text.
_VIOLATION = re.compile(r'permissions violation for (publish|subscription) to "([^"]*)"')


class Denials:
    def __init__(self, user: str | None, inbox_prefix: str) -> None:
        self.user = user
        self.inbox_prefix = inbox_prefix
        self._waiters: dict[tuple[Action, str], set[asyncio.Future[PermissionDeniedError]]] = {}
        self._subjects: dict[tuple[Action, str], str] = {}  # as the caller spelled them

    def report(self, error_text: str) -> bool:
        """Take one error the server sent; True when it was a permission violation."""
        found = _VIOLATION.search(error_text.lower())
        if found is None:
            return False
        action: Action = "publish" if found.group(1) == "publish" else "subscribe"
        key = (action, found.group(2))
        subject = self._subjects.get(key, found.group(2))
        self._resolve(self._waiters.get(key, ()), self.error(action, subject))
        if action == "subscribe" and key[1].startswith(f"{self.inbox_prefix.lower()}."):
            inbox = self.error("subscribe", f"{self.inbox_prefix}.>")
            for (kind, _), waiters in self._waiters.items():
                if kind == "publish":
                    self._resolve(waiters, inbox)
        return True

    @staticmethod
    def _resolve(
        waiters: set[asyncio.Future[PermissionDeniedError]] | tuple[()],
        error: PermissionDeniedError,
    ) -> None:
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(error)

    @contextlib.contextmanager
    def watch(
        self, action: Action, subject: str
    ) -> Iterator[asyncio.Future[PermissionDeniedError]]:
        """A future that completes (with the error to raise) when the server refuses `action`
        on `subject`."""
        key = (action, subject.lower())
        waiter: asyncio.Future[PermissionDeniedError] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(key, set()).add(waiter)
        self._subjects[key] = subject
        try:
            yield waiter
        finally:
            waiters = self._waiters.get(key, set())
            waiters.discard(waiter)
            if not waiters:
                self._waiters.pop(key, None)
                self._subjects.pop(key, None)

    def error(self, action: Action, subject: str) -> PermissionDeniedError:
        return PermissionDeniedError(subject, action=action, user=self.user)

    async def guard(self, subject: str, operation: Awaitable[T]) -> T:
        """Run a publish or request to `subject`; raise `PermissionDeniedError` as soon as the
        server refuses it instead of waiting for its timeout."""
        with self.watch("publish", subject) as denied:
            task = asyncio.ensure_future(operation)
            try:
                await asyncio.wait({task, denied}, return_when=asyncio.FIRST_COMPLETED)
            except BaseException:
                _abandon(task)
                raise
            if task.done():
                return task.result()
            _abandon(task)
            await asyncio.wait({task})  # let it unwind; a cancel of ours still reaches us
            raise denied.result()


def _abandon(task: asyncio.Future[T]) -> None:
    """Cancel `task`, and take its outcome whatever it is (nobody else will)."""
    task.cancel()
    task.add_done_callback(lambda done: done.cancelled() or done.exception())
