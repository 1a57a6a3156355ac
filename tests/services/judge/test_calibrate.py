"""Calibration on a stored run of PhoneWorld demonstrations (successes and near misses, with
the verifier's verdicts) against a scripted judge that is right on some tasks and wrong on
others, so the expected precision and recall are known."""

import asyncio
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from phonebuddy.judge import Judge
from phonebuddy.judge.calibration import calibrate
from phonebuddy.judge.cli import app
from phonebuddy.storage import LocalStore
from phonebuddy.testing import ScriptedLLM, ScriptedReply
from phonebuddy.trajectories import RunManifest, TrajectoryStore

from .conftest import GRADER, WRITER, DemoFactory, grades_reply, judge_settings, put_demo

RUN = "calib-1"
# How the scripted grader behaves per task: right, always "fail", always "pass".
RIGHT, SAYS_FAIL, SAYS_PASS = "notes.pin", "contacts.favorite", "notes.create"


@pytest.fixture(scope="module")
def stored_run(demo: DemoFactory, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of 6 episodes: for each task its oracle success and a near miss (verifier:
    failure), plus one episode without a verifier verdict."""
    root = tmp_path_factory.mktemp("calibration") / "store"

    async def build() -> None:
        trajectories = TrajectoryStore(LocalStore(root))
        for template in (RIGHT, SAYS_FAIL, SAYS_PASS):
            slug = template.replace(".", "-")
            won = demo(template, run_id=RUN, episode_id=f"{slug}-ok")
            missed = demo(template, stop_after=2, run_id=RUN, episode_id=f"{slug}-miss")
            assert won.episode.verdict is not None
            assert won.episode.verdict.success
            assert missed.episode.verdict is not None
            assert not missed.episode.verdict.success
            await put_demo(trajectories, won)
            await put_demo(trajectories, missed)
        unlabelled = demo(RIGHT, run_id=RUN, episode_id="zz-no-verdict")
        await put_demo(
            trajectories,
            type(unlabelled)(
                episode=unlabelled.episode.model_copy(update={"verdict": None}),
                frames=unlabelled.frames,
            ),
        )
        await trajectories.write_manifest(RunManifest(run_id=RUN))

    asyncio.run(build())
    return root


@pytest.fixture
def store_dir(stored_run: Path, tmp_path: Path) -> Path:
    """A copy of the stored run for one test (the judge writes its rubric cache into it)."""
    return Path(shutil.copytree(stored_run, tmp_path / "store"))


Script = Callable[[dict[str, Any]], ScriptedReply]


@pytest.fixture
def scripted_judge(demo: DemoFactory) -> Script:
    """Rubric: two items. Grades: right for RIGHT (pass when the episode ended with terminate),
    always failing for SAYS_FAIL, always passing for SAYS_PASS."""
    says = {
        demo(RIGHT).episode.task.instruction_text: None,
        demo(SAYS_FAIL).episode.task.instruction_text: False,
        demo(SAYS_PASS).episode.task.instruction_text: True,
    }

    def script(body: dict[str, Any]) -> ScriptedReply:
        if body["model"] == WRITER:
            items = [
                {"id": "done", "criterion": "the task is done"},
                {"id": "kept", "criterion": "-"},
            ]
            return ScriptedReply.json_object({"items": items})
        text = json.dumps(body["messages"], ensure_ascii=False)
        (fixed,) = [said for instruction, said in says.items() if instruction in text]
        finished = "The episode ended because the agent called terminate." in text
        return grades_reply({"done": finished if fixed is None else fixed, "kept": True})

    return script


EXPECTED = {
    # RIGHT: TP + TN; SAYS_FAIL: FN + TN; SAYS_PASS: TP + FP
    "n": 6,
    "skipped": 1,
    "true_positives": 2,
    "false_positives": 1,
    "true_negatives": 2,
    "false_negatives": 1,
    "judge_errors": 0,
    "agreement": round(4 / 6, 4),
    "precision": round(2 / 3, 4),
    "recall": round(2 / 3, 4),
}


async def test_calibration_reports_the_judges_agreement_with_the_verifiers(
    store_dir: Path, scripted_judge: Script
) -> None:
    trajectories = TrajectoryStore(LocalStore(store_dir))
    async with ScriptedLLM(scripted_judge) as llm:
        settings = judge_settings(llm.base_url)
        async with Judge.from_settings(settings, trajectories) as judge:
            report = await calibrate(judge, trajectories, RUN, save_records=True)
        assert len(llm.requests_for(WRITER)) == 3  # one rubric per instruction
        assert len(llm.requests_for(GRADER)) == 6
    assert report.model_dump(include=set(EXPECTED)) == EXPECTED
    assert report.models == {"rubric": WRITER, "grader": GRADER}
    assert {(d.episode_id, d.verifier_success, d.judge_success) for d in report.disagreements} == {
        ("contacts-favorite-ok", True, False),
        ("notes-create-miss", False, True),
    }
    record = await trajectories.get_judge_record(RUN, "notes-pin-ok")
    assert record is not None
    assert record["verdict"]["success"] is True


async def test_calibration_counts_judge_errors_as_failures_and_honours_the_limit(
    store_dir: Path,
) -> None:
    trajectories = TrajectoryStore(LocalStore(store_dir))
    async with ScriptedLLM(lambda body: ScriptedReply.text("no idea")) as llm:
        settings = judge_settings(llm.base_url, max_retries=0)
        async with Judge.from_settings(settings, trajectories) as judge:
            report = await calibrate(judge, trajectories, RUN, limit=4)
    assert report.n == 4
    assert report.judge_errors == 4
    assert report.true_positives == report.false_positives == 0
    assert report.precision is None  # the judge never said "success"
    assert report.recall == 0.0
    assert await trajectories.get_judge_record(RUN, "notes-pin-ok") is None  # not saved


def test_the_calibrate_command_prints_the_report_as_json_and_as_a_table(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch, scripted_judge: Script
) -> None:
    runner = CliRunner()
    with ScriptedLLM(scripted_judge) as llm:
        for role, model in (("RUBRIC", WRITER), ("GRADER", GRADER)):
            monkeypatch.setenv(f"PHONEBUDDY_JUDGE_{role}_BASE_URL", llm.base_url)
            monkeypatch.setenv(f"PHONEBUDDY_JUDGE_{role}_MODEL", model)
        monkeypatch.setenv("PHONEBUDDY_JUDGE_BACKOFF_S", "0")
        monkeypatch.setenv("PHONEBUDDY_JUDGE_REQUESTS_PER_MINUTE", "0")
        store = f"local:{store_dir}"
        as_json = runner.invoke(app, ["calibrate", "--run", RUN, "--store", store, "--json"])
        as_table = runner.invoke(app, ["calibrate", "--run", RUN, "--store", store])
        assert len(llm.requests_for(WRITER)) == 3  # the second call read the cached rubrics
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.stdout)
    assert {key: report[key] for key in EXPECTED} == EXPECTED
    assert as_table.exit_code == 0, as_table.output
    table = as_table.stdout
    assert "6 episodes with a verifier verdict (1 without one skipped)" in table
    assert "agreement 0.667   precision 0.667   recall 0.667   judge errors 0" in table
    assert "contacts-favorite-ok  contacts.favorite  verifier success, judge failure" in table


def test_calibrating_a_run_without_ground_truth_fails_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for role in ("RUBRIC", "GRADER"):
        monkeypatch.setenv(f"PHONEBUDDY_JUDGE_{role}_BASE_URL", "http://127.0.0.1:9/v1")
        monkeypatch.setenv(f"PHONEBUDDY_JUDGE_{role}_MODEL", "m")
    result = CliRunner().invoke(
        app, ["calibrate", "--run", "nothing-here", "--store", f"local:{tmp_path}"]
    )
    assert result.exit_code == 1
    assert "run nothing-here" in result.output
    assert "no episodes with a verifier verdict" in result.output
