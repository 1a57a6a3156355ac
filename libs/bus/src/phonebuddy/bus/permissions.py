"""Who may use which NATS subject: one user per service, with publish/subscribe allow-lists.

`SERVICE_PERMISSIONS` is the one table; the local stack renders it into nats-server's
`authorization { users = [...] }` (`nats_users`) and a chart can render the same table. Anything
a list does not allow is denied, so only the broker reaches JetStream's API, and only for its own
stream: no service can delete or purge a stream, and none can read another's replies.

- Replies: a service answers the requests it received (`allow_responses`, one reply each)
  without any publish right on `_INBOX.>`.
- Requests: a client receives replies on its own inbox prefix, `_INBOX.<user>` (see
  `inbox_prefix`; `phonebuddy.bus.connect` uses it), never on another user's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from phonebuddy.protocol.subjects import (
    DEAD_LETTER_PREFIX,
    JUDGE_SUBJECT,
    ROLLOUT_EVENTS_PREFIX,
    ROLLOUT_STATUS,
    ROLLOUT_STREAM,
    ROLLOUT_SUBJECTS,
    ROLLOUT_SUBMIT,
    ROOT,
    WORLD_ORACLE,
    WORLD_TASKS,
    dead_letter_subject,
)
from phonebuddy.protocol.tasks import Source

DEFAULT_INBOX_PREFIX = "_INBOX"
JS_API = "$JS.API"
_TOKEN = re.compile(r"^[A-Za-z0-9_\-]+$")


def inbox_prefix(user: str | None) -> str:
    """Where `user`'s replies arrive: `_INBOX.<user>`, or `_INBOX` without a user (or for a
    user name that is not a single subject token)."""
    if user is None or not _TOKEN.fullmatch(user):
        return DEFAULT_INBOX_PREFIX
    return f"{DEFAULT_INBOX_PREFIX}.{user}"


@dataclass(frozen=True)
class Permissions:
    """What one NATS user may publish and subscribe to (subjects may hold `*` and `>`);
    `responds`: it may answer the requests it receives."""

    publish: tuple[str, ...] = ()
    subscribe: tuple[str, ...] = ()
    responds: bool = False

    def __or__(self, other: Permissions) -> Permissions:
        return Permissions(
            publish=_merge(self.publish, other.publish),
            subscribe=_merge(self.subscribe, other.subscribe),
            responds=self.responds or other.responds,
        )

    def to_nats(self) -> dict[str, Any]:
        """The user's `permissions` block of a nats-server config (also valid as JSON)."""
        block: dict[str, Any] = {
            "publish": {"allow": list(self.publish)},
            "subscribe": {"allow": list(self.subscribe)},
        }
        if self.responds:
            block["allow_responses"] = True
        return block


def requester(user: str) -> Permissions:
    """Sends requests: receives the replies on its own inbox."""
    return Permissions(subscribe=(f"{inbox_prefix(user)}.>",))


def responder(*subjects: str) -> Permissions:
    """Serves requests on `subjects` (in queue groups or not) and answers them."""
    return Permissions(subscribe=subjects, responds=True)


def stream_owner(stream: str) -> Permissions:
    """Creates `stream` and keeps its config up to date (`Bus.ensure_stream`); nothing else of
    JetStream's API: not deleting or purging it, not touching another stream."""
    return Permissions(
        publish=tuple(f"{JS_API}.STREAM.{verb}.{stream}" for verb in ("CREATE", "UPDATE", "INFO"))
    )


def stream_worker(stream: str) -> Permissions:
    """Runs `Bus.consume` on `stream`: creates its durable, fetches, acks (and naks, terms,
    progress), dead-letters what runs out of deliveries (reading it back and deleting it)."""
    return Permissions(
        publish=(
            f"{JS_API}.STREAM.INFO.{stream}",
            f"{JS_API}.STREAM.NAMES",
            f"{JS_API}.CONSUMER.CREATE.{stream}.>",
            f"{JS_API}.CONSUMER.INFO.{stream}.*",
            f"{JS_API}.CONSUMER.MSG.NEXT.{stream}.*",
            f"{JS_API}.STREAM.MSG.GET.{stream}",
            f"{JS_API}.STREAM.MSG.DELETE.{stream}",
            f"$JS.ACK.{stream}.>",
        ),
        subscribe=(f"$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.{stream}.*",),
    )


def env_endpoint(source: Source) -> Permissions:
    """Serves the env verbs of `source`: its lease subject and its instances' verb subjects."""
    return responder(f"{ROOT}.env.{Source(source).value}.>")


def _merge(first: Iterable[str], second: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*first, *second]))


CLIENT = "client"
"""The user of commands and jobs beside a stack: `phonebuddy rollout`, `phonebuddy demo`,
training jobs (submit rollouts, follow their events, ask where a run stands, list PhoneWorld's
tasks)."""

_SERVICES: dict[str, Permissions] = {
    "phoneworld": env_endpoint(Source.SIM) | responder(WORLD_TASKS, WORLD_ORACLE),
    "device-gateway": env_endpoint(Source.REAL),
    # The policy server itself needs no NATS; its teacher backend asks PhoneWorld for the task
    # (template, seed, language: all a request tells it) and then the task's oracle.
    "policy": Permissions(publish=(WORLD_TASKS, WORLD_ORACLE)),
    "judge": responder(JUDGE_SUBJECT),
    "broker": (
        responder(ROLLOUT_SUBMIT, ROLLOUT_STATUS)
        | stream_owner(ROLLOUT_STREAM)
        | stream_worker(ROLLOUT_STREAM)
        | Permissions(
            publish=(
                ROLLOUT_SUBJECTS,
                f"{ROLLOUT_EVENTS_PREFIX}.>",
                dead_letter_subject(ROLLOUT_STREAM),
                f"{ROOT}.env.*.lease",
                f"{ROOT}.env.*.*.*",
                JUDGE_SUBJECT,
                WORLD_TASKS,
            ),
            subscribe=(f"{DEAD_LETTER_PREFIX}.{ROLLOUT_STREAM}",),
        )
    ),
    # The RL job reads PhoneWorld's task catalogue to pick a suite's templates.
    CLIENT: Permissions(
        publish=(ROLLOUT_SUBMIT, ROLLOUT_STATUS, WORLD_TASKS),
        subscribe=(f"{ROLLOUT_EVENTS_PREFIX}.>",),
    ),
}

SERVICE_PERMISSIONS: Mapping[str, Permissions] = {
    name: requester(name) | permissions for name, permissions in _SERVICES.items()
}
"""Every user and what it may do; each also receives replies on its own inbox."""


def nats_users(
    passwords: Mapping[str, str], permissions: Mapping[str, Permissions] = SERVICE_PERMISSIONS
) -> list[dict[str, Any]]:
    """nats-server's `authorization.users` entries for the users in `passwords`, each with its
    permissions from the table (a user missing from the table is an error)."""
    unknown = sorted(set(passwords) - set(permissions))
    if unknown:
        raise KeyError(
            f"no NATS permissions for {', '.join(unknown)}; known users: "
            f"{', '.join(sorted(permissions))}"
        )
    return [
        {"user": user, "password": password, "permissions": permissions[user].to_nats()}
        for user, password in passwords.items()
    ]
