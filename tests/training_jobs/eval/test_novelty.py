"""Held-out tasks classed by how new they are to the training runs."""

from __future__ import annotations

from datetime import UTC, datetime

from phonebuddy.eval.novelty import NEW_SITUATION, Novelty, Situations
from phonebuddy.eval.scoring import Scored, score_policy
from phonebuddy.protocol import Category, Episode, EpisodeStatus, Instruction, TaskSpec, Verdict
from phonebuddy.protocol.episodes import PolicyRef

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def task(template: str, seed: int, **params: object) -> TaskSpec:
    words = " ".join(f"{k}={v}" for k, v in sorted(params.items()))
    return TaskSpec(
        template_id=template, seed=seed, params=params,  # type: ignore[arg-type]
        instruction=Instruction(zh=f"做 {words}", en=f"do {words}"),
        category=Category.SINGLE_APP, apps=("com.pw.notes",),
    )  # fmt: skip


TRAINING = [
    task("notes.pin", 0, title="菜谱"),
    task("notes.pin", 1, title="日记"),
    task("contacts.call", 0, name="张三", kind="mobile"),
    task("contacts.call", 1, name="李四", kind="work"),
]


def test_each_class() -> None:
    seen = Situations(TRAINING)
    assert len(seen) == 4
    # another seed, the same instruction and parameters: a repeat of a training situation
    assert seen.classify(task("notes.pin", 1_000_000, title="菜谱")) is Novelty.REPEAT
    assert seen.classify(task("contacts.call", 1_000_001, name="张三", kind="work")) is (
        Novelty.NEW_SEEN_VALUES
    )
    assert seen.classify(task("notes.pin", 1_000_002, title="购物")) is Novelty.NEW_VALUES
    assert seen.classify(task("clock.alarm", 1_000_000, hour=7)) is Novelty.NEW_TEMPLATE
    assert seen.labels(task("notes.pin", 5, title="购物")) == ("new_values", NEW_SITUATION)
    assert seen.labels(task("notes.pin", 5, title="菜谱")) == ("repeat",)


def make_episode(spec: TaskSpec, success: bool) -> Episode:
    return Episode(
        episode_id=f"e{spec.seed}", run_id="run", device_id="pw-1", task=spec, steps=(),
        status=EpisodeStatus.TERMINATED, started_at=NOW, finished_at=NOW,
        verdict=Verdict(success=success, reward=float(success), grader="verifier"),
        policy=PolicyRef(model="m", version="v1"),
    )  # fmt: skip


def test_the_score_splits_success_by_novelty() -> None:
    seen = Situations(TRAINING)
    results = [
        Scored("sft", "templates", make_episode(task("notes.pin", 1_000_000, title="菜谱"), True)),
        Scored("sft", "templates", make_episode(task("notes.pin", 1_000_001, title="购物"), True)),
        Scored("sft", "templates", make_episode(task("notes.pin", 1_000_002, title="书单"), False)),
        Scored("sft", "templates", make_episode(task("clock.alarm", 1_000_000, hour=7), False)),
    ]
    score = score_policy("sft", "ckpt", results, viewer_url="http://v", failures_listed=5,
                         situations=seen)  # fmt: skip
    counts = {key: (rate.successes, rate.episodes) for key, rate in score.by_novelty.items()}
    assert counts == {
        "repeat": (1, 1), "new_values": (1, 2), NEW_SITUATION: (1, 2), "new_template": (0, 1),
    }  # fmt: skip
    assert score_policy("sft", "ckpt", results, viewer_url="v", failures_listed=0).by_novelty == {}


def test_the_html_report_has_a_novelty_table_only_when_split() -> None:
    from phonebuddy.eval.report import _novelty_section

    seen = Situations(TRAINING)
    results = [Scored("sft", "t", make_episode(task("notes.pin", 1_000_001, title="购物"), True))]
    split = score_policy("sft", "c", results, viewer_url="v", failures_listed=0, situations=seen)
    html = _novelty_section([split])
    assert "<h2>By novelty</h2>" in html
    assert "new situation" in html
    assert "new values" in html
    unsplit = score_policy("sft", "c", results, viewer_url="v", failures_listed=0)
    assert _novelty_section([unsplit]) == ""
