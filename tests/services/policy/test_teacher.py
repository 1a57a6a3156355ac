"""The teacher policy: PhoneWorld's oracle behind the OpenAI API."""

from __future__ import annotations

import openai
import pytest
from openai import AsyncOpenAI

from phonebuddy.agent import ParsedAction, message_text, mobile_use_tool, parse_output
from phonebuddy.agent.client import teacher_metadata
from phonebuddy.bus import NatsSettings, connect
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.policy.app import create_app
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.teacher_backend import TeacherBackend
from phonebuddy.protocol import (
    TEMPLATE_KEY,
    OracleReply,
    OracleRequest,
    TaskList,
    TaskQuery,
    Terminate,
)
from phonebuddy.protocol.subjects import WORLD_ORACLE, WORLD_TASKS
from phonebuddy.testing import NatsServer, serve_asgi


async def test_teacher_answers_each_step_with_the_oracle_action(nats_server_fn: NatsServer) -> None:
    nats = NatsSettings(
        url=nats_server_fn.url, user=nats_server_fn.user, password=nats_server_fn.password
    )
    settings = PolicySettings(backend="teacher", port=0)
    world = create_world(WorldSettings(devices=1, instance_id="tw", port=0), nats)
    teacher = create_app(settings, TeacherBackend(settings, nats))
    async with serve_asgi(world), serve_asgi(teacher) as url, connect(nats) as bus:
        task = (
            await bus.request(WORLD_TASKS, TaskQuery(template_ids=("notes.pin",)), TaskList)
        ).tasks[0]
        oracle = await bus.request(WORLD_ORACLE, OracleRequest(task=task), OracleReply)
        client = AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)
        answers = []
        for step in range(len(oracle.actions) + 1):
            completion = await client.chat.completions.create(
                model="phonebuddy-policy",
                messages=[{"role": "user", "content": "go"}],
                tools=[mobile_use_tool()],  # type: ignore[list-item]
                metadata=teacher_metadata(task, step),
            )
            assert (completion.model_extra or {})["model_version"] == "phoneworld-oracle"
            choice = completion.choices[0]
            assert choice.finish_reason == "tool_calls"
            parsed = parse_output(message_text(choice.message.model_dump()))
            assert isinstance(parsed, ParsedAction)
            answers.append(parsed.action)
        with pytest.raises(openai.BadRequestError, match=TEMPLATE_KEY):
            await client.chat.completions.create(
                model="phonebuddy-policy", messages=[{"role": "user", "content": "go"}]
            )
        unknown = {**teacher_metadata(task, 0), TEMPLATE_KEY: "no.such.task"}
        with pytest.raises(openai.BadRequestError, match=r"no\.such\.task"):
            await client.chat.completions.create(
                model="phonebuddy-policy",
                messages=[{"role": "user", "content": "go"}],
                metadata=unknown,
            )
        await client.close()
    assert tuple(answers[:-1]) == oracle.actions
    assert isinstance(answers[-1], Terminate)  # past the script: done
