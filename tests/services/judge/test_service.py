"""The judge as a service: NATS request/reply against a real nats-server, records in a real
local store, models behind a ScriptedLLM, health and metrics over HTTP."""

from pathlib import Path

import httpx
import pytest

from phonebuddy.bus import NatsSettings, RemoteError, connect
from phonebuddy.judge.app import create_app
from phonebuddy.protocol import ErrorCode
from phonebuddy.protocol.judging import JudgeReply, JudgeRequest, for_judging
from phonebuddy.protocol.subjects import JUDGE_SUBJECT
from phonebuddy.storage import LocalStore, S3Store
from phonebuddy.testing import NatsServer, S3Server, ScriptedLLM, ScriptedReply, serve_asgi
from phonebuddy.trajectories import TrajectoryStore, rubric_key

from .conftest import DemoFactory, all_pass, by_role, judge_settings, put_demo, rubric_reply


def nats_settings(server: NatsServer) -> NatsSettings:
    return NatsSettings(url=server.url, user=server.user, password=server.password)


async def test_a_judge_request_over_nats_gets_a_verdict_and_stores_the_record_beside_it(
    nats_server: NatsServer, demo: DemoFactory, store: LocalStore, trajectories: TrajectoryStore
) -> None:
    passing = await put_demo(trajectories, demo("notes.pin", episode_id="good"))
    failing = await put_demo(trajectories, demo("contacts.favorite", episode_id="bad"))

    def grader(body: dict) -> ScriptedReply:
        if failing.task.instruction_text in str(body["messages"]):
            return ScriptedReply.json_object(
                {
                    "results": [
                        {"id": "right_item", "passed": True, "evidence": "the right contact"},
                        {"id": "saved", "passed": False, "evidence": "no star shown"},
                    ]
                }
            )
        return all_pass()

    async with ScriptedLLM(by_role(rubric=rubric_reply(), grader=grader)) as llm:
        app = create_app(judge_settings(llm.base_url), nats_settings(nats_server), store)
        async with (
            serve_asgi(app) as url,
            httpx.AsyncClient(base_url=url, timeout=10) as http,
            connect(nats_settings(nats_server)) as bus,
        ):
            assert (await http.get("/readyz")).status_code == 200
            good = await bus.request(
                JUDGE_SUBJECT, JudgeRequest(episode=passing), JudgeReply, timeout_s=30
            )
            bad = await bus.request(
                JUDGE_SUBJECT, JudgeRequest(episode=failing), JudgeReply, timeout_s=30
            )
            metrics = (await http.get("/metrics")).text

    assert good.verdict.success
    assert not good.verdict.judge_error
    assert not bad.verdict.success
    assert bad.verdict.details["failed"] == ["saved"]
    assert "no star shown" in bad.verdict.reason

    record = await trajectories.get_judge_record(passing.run_id, passing.episode_id)
    assert record is not None
    assert record["episode_id"] == "good"
    assert record["verdict"] == good.verdict.model_dump(mode="json")
    assert [result["passed"] for result in record["results"]] == [True, True]
    assert record["rubric"]["instruction"] == passing.task.instruction_text
    assert await store.exists(f"runs/{passing.run_id}/judge/good.json")
    bad_record = await trajectories.get_judge_record(failing.run_id, failing.episode_id)
    assert bad_record is not None
    assert bad_record["verdict"]["success"] is False

    assert 'phonebuddy_judge_verdicts_total{outcome="pass"} 1.0' in metrics
    assert 'phonebuddy_judge_verdicts_total{outcome="fail"} 1.0' in metrics
    assert 'phonebuddy_judge_requests_total{outcome="ok"} 2.0' in metrics
    assert 'phonebuddy_judge_llm_calls_total{component="rubric",outcome="ok"} 2.0' in metrics
    assert 'phonebuddy_judge_llm_calls_total{component="grader",outcome="ok"} 2.0' in metrics
    assert 'phonebuddy_judge_rubric_cache_total{outcome="miss"} 2.0' in metrics
    assert "phonebuddy_judge_grade_latency_seconds_count 2.0" in metrics


