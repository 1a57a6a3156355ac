import asyncio
import base64
from typing import Any

import pytest

from phonebuddy.agent import step_text
from phonebuddy.judge import Judge, Rubric
from phonebuddy.judge.metrics import JudgeMetrics
from phonebuddy.storage import LocalStore
from phonebuddy.testing import ScriptedLLM, ScriptedReply, always, in_order
from phonebuddy.trajectories import TrajectoryStore, rubric_key

from .conftest import (
    GRADER,
    ITEMS,
    WRITER,
    DemoFactory,
    all_pass,
    by_role,
    grades_reply,
    judge_settings,
    put_demo,
    rubric_reply,
)


def sample(metrics: JudgeMetrics, name: str, **labels: str) -> float:
    value = metrics.registry.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


@pytest.mark.parametrize(
    ("passed", "success"),
    [
        ({"right_item": True, "saved": True}, True),
        ({"right_item": True, "saved": False}, False),
        ({"right_item": False, "saved": False}, False),
    ],
)
async def test_an_episode_succeeds_only_when_every_rubric_item_passes(
    demo: DemoFactory,
    trajectories: TrajectoryStore,
    passed: dict[str, bool],
    success: bool,
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    script = by_role(rubric=rubric_reply(), grader=grades_reply(passed))
    async with (
        ScriptedLLM(script) as llm,
        Judge.from_settings(judge_settings(llm.base_url), trajectories) as judge,
    ):
        verdict, record = await judge.grade(episode)
    assert verdict.success is success
    assert verdict.reward == (1.0 if success else 0.0)
    assert verdict.grader == "judge"
    assert not verdict.judge_error
    failed = [item_id for item_id, ok in passed.items() if not ok]
    assert verdict.details["failed"] == failed
    for item_id in failed:
        assert f"{item_id}: {item_id} missing" in verdict.reason
    assert [r["id"] for r in record["results"]] == list(ITEMS)
    assert [r["passed"] for r in record["results"]] == list(passed.values())
    assert record["models"] == {"rubric": WRITER, "grader": GRADER}
    assert [item["id"] for item in record["rubric"]["items"]] == list(ITEMS)
    assert len(record["raw"]["rubric"]) == 1
    assert len(record["raw"]["grading"]) == 1
    assert record["error"] is None
    assert record["verdict"]["success"] is success


async def test_the_rubric_is_cached_by_instruction_hash_across_episodes_and_judges(
    demo: DemoFactory, store: LocalStore, trajectories: TrajectoryStore
) -> None:
    first = await put_demo(trajectories, demo("notes.pin", episode_id="a"))
    second = await put_demo(trajectories, demo("notes.pin", stop_after=2, episode_id="b"))
    other = await put_demo(trajectories, demo("contacts.favorite", episode_id="c"))
    assert first.task.instruction_text == second.task.instruction_text
    script = by_role(rubric=rubric_reply(), grader=all_pass())
    metrics = JudgeMetrics()
    async with ScriptedLLM(script) as llm:
        settings = judge_settings(llm.base_url)
        async with Judge.from_settings(settings, trajectories, metrics=metrics) as judge:
            _, record_a = await judge.grade(first)
            _, record_b = await judge.grade(second)
        assert len(llm.requests_for(WRITER)) == 1
        # A new judge (another run, another process) reads the cache from the store.
        async with Judge.from_settings(settings, trajectories) as judge:
            _, record_again = await judge.grade(first)
            assert len(llm.requests_for(WRITER)) == 1
            _, record_c = await judge.grade(other)
        assert len(llm.requests_for(WRITER)) == 2
    assert (record_a["rubric_cached"], record_b["rubric_cached"]) == (False, True)
    assert (record_again["rubric_cached"], record_c["rubric_cached"]) == (True, False)
    cached = await store.get_json(rubric_key(first.task.instruction_text), model=Rubric)
    assert cached.instruction == first.task.instruction_text
    assert cached.model == WRITER
    assert cached.ids == list(ITEMS)
    assert first.task.instruction_text in llm.requests_for(WRITER)[0].text()
    assert sample(metrics, "phonebuddy_judge_rubric_cache_total", outcome="hit") == 1
    assert sample(metrics, "phonebuddy_judge_rubric_cache_total", outcome="miss") == 1


async def test_concurrent_episodes_with_one_instruction_ask_for_one_rubric(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episodes = [
        await put_demo(trajectories, demo("notes.pin", episode_id=f"e{i}")) for i in range(4)
    ]
    async with (
        ScriptedLLM(by_role(rubric=rubric_reply(), grader=all_pass())) as llm,
        Judge.from_settings(judge_settings(llm.base_url), trajectories) as judge,
    ):
        verdicts = await asyncio.gather(*(judge.grade(episode) for episode in episodes))
    assert all(verdict.success for verdict, _ in verdicts)
    assert len(llm.requests_for(WRITER)) == 1
    assert len(llm.requests_for(GRADER)) == 4


async def test_malformed_answers_are_retried_then_give_a_judge_error(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    grader = in_order(
        ScriptedReply.raw("<html>bad gateway</html>", media_type="text/html"),
        ScriptedReply.text("Both items look fine to me."),
        grades_reply({"right_item": True}),  # an item without a result
    )
    metrics = JudgeMetrics()
    async with ScriptedLLM(by_role(rubric=rubric_reply(), grader=grader)) as llm:
        settings = judge_settings(llm.base_url, max_retries=2)
        async with Judge.from_settings(settings, trajectories, metrics=metrics) as judge:
            verdict, record = await judge.grade(episode)
    assert verdict.judge_error
    assert not verdict.success
    assert verdict.reward == 0.0
    assert verdict.details == {"stage": "grading"}
    assert "no result for ['saved']" in verdict.reason
    outcomes = [call["outcome"] for call in record["calls"]["grading"]]
    assert outcomes == ["not_a_completion", "invalid_answer", "invalid_answer"]
    assert record["raw"]["grading"][0] == "Both items look fine to me."
    assert len(record["raw"]["grading"]) == 2
    assert record["error"]["stage"] == "grading"
    assert record["results"] == []
    assert sample(metrics, "phonebuddy_judge_verdicts_total", outcome="judge_error") == 1
    assert (
        sample(
            metrics,
            "phonebuddy_judge_llm_calls_total",
            component="grader",
            outcome="invalid_answer",
        )
        == 2
    )


async def test_answers_in_code_fences_and_prose_are_understood(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    fenced_rubric = ScriptedReply.text(
        "<think>the task pins a note</think>Here is the rubric:\n```json\n"
        '{"items": [{"id": "right_item", "criterion": "the right note"}, '
        '{"id": "saved", "criterion": "it is pinned"}]}\n```\nGood luck!'
    )
    prose_grades = ScriptedReply.text(
        'Sure. {"results": [{"id": "saved", "passed": true, "evidence": "pin icon"}, '
        '{"id": "right_item", "passed": true, "evidence": "title matches"}]} Done.'
    )
    async with (
        ScriptedLLM(by_role(rubric=fenced_rubric, grader=prose_grades)) as llm,
        Judge.from_settings(judge_settings(llm.base_url), trajectories) as judge,
    ):
        verdict, record = await judge.grade(episode)
    assert verdict.success, verdict.reason
    # Results come back in the rubric's order whatever order the grader used.
    assert [r["id"] for r in record["results"]] == ["right_item", "saved"]


async def test_a_slow_answer_past_the_timeout_is_a_judge_error_never_a_success(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    slow_pass = all_pass().after(60)
    async with ScriptedLLM(by_role(rubric=rubric_reply(), grader=slow_pass)) as llm:
        settings = judge_settings(llm.base_url, timeout_s=0.2, max_retries=1)
        async with Judge.from_settings(settings, trajectories) as judge:
            verdict, record = await judge.grade(episode)
        assert len(llm.requests_for(GRADER)) == 2
    assert verdict.judge_error
    assert not verdict.success
    assert "within 0.2 s" in verdict.reason
    assert [call["outcome"] for call in record["calls"]["grading"]] == ["timeout", "timeout"]


async def test_rate_limits_and_server_errors_are_retried_until_an_answer_comes(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    grader = in_order(
        ScriptedReply.error(429, "slow down", headers={"Retry-After": "0"}),
        ScriptedReply.error(500, "oops"),
        ScriptedReply.error(503, "overloaded"),
        all_pass(),
    )
    async with ScriptedLLM(by_role(rubric=rubric_reply(), grader=grader)) as llm:
        settings = judge_settings(llm.base_url, max_retries=3)
        async with Judge.from_settings(settings, trajectories) as judge:
            verdict, record = await judge.grade(episode)
    assert verdict.success, verdict.reason
    outcomes = [call["outcome"] for call in record["calls"]["grading"]]
    assert outcomes == ["rate_limited", "server_error", "server_error", "ok"]
    assert [call["status"] for call in record["calls"]["grading"]] == [429, 500, 503, None]


async def test_errors_that_a_retry_cannot_fix_are_not_retried(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    script = by_role(rubric=rubric_reply(), grader=all_pass())
    async with ScriptedLLM(script, api_key="the-right-key") as llm:
        settings = judge_settings(llm.base_url, rubric_api_key="a-wrong-key", max_retries=3)
        async with Judge.from_settings(settings, trajectories) as judge:
            verdict, record = await judge.grade(episode)
        assert len(llm.requests) == 1
        assert llm.requests[0].headers["authorization"] == "Bearer a-wrong-key"
    assert verdict.judge_error
    assert verdict.details == {"stage": "rubric"}
    assert "401" in verdict.reason
    assert [call["outcome"] for call in record["calls"]["rubric"]] == ["client_error"]
    assert record["rubric"] is None


@pytest.mark.parametrize(
    "bad_rubric",
    [
        rubric_reply(tuple(f"item_{i}" for i in range(9))),  # more than 8 items
        rubric_reply(("same", "same")),
        ScriptedReply.json_object({"items": []}),
        ScriptedReply.json_object({"criteria": ["no items key"]}),
    ],
    ids=["nine-items", "repeated-ids", "no-items", "wrong-shape"],
)
async def test_a_rubric_that_never_validates_is_a_judge_error_and_is_not_cached(
    demo: DemoFactory, store: LocalStore, trajectories: TrajectoryStore, bad_rubric: ScriptedReply
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    async with ScriptedLLM(by_role(rubric=bad_rubric, grader=all_pass())) as llm:
        settings = judge_settings(llm.base_url, max_retries=1)
        async with Judge.from_settings(settings, trajectories) as judge:
            verdict, record = await judge.grade(episode)
        assert len(llm.requests_for(WRITER)) == 2
        assert llm.requests_for(GRADER) == []
    assert verdict.judge_error
    assert verdict.details == {"stage": "rubric"}
    assert len(record["raw"]["rubric"]) == 2
    assert not await store.exists(rubric_key(episode.task.instruction_text))


async def test_the_llm_calls_never_exceed_the_concurrency_limit(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episodes = [
        await put_demo(trajectories, demo("notes.pin", episode_id=f"e{i}")) for i in range(6)
    ]
    limit = 2
    llm: ScriptedLLM

    async def script(body: dict[str, Any]) -> ScriptedReply:
        if body["model"] == WRITER:
            return rubric_reply()
        # Hold answers until the limit is reached once: a judge that allowed fewer calls at a
        # time would time out here, one that allowed more would push max_in_flight past it.
        await asyncio.wait_for(llm.wait_for_in_flight(limit), 5)
        return all_pass()

    async with ScriptedLLM(script) as llm:
        settings = judge_settings(llm.base_url, max_concurrency=limit, max_retries=0)
        async with Judge.from_settings(settings, trajectories) as judge:
            await judge.rubrics.rubric_for(episodes[0].task.instruction_text)  # one call
            verdicts = await asyncio.gather(*(judge.grade(e) for e in episodes))
    assert all(verdict.success for verdict, _ in verdicts)
    assert len(llm.requests_for(GRADER)) == 6
    assert llm.max_in_flight == limit


@pytest.mark.parametrize(("frames", "template"), [(3, "notes.create"), (1, "notes.pin")])
async def test_the_grader_sees_exactly_the_last_screenshots_as_data_uris_of_stored_bytes(
    demo: DemoFactory, trajectories: TrajectoryStore, frames: int, template: str
) -> None:
    demonstration = demo(template)
    episode = await put_demo(trajectories, demonstration)
    async with ScriptedLLM(by_role(rubric=rubric_reply(), grader=all_pass())) as llm:
        settings = judge_settings(llm.base_url, frames=frames)
        async with Judge.from_settings(settings, trajectories) as judge:
            verdict, record = await judge.grade(episode)
    assert verdict.success
    screens = [step.observation.frame for step in episode.steps]
    assert episode.final_observation is not None
    screens.append(episode.final_observation.frame)
    distinct = [ref for i, ref in enumerate(screens) if i == 0 or ref != screens[i - 1]]
    expected = distinct[-frames:]
    (request,) = llm.requests_for(GRADER)
    urls = request.image_urls()
    assert len(urls) == frames
    for url, ref in zip(urls, expected, strict=True):
        prefix = "data:image/jpeg;base64,"
        assert url.startswith(prefix)
        assert base64.b64decode(url.removeprefix(prefix)) == demonstration.frames[ref.sha256]
    assert record["frames"] == [ref.sha256 for ref in expected]
    assert urls[-1].endswith(
        base64.b64encode(demonstration.frames[episode.final_observation.frame.sha256]).decode()
    )
    text = request.text()
    assert episode.task.instruction_text in text
    for number, step in enumerate(episode.steps, 1):
        assert f"Step {number}: {step_text(step)}" in text
    assert "The episode ended because the agent called terminate." in text
    assert "- right_item: the episode shows right_item" in text


async def test_the_grader_hears_the_agents_answer_and_why_the_episode_ended(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    answered = await put_demo(trajectories, demo("notes.count", episode_id="answered"))
    cut_short = await put_demo(trajectories, demo("notes.create", stop_after=2, episode_id="cut"))
    async with (
        ScriptedLLM(by_role(rubric=rubric_reply(), grader=all_pass())) as llm,
        Judge.from_settings(judge_settings(llm.base_url), trajectories) as judge,
    ):
        await judge.grade(answered)
        await judge.grade(cut_short)
    first, second = (request.text() for request in llm.requests_for(GRADER))
    assert f'The agent\'s final answer: "{answered.answer}"' in first
    assert "The episode ended because the agent gave an answer." in first
    assert "The agent gave no answer." in second
    assert "the step budget ran out" in second


async def test_a_screenshot_missing_from_the_store_is_a_judge_error(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episode = demo("notes.pin").episode
    await trajectories.put_episode(episode)  # but none of its screenshots
    async with (
        ScriptedLLM(by_role(rubric=rubric_reply(), grader=all_pass())) as llm,
        Judge.from_settings(judge_settings(llm.base_url), trajectories) as judge,
    ):
        verdict, record = await judge.grade(episode)
        assert llm.requests_for(GRADER) == []
    assert verdict.judge_error
    assert "is not in the store" in verdict.reason
    assert record["error"]["stage"] == "grading"


async def test_a_grader_that_cannot_be_reached_is_a_judge_error(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    async with ScriptedLLM(always(rubric_reply())) as llm:
        settings = judge_settings(
            llm.base_url, grader_base_url="http://127.0.0.1:9/v1", max_retries=1
        )
        async with Judge.from_settings(settings, trajectories) as judge:
            verdict, record = await judge.grade(episode)
    assert verdict.judge_error
    assert [c["outcome"] for c in record["calls"]["grading"]] == ["connect_error"] * 2


async def test_requests_ask_for_json_and_carry_the_settings(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    async with ScriptedLLM(by_role(rubric=rubric_reply(), grader=all_pass())) as llm:
        settings = judge_settings(
            llm.base_url, grader_api_key="g-key", max_tokens=300, temperature=0.1
        )
        async with Judge.from_settings(settings, trajectories) as judge:
            await judge.grade(episode)
        no_json_mode = judge_settings(llm.base_url, json_mode=False)
        async with Judge.from_settings(no_json_mode, trajectories) as judge:
            await judge.grade(episode)
    writer, grader, grader_plain = llm.requests
    assert writer.body["response_format"] == {"type": "json_object"}
    assert "JSON schema" in writer.text()
    assert "authorization" not in writer.headers
    assert grader.headers["authorization"] == "Bearer g-key"
    assert (grader.body["max_tokens"], grader.body["temperature"]) == (300, 0.1)
    assert "response_format" not in grader_plain.body
    assert "metadata" not in writer.body
    assert "metadata" not in grader.body  # a real model hears nothing about the task


async def test_with_task_metadata_only_the_grader_hears_which_task_and_verdicts_name_models(
    demo: DemoFactory, trajectories: TrajectoryStore
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin"))
    async with ScriptedLLM(by_role(rubric=rubric_reply(), grader=all_pass())) as llm:
        settings = judge_settings(llm.base_url, task_metadata=True)
        async with Judge.from_settings(settings, trajectories) as judge:
            verdict, _ = await judge.grade(episode)
    writer, grader = llm.requests
    assert "metadata" not in writer.body
    assert grader.body["metadata"] == {
        "phonebuddy_template_id": "notes.pin",
        "phonebuddy_seed": str(episode.task.seed),
        "phonebuddy_language": episode.task.language,
    }
    assert verdict.success
    assert verdict.details["models"] == {"rubric": WRITER, "grader": GRADER}
