"""The env verbs on NATS: `lease` on the source's lease subject, in the queue group every
instance of that source shares; reset / observe / act / verify / renew / release on this
instance's subjects (`phonebuddy.protocol.subjects`). Errors answer as typed `ErrorReply`s."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from phonebuddy.bus import Bus, Service
from phonebuddy.env_endpoint.host import EnvHost
from phonebuddy.protocol import env as messages
from phonebuddy.protocol.subjects import (
    EnvVerb,
    env_lease_queue,
    env_lease_subject,
    env_verb_subject,
)

log = logging.getLogger(__name__)


class EnvEndpoint:
    """Binds an `EnvHost` to the bus; `start()` subscribes, `stop()` drains and unsubscribes."""

    def __init__(self, host: EnvHost, bus: Bus) -> None:
        self.host = host
        self.bus = bus
        self._services: list[Service] = []

    def subjects(self) -> dict[str, str]:
        """Verb -> subject this endpoint answers on (the lease subject under "lease")."""
        source, instance = self.host.backend.source, self.host.instance_id
        return {"lease": env_lease_subject(source)} | {
            verb.value: env_verb_subject(source, instance, verb) for verb in EnvVerb
        }

    async def start(self) -> None:
        host = self.host
        source = host.backend.source
        handlers: dict[EnvVerb, tuple[type[BaseModel], Callable[[Any], Awaitable[BaseModel]]]] = {
            EnvVerb.RESET: (messages.ResetRequest, host.reset),
            EnvVerb.OBSERVE: (messages.ObserveRequest, host.observe),
            EnvVerb.ACT: (messages.ActRequest, host.act),
            EnvVerb.VERIFY: (messages.VerifyRequest, host.verify),
            EnvVerb.RENEW: (messages.RenewRequest, host.renew),
            EnvVerb.RELEASE: (messages.ReleaseRequest, host.release),
        }
        try:
            self._services.append(
                await self.bus.serve(
                    env_lease_subject(source),
                    messages.LeaseRequest,
                    host.lease,
                    queue=env_lease_queue(source),
                )
            )
            for verb, (request_type, handler) in handlers.items():
                subject = env_verb_subject(source, host.instance_id, verb)
                self._services.append(await self.bus.serve(subject, request_type, handler))
        except BaseException:
            await self.stop()
            raise
        log.info("serving %s env verbs as %s", source.value, host.instance_id)

    async def stop(self) -> None:
        for service in self._services:
            with contextlib.suppress(Exception):
                await service.stop()
        self._services.clear()

    async def __aenter__(self) -> EnvEndpoint:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()