async def test_a_judge_error_is_still_a_reply_and_its_record_is_stored(
    nats_server: NatsServer, demo: DemoFactory, store: LocalStore, trajectories: TrajectoryStore
) -> None:
    episode = await put_demo(trajectories, demo("notes.pin", episode_id="unjudgeable"))
    script = by_role(rubric=rubric_reply(), grader=ScriptedReply.text("I cannot tell."))
    async with ScriptedLLM(script) as llm:
        settings = judge_settings(llm.base_url, max_retries=1)
        app = create_app(settings, nats_settings(nats_server), store)
        async with serve_asgi(app), connect(nats_settings(nats_server)) as bus:
            reply = await bus.request(
                JUDGE_SUBJECT, JudgeRequest(episode=episode), JudgeReply, timeout_s=30
            )
    assert reply.verdict.judge_error
    assert not reply.verdict.success
    record = await trajectories.get_judge_record(episode.run_id, episode.episode_id)
    assert record is not None
    assert record["error"]["stage"] == "grading"
    assert record["raw"]["grading"] == ["I cannot tell.", "I cannot tell."]


async def test_readyz_reports_a_store_or_bus_that_stops_answering(
    nats_server_fn: NatsServer,
) -> None:
    with S3Server() as s3:
        store = S3Store(
            s3.endpoint, s3.access_key, s3.secret_key, "judge-ready", create_bucket=True
        )
        settings = judge_settings("http://127.0.0.1:9/v1")
        app = create_app(settings, nats_settings(nats_server_fn), store)
        async with serve_asgi(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as http:
            ready = await http.get("/readyz")
            s3.stop()
            store_gone = await http.get("/readyz")
            nats_server_fn.stop()
            both_gone = await http.get("/readyz")
            live = await http.get("/livez")
    assert ready.status_code == 200
    assert store_gone.status_code == 503
    assert store_gone.json()["checks"]["nats"] is True
    assert store_gone.json()["checks"]["store"] is not True
    assert both_gone.json()["checks"]["nats"] is False
    assert live.status_code == 200


async def test_a_request_naming_its_runs_store_is_judged_from_it_and_recorded_there(
    nats_server: NatsServer, demo: DemoFactory, store: LocalStore, tmp_path: Path
) -> None:
    """The judge's own store holds only its rubric cache; the run's screenshots and its record
    live in the run's store, which the request names (under the judge's store roots)."""
    run_store = TrajectoryStore(LocalStore(tmp_path / "roots" / "exp-1"))
    episode = await put_demo(run_store, demo("notes.pin", episode_id="elsewhere"))
    url = f"local:{tmp_path / 'roots' / 'exp-1'}"
    outside = f"local:{tmp_path / 'not-a-root'}"
    async with ScriptedLLM(by_role(rubric=rubric_reply(), grader=all_pass())) as llm:
        settings = judge_settings(llm.base_url, store_roots=(f"local:{tmp_path / 'roots'}",))
        app = create_app(settings, nats_settings(nats_server), store)
        async with serve_asgi(app), connect(nats_settings(nats_server)) as bus:
            trimmed = for_judging(episode)
            reply = await bus.request(
                JUDGE_SUBJECT, JudgeRequest(episode=trimmed, store_url=url), JudgeReply,
                timeout_s=30,
            )  # fmt: skip
            with pytest.raises(RemoteError) as refused:
                await bus.request(
                    JUDGE_SUBJECT, JudgeRequest(episode=trimmed, store_url=outside), JudgeReply,
                    timeout_s=30,
                )  # fmt: skip
    assert reply.verdict.success, reply.verdict.reason
    record = await run_store.get_judge_record(episode.run_id, episode.episode_id)
    assert record is not None
    assert record["verdict"] == reply.verdict.model_dump(mode="json")
    assert await TrajectoryStore(store).get_judge_record(episode.run_id, "elsewhere") is None
    assert await store.exists(rubric_key(episode.task.instruction_text))  # the judge's cache
    assert refused.value.code == ErrorCode.INVALID_REQUEST
    assert "not allowed" in refused.value.message
    assert not (tmp_path / "not-a-root").exists()
