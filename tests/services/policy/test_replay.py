"""The blind baseline: a template's most common training path, replayed from the prompt's task
line and step number only."""

from __future__ import annotations

import openai
import pytest
from openai import AsyncOpenAI

from phonebuddy.agent import ParsedAction, PromptConfig, build_prompt, message_text, parse_output
from phonebuddy.phoneworld.demonstrations import record_demonstration
from phonebuddy.phoneworld.world import default_world
from phonebuddy.policy.app import create_app
from phonebuddy.policy.replay_backend import ReplayBackend
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.protocol import Terminate, TerminateStatus
from phonebuddy.protocol.replay import build_replay_table
from phonebuddy.testing import serve_asgi

TEMPLATES = ("settings.toggle", "notes.pin")


def _episodes():
    world = default_world()
    return [
        record_demonstration(world, t, seed, run_id="train", episode_id=f"{t}-{seed}").episode
        for t in TEMPLATES
        for seed in range(4)
    ]


def test_the_table_holds_each_templates_most_common_successful_path() -> None:
    episodes = _episodes()
    table = build_replay_table(episodes)
    assert set(table.templates) == set(TEMPLATES)
    for template, path in table.templates.items():
        mine = [e for e in episodes if e.task.template_id == template]
        paths = [tuple(s.action for s in e.steps) for e in mine]
        assert path.actions in paths
        assert path.share == max(paths.count(p) for p in paths) / len(paths)
        assert set(path.instructions) == {e.task.instruction_text for e in mine}


async def test_it_replays_the_path_of_the_template_the_task_line_names(tmp_path) -> None:
    episodes = _episodes()
    table_file = tmp_path / "replay.json"
    table_file.write_text(build_replay_table(episodes).model_dump_json())
    settings = PolicySettings(backend="replay", model=str(table_file), port=0)
    backend = ReplayBackend(settings)
    held_out = record_demonstration(
        default_world(), "notes.pin", 1_000_003, run_id="test", episode_id="x"
    ).episode
    expected = build_replay_table(episodes).templates["notes.pin"].actions
    async with serve_asgi(create_app(settings, backend)) as url:
        client = AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)
        config = PromptConfig(observation="ui_tree")
        got = []
        for index in range(len(expected) + 1):
            prompt = build_prompt(
                held_out.task, held_out.steps[:index], held_out.steps[0].observation,
                config=config,
            )  # fmt: skip
            completion = await client.chat.completions.create(
                model="phonebuddy-policy", **prompt.to_openai(lambda ref: "unused")
            )
            assert (completion.model_extra or {})["model_version"] == "blind-replay"
            parsed = parse_output(message_text(completion.choices[0].message.model_dump()))
            assert isinstance(parsed, ParsedAction)
            got.append(parsed.action)
        assert tuple(got[:-1]) == expected
        assert got[-1] == Terminate(status=TerminateStatus.FAILURE)  # past the path's end
        with pytest.raises(openai.BadRequestError, match=r"'Task: \.\.\.' line"):
            await client.chat.completions.create(
                model="phonebuddy-policy", messages=[{"role": "user", "content": "go"}]
            )
        await client.close()
