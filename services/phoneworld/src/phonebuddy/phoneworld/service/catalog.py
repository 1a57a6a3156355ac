"""PhoneWorld's task catalogue and oracle over NATS (one queue group for every PhoneWorld
process): the broker turns suites and template ids into TaskSpecs with `pb.world.tasks`; the
teacher policy asks `pb.world.oracle` for a task's scripted solution."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict

from phonebuddy.bus import Bus, Service, ServiceError
from phonebuddy.phoneworld.demonstrations import oracle_actions
from phonebuddy.phoneworld.tasks.oracle import OracleError
from phonebuddy.phoneworld.tasks.registry import UnknownTaskError, get_template
from phonebuddy.phoneworld.tasks.runner import instantiate
from phonebuddy.phoneworld.tasks.suites import (
    SuiteSeedError,
    UnknownSuiteError,
    get_suite,
    task_specs,
)
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import ErrorCode, OracleReply, OracleRequest, TaskList, TaskQuery
from phonebuddy.protocol.subjects import WORLD_ORACLE, WORLD_QUEUE, WORLD_TASKS

log = logging.getLogger(__name__)
ORACLE_CACHE = 512
MAX_TASKS = 20_000


class CatalogEndpoint:
    def __init__(self, world: World, bus: Bus) -> None:
        self.world = world
        self.bus = bus
        self._services: list[Service] = []
        self._oracles: OrderedDict[str, OracleReply] = OrderedDict()

    async def start(self) -> None:
        self._services = [
            await self.bus.serve(WORLD_TASKS, TaskQuery, self.tasks, queue=WORLD_QUEUE),
            await self.bus.serve(WORLD_ORACLE, OracleRequest, self.oracle, queue=WORLD_QUEUE),
        ]

    async def stop(self) -> None:
        for service in self._services:
            with contextlib.suppress(Exception):
                await service.stop()
        self._services.clear()

    async def tasks(self, query: TaskQuery) -> TaskList:
        try:
            if query.suite is not None:
                suite = get_suite(query.suite)
                suite.check_seeds(query.seeds)
                templates = suite.templates
            else:
                templates = tuple(get_template(template_id) for template_id in query.template_ids)
        except (UnknownSuiteError, UnknownTaskError) as exc:
            raise ServiceError(ErrorCode.UNKNOWN_TASK, str(exc)) from None
        except SuiteSeedError as exc:
            raise ServiceError(ErrorCode.INVALID_REQUEST, str(exc)) from None
        if not templates:
            raise ServiceError(ErrorCode.INVALID_REQUEST, "the query selects no task templates")
        if len(templates) * len(query.seeds) > MAX_TASKS:
            raise ServiceError(ErrorCode.INVALID_REQUEST, f"more than {MAX_TASKS} tasks asked")
        specs = await asyncio.to_thread(
            task_specs, self.world, templates, query.seeds, language=query.language
        )
        return TaskList(tasks=specs)

    async def oracle(self, request: OracleRequest) -> OracleReply:
        spec = request.task
        cached = self._oracles.get(spec.task_id)
        if cached is not None:
            self._oracles.move_to_end(spec.task_id)
            return cached
        try:
            template = get_template(spec.template_id)
        except UnknownTaskError as exc:
            raise ServiceError(ErrorCode.UNKNOWN_TASK, str(exc)) from None

        def solve() -> OracleReply:
            instance = instantiate(template, self.world, spec.seed, language=spec.language)
            return OracleReply(actions=tuple(oracle_actions(self.world, instance)))

        try:
            reply = await asyncio.to_thread(solve)
        except OracleError as exc:
            raise ServiceError(
                ErrorCode.INTERNAL, f"the oracle of {spec.template_id} failed: {exc}"
            ) from exc
        self._oracles[spec.task_id] = reply
        if len(self._oracles) > ORACLE_CACHE:
            self._oracles.popitem(last=False)
        return reply
