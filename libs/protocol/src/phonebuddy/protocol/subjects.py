"""Every NATS subject, queue group and stream name PhoneBuddy uses, in one place.

Env endpoints: a device is leased through the source's lease subject (served by every env
process in one queue group); the lease names the instance that holds the device, and all later
verbs for that lease go to that instance's subjects.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
from enum import StrEnum

from phonebuddy.protocol.tasks import Source

ROOT = "pb"
_TOKEN = re.compile(r"^[A-Za-z0-9_\-]+$")
INSTANCE_ID_MAX = 48


POD_NAME_VARIABLE = "PHONEBUDDY_POD_NAME"


def host_instance_id(kind: str, hostname: str | None = None) -> str:
    """A service process's default instance id: `<kind>-<name>` as a subject token of at most
    48 characters, where the name is the pod's (PHONEBUDDY_POD_NAME, which the chart sets: pods
    on the host's network share its host name) or else the host name. A longer one keeps its
    start and ends in a hash of the whole name, so that pods whose names differ only at the end
    (a Deployment's random suffix) stay distinct."""
    host = hostname or os.environ.get(POD_NAME_VARIABLE) or socket.gethostname()
    name = re.sub(r"[^A-Za-z0-9_-]", "-", f"{kind}-{host}")
    if len(name) <= INSTANCE_ID_MAX:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:10]
    return f"{name[: INSTANCE_ID_MAX - len(digest) - 1]}-{digest}"


class EnvVerb(StrEnum):
    RESET = "reset"
    OBSERVE = "observe"
    ACT = "act"
    VERIFY = "verify"
    RENEW = "renew"
    RELEASE = "release"


def check_token(token: str) -> str:
    """A single subject token: letters, digits, '_' and '-' only (no '.', '*', '>' or spaces)."""
    if not _TOKEN.fullmatch(token):
        raise ValueError(f"{token!r} is not a valid NATS subject token")
    return token


def env_lease_subject(source: Source) -> str:
    return f"{ROOT}.env.{Source(source).value}.lease"


def env_lease_queue(source: Source) -> str:
    return f"{ROOT}-env-{Source(source).value}"


def env_instance_prefix(source: Source, instance_id: str) -> str:
    return f"{ROOT}.env.{Source(source).value}.{check_token(instance_id)}"


def env_verb_subject(source: Source, instance_id: str, verb: EnvVerb) -> str:
    return f"{env_instance_prefix(source, instance_id)}.{EnvVerb(verb).value}"


# JetStream: rollout work and results (used by the broker).
ROLLOUT_STREAM = "PB_ROLLOUT"
ROLLOUT_SUBJECTS = f"{ROOT}.rollout.>"
ROLLOUT_REQUESTS = f"{ROOT}.rollout.requests"
ROLLOUT_EPISODES = f"{ROOT}.rollout.episodes"
ROLLOUT_RESULTS = f"{ROOT}.rollout.results"
DEAD_LETTER_PREFIX = f"{ROOT}.dlq"


def dead_letter_subject(stream: str) -> str:
    return f"{DEAD_LETTER_PREFIX}.{check_token(stream)}"


# The rubric judge: request/reply, one queue group shared by every judge process.
JUDGE_SUBJECT = f"{ROOT}.judge.grade"
JUDGE_QUEUE = f"{ROOT}-judge"

# The rollout broker.
ROLLOUT_SUBMIT = f"{ROOT}.broker.submit"
ROLLOUT_QUEUE = f"{ROOT}-broker"
ROLLOUT_EVENTS_PREFIX = f"{ROOT}.broker.events"
# Request/reply: a run's progress from its manifest (for followers that missed events).
ROLLOUT_STATUS = f"{ROOT}.broker.status"


def rollout_events_subject(run_id: str) -> str:
    return f"{ROLLOUT_EVENTS_PREFIX}.{check_token(run_id.replace('.', '_'))}"


# PhoneWorld's task catalogue and oracle (any PhoneWorld process answers).
WORLD_TASKS = f"{ROOT}.world.tasks"
WORLD_ORACLE = f"{ROOT}.world.oracle"
WORLD_QUEUE = f"{ROOT}-world"
