"""Rollouts end to end through the broker: sim phones (PhoneWorld over NATS), real phones
(PhoneWorld behind the ADB device gateway, graded by the rubric judge), groups, retries,
store layout, and the `phonebuddy rollout` command."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from nats.aio.msg import Msg

from phonebuddy.bus import connect
from phonebuddy.protocol import (
    RunEvent,
    SourceMix,
    TaskSelection,
)
from phonebuddy.protocol.judging import JudgeRequest
from phonebuddy.protocol.subjects import JUDGE_SUBJECT, rollout_events_subject
from phonebuddy.trajectories import GroupStatus, summarize

from .conftest import Rig, running_broker

_LABELS = 'app="com.pw.settings",category="single_app",outcome="success",source="sim"'
COUNTED = f"phonebuddy_broker_episodes_total{{{_LABELS}}} 2.0"


async def test_teacher_rollout_on_sim_and_real_phones_completes_every_group(rig: Rig) -> None:
    request = rig.request(
        "mixed", tasks=TaskSelection(template_ids=("settings.toggle", "wallet.balance", "notes.pin",
                                                   "notes.create")),
        mix=SourceMix(sim=0.5, real=0.5),
    )  # fmt: skip
    events: list[RunEvent] = []
    with running_broker(rig) as broker_url:
        async with connect(rig.nats) as bus:

            async def collect(msg: Msg) -> None:
                events.append(RunEvent.model_validate_json(msg.data))

            subscription = await bus.nc.subscribe(rollout_events_subject("mixed"), cb=collect)
            await bus.nc.flush()
            await bus.nc.flush()  # nats-py's flush may overtake the SUB: a second round trip
            accepted = await rig.submit(request)
            manifest = await rig.wait_done("mixed")
            await asyncio.sleep(0.3)
            await subscription.unsubscribe()
        metrics = await _metrics_when(broker_url, COUNTED)
    assert accepted.groups == 4
    assert accepted.episodes == 8
    assert [g.source.value for g in manifest.groups] == ["sim", "real", "sim", "real"]
    assert all(g.status == GroupStatus.COMPLETE for g in manifest.groups)
    assert all(len(g.episodes) == 2 for g in manifest.groups)
    async with rig.store() as store:
        episodes = [episode async for episode in store.episodes("mixed")]
        keys = await store.store.list("runs/mixed/")
        for episode in episodes:
            assert episode.verdict is not None
            if episode.task.source.value == "sim":
                assert episode.verdict.grader == "verifier"
                assert episode.verdict.success, episode.verdict.reason
            else:
                assert episode.verdict.grader == "judge"
                assert episode.verdict.success, episode.verdict.reason
                record = await store.get_judge_record("mixed", episode.episode_id)
                assert record is not None
                assert {item["id"] for item in record["rubric"]["items"]} == set(rig.judging.items)
            assert episode.policy.version == "phoneworld-oracle"
            assert episode.steps[-1].action is not None
            # Every screenshot the episode names is in the store, by hash.
            for step in episode.steps:
                assert await store.get_frame(step.observation.frame)
            assert episode.final_observation is not None
            assert await store.get_frame(episode.final_observation.frame)
    assert "runs/mixed/request.json" in keys
    assert "runs/mixed/manifest.json" in keys
    assert len([k for k in keys if "/episodes/" in k]) == 8
    assert len([k for k in keys if "/judge/" in k]) == 4
    kinds = [event.kind for event in events]
    assert kinds.count("episode_stored") == 8
    assert kinds.count("group_complete") == 4
    assert kinds[-1] == "run_done"
    summary = summarize(manifest, episodes)
    assert summary.overall.success_rate == 1.0
    assert set(summary.by_source) == {"sim", "real"}
    assert COUNTED in metrics, [line for line in metrics.splitlines() if "episodes_total{" in line]
    assert "phonebuddy_broker_env_steps_total" in metrics


async def _metrics_when(url: str, needle: str, attempts: int = 50) -> str:
    """The broker's metrics once they show `needle` (the last episode's counters may land just
    after another worker marked the run done)."""
    async with httpx.AsyncClient() as http:
        for _ in range(attempts):
            text = (await http.get(f"{url}/metrics")).text
            if needle in text:
                break
            await asyncio.sleep(0.1)
    return text


async def test_a_broker_run_exports_to_parquet_with_the_rollout_prompts(
    rig: Rig, tmp_path: Path
) -> None:
    import pyarrow.parquet as pq

    from phonebuddy.agent import PromptConfig, Sampling, build_prompt
    from phonebuddy.trajectories.export import export_run

    request = rig.request(
        "exported",
        tasks=TaskSelection(template_ids=("notes.pin",)),
        group_size=1,
        prompt=PromptConfig(screenshots=2),
    )
    with running_broker(rig):
        await rig.submit(request)
        await rig.wait_done("exported")
    async with rig.store() as store:
        report = await export_run(store, "exported", tmp_path)
        (episode,) = [e async for e in store.episodes("exported")]
    table = [
        row
        for shard in sorted(tmp_path.glob("*.parquet"))  # noqa: ASYNC240 (a test reading back)
        for row in pq.read_table(shard).to_pylist()
    ]
    assert report.rows == len(episode.steps) == len(table)
    assert report.prompt_config == PromptConfig(screenshots=2)
    for row, step in zip(sorted(table, key=lambda r: r["step_index"]), episode.steps, strict=True):
        prompt = build_prompt(episode.task, episode.steps[: step.index], step.observation,
                              config=PromptConfig(screenshots=2))  # fmt: skip
        assert row["prompt_text"] == prompt.render(enable_thinking=Sampling().enable_thinking)
        assert len(row["images"]) == min(step.index + 1, 2)


async def test_a_mixed_rollout_into_its_own_store_is_judged_from_and_beside_it(rig: Rig) -> None:
    url = f"local:{rig.local_root / 'judged-here'}"
    request = rig.request(
        "judged-here", tasks=TaskSelection(template_ids=("settings.toggle", "notes.pin")),
        mix=SourceMix(sim=0.5, real=0.5), group_size=1, store_url=url,
    )  # fmt: skip
    sent: list[JudgeRequest] = []
    with running_broker(rig):
        async with connect(rig.nats) as bus:

            async def overhear(msg: Msg) -> None:  # a plain subscriber gets a copy of each
                sent.append(JudgeRequest.model_validate_json(msg.data))

            subscription = await bus.nc.subscribe(JUDGE_SUBJECT, cb=overhear)
            await bus.nc.flush()
            await bus.nc.flush()
            await rig.submit(request)
            manifest = await rig.wait_done("judged-here", store_url=url)
            await subscription.unsubscribe()
    assert [g.source.value for g in manifest.groups] == ["sim", "real"]
    async with rig.store(url) as store:
        episodes = {e.task.source.value: e async for e in store.episodes("judged-here")}
        real = episodes["real"]
        record = await store.get_judge_record("judged-here", real.episode_id)
    assert real.verdict is not None
    assert real.verdict.grader == "judge"
    assert real.verdict.success, real.verdict.reason
    assert not real.verdict.judge_error
    assert record is not None
    assert record["verdict"] == real.verdict.model_dump(mode="json")
    async with rig.store() as own:  # nothing of the run in the stack's store
        assert await own.store.list("runs/judged-here/") == []
    (judged,) = sent
    assert judged.store_url == url
    assert judged.episode.episode_id == real.episode_id
    assert [s.action for s in judged.episode.steps] == [s.action for s in real.steps]
    assert real.steps[0].observation.ui_tree is not None  # stored whole, sent trimmed:
    assert all(s.observation.ui_tree is None for s in judged.episode.steps)
    assert all(s.raw_output == "" for s in judged.episode.steps)


async def test_a_run_id_reused_in_another_store_runs_again(rig: Rig) -> None:
    # A job started afresh under its old name (a new output store, the same run ids) within
    # JetStream's dedup window: its episodes are new work, not duplicates of the earlier run's.
    stores = [f"local:{rig.local_root / f'reused-{n}'}" for n in (1, 2)]
    manifests = []
    with running_broker(rig):
        for url in stores:
            request = rig.request(
                "reused-id", tasks=TaskSelection(template_ids=("settings.toggle",)),
                mix=SourceMix(sim=1.0), group_size=2, store_url=url,
            )  # fmt: skip
            await rig.submit(request)
            manifests.append(await rig.wait_done("reused-id", timeout_s=60, store_url=url))
    for url, manifest in zip(stores, manifests, strict=True):
        assert [g.status for g in manifest.groups] == [GroupStatus.COMPLETE]
        async with rig.store(url) as store:
            assert len(await store.episode_ids("reused-id")) == 2


async def test_element_actions_are_stored_resolved_and_an_unlisted_element_is_a_step(
    rig: Rig,
) -> None:
    """A `ui_tree` policy that names elements: the prompt lists the screen's elements, a listed
    element is tapped at its centre and stored with that point, an unlisted one is recorded as
    an invalid step (its reason kept) and the episode goes on."""
    from phonebuddy.agent import PromptConfig
    from phonebuddy.protocol import Click, Terminate, screen_elements, to_tool_call_json
    from phonebuddy.testing import ScriptedLLM, ScriptedReply

    answers = iter([Click(element=0), Click(element=63), Terminate(status="failure")])
    prompts: list[str] = []

    def policy(request: object) -> ScriptedReply:
        content = request["messages"][-1]["content"]  # type: ignore[index]
        prompts.append("".join(part.get("text", part["type"]) for part in content))
        return ScriptedReply.text(f"<tool_call>\n{to_tool_call_json(next(answers))}\n</tool_call>")

    config = PromptConfig(observation="ui_tree", element_actions=True)
    with ScriptedLLM(policy) as llm, running_broker(rig):
        request = rig.request(
            "elements", tasks=TaskSelection(template_ids=("notes.pin",)), group_size=1,
            policy={"base_url": llm.base_url, "model": "phonebuddy-policy"}, prompt=config,
            concurrency=1,
        )  # fmt: skip
        await rig.submit(request)
        manifest = await rig.wait_done("elements")
    assert manifest.settings["prompt_config"] == config.model_dump(mode="json")
    async with rig.store() as store:
        (episode,) = [e async for e in store.episodes("elements")]
    first, unlisted, last = episode.steps
    assert "Screen elements (step 1):\n[0] " in prompts[0]
    assert "image_url" not in prompts[0]
    element = screen_elements(first.observation.ui_tree, first.observation.screen)[0]
    assert first.action == Click(element=0, coordinate=element.center(first.observation.screen))
    assert unlisted.action is None
    assert "element 63 is not on the screen" in (unlisted.invalid_reason or "")
    assert last.action == Terminate(status="failure")
