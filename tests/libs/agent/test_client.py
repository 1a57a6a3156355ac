"""What `PolicyClient` puts in a request: a model endpoint learns nothing about the task beyond
the prompt; a teacher endpoint learns only which task (template, seed, language) and step."""

import json

from phonebuddy.agent import PolicyClient, PolicyEndpoint, Sampling, build_prompt
from phonebuddy.agent.client import teacher_metadata
from phonebuddy.protocol import TaskSpec

from .conftest import observation

SECRET_CENTS = 467847


async def _body(task: TaskSpec, *, teacher: bool) -> dict:
    endpoint = PolicyEndpoint(base_url="http://127.0.0.1:9/v1", teacher=teacher)
    screen = observation("start")
    prompt = build_prompt(task, [], screen)
    async with PolicyClient(endpoint) as client:
        frames = {screen.frame.sha256: b"png"}
        return client.request_body(prompt, frames, Sampling(), task=task, step=3)


def _question(task: TaskSpec) -> TaskSpec:
    return task.model_copy(update={"template_id": "wallet.balance", "seed": 7, "language": "zh",
                                   "params": {"balance_cents": SECRET_CENTS}})  # fmt: skip


async def test_a_model_endpoint_gets_no_task_metadata(task: TaskSpec) -> None:
    body = await _body(_question(task), teacher=False)
    assert "metadata" not in body
    assert str(SECRET_CENTS) not in json.dumps(body)


async def test_a_teacher_endpoint_gets_only_what_identifies_the_task(task: TaskSpec) -> None:
    question = _question(task)
    body = await _body(question, teacher=True)
    assert body["metadata"] == teacher_metadata(question, 3)
    assert body["metadata"] == {
        "phonebuddy_template_id": "wallet.balance",
        "phonebuddy_seed": "7",
        "phonebuddy_language": "zh",
        "phonebuddy_step": "3",
    }
    assert str(SECRET_CENTS) not in json.dumps(body)
