from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from phonebuddy.protocol import (
    Bounds,
    Category,
    Click,
    Episode,
    EpisodeStatus,
    EpisodeWork,
    ErrorCode,
    ErrorReply,
    Frame,
    Instruction,
    JudgeReply,
    JudgeRequest,
    Observation,
    OracleReply,
    OracleRequest,
    PolicyRef,
    PolicyTarget,
    PromptConfig,
    RolloutAccepted,
    RolloutRequest,
    RunEvent,
    RunProgress,
    RunStatusQuery,
    SamplingSpec,
    ScreenSize,
    Source,
    SourceMix,
    Step,
    TaskList,
    TaskQuery,
    TaskSelection,
    TaskSpec,
    Terminate,
    UINode,
    Verdict,
    env,
    subjects,
)
from phonebuddy.protocol.schema import PUBLIC_MESSAGES, all_json_schemas, json_schema

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
FRAME = Frame.from_bytes(b"\xff\xd8 not really a jpeg", "image/jpeg")
TREE = UINode(
    class_name="android.widget.FrameLayout",
    bounds=Bounds(left=0, top=0, right=1080, bottom=2400),
    children=(
        UINode(
            class_name="android.widget.Button",
            resource_id="com.pw.shop:id/add_to_cart",
            text="加入购物车",
            bounds=Bounds(left=100, top=2200, right=500, bottom=2350),
            clickable=True,
        ),
    ),
)
OBSERVATION = Observation(
    frame=FRAME.ref,
    screen=ScreenSize(width=1080, height=2400),
    foreground_app="com.pw.shop",
    ui_tree=TREE,
)
TASK = TaskSpec(
    template_id="shop.add_to_cart",
    seed=7,
    params={"product": "耳机", "quantity": 2},
    instruction=Instruction(zh="把两副耳机加入购物车", en="Add two headphones to the cart"),
    category=Category.SINGLE_APP,
    apps=("com.pw.shop",),
)
EPISODE = Episode(
    episode_id="ep-1",
    run_id="run-1",
    task=TASK,
    policy=PolicyRef(model="tiny", version="v1"),
    device_id="pw-0",
    steps=(
        Step(index=0, observation=OBSERVATION, raw_output="...", action=Click(coordinate=(1, 2))),
        Step(index=1, observation=OBSERVATION, raw_output="garbage", invalid_reason="no call"),
        Step(index=2, observation=OBSERVATION, raw_output="x", action=Terminate(status="success")),
    ),
    status=EpisodeStatus.TERMINATED,
    verdict=Verdict(success=True, reward=1.0, grader="verifier"),
    started_at=NOW,
    finished_at=NOW,
)
LEASE_ID = "lease-0123456789"
ROLLOUT = RolloutRequest(
    run_id="run-1",
    tasks=TaskSelection(suite="smoke", seeds=(0, 1)),
    policy=PolicyTarget(base_url="http://policy:8093/v1"),
    group_size=4,
    mix=SourceMix.parse("sim=0.5,real=0.5"),
    redundancy=1,
    min_policy_step=3,
)

EXAMPLES: dict[str, Any] = {
    "Observation": OBSERVATION,
    "Frame": FRAME,
    "TaskSpec": TASK,
    "Step": EPISODE.steps[0],
    "Verdict": EPISODE.verdict,
    "Episode": EPISODE,
    "ErrorReply": ErrorReply(code=ErrorCode.DEVICE_LOST, message="pw-3 went away", retryable=True),
    "LeaseRequest": env.LeaseRequest(client_id="broker-1"),
    "Lease": env.Lease(
        lease_id=LEASE_ID,
        device_id="pw-0",
        source=Source.SIM,
        instance_id="world-a",
        screen=ScreenSize(width=1080, height=2400),
        expires_at=NOW,
    ),
    "RenewRequest": env.RenewRequest(lease_id=LEASE_ID, ttl_s=60),
    "ResetRequest": env.ResetRequest(lease_id=LEASE_ID, task=TASK),
    "ObserveRequest": env.ObserveRequest(lease_id=LEASE_ID),
    "ObserveReply": env.ObserveReply(observation=OBSERVATION, frame=FRAME),
    "ActRequest": env.ActRequest(lease_id=LEASE_ID, action=Click(coordinate=(500, 500))),
    "ActReply": env.ActReply(effect="applied", observation=OBSERVATION, frame=FRAME),
    "VerifyRequest": env.VerifyRequest(lease_id=LEASE_ID, answer="42"),
    "VerifyReply": env.VerifyReply(verdict=Verdict(success=False, reward=0, grader="verifier")),
    "ReleaseRequest": env.ReleaseRequest(lease_id=LEASE_ID),
    "ReleaseReply": env.ReleaseReply(released=True),
    "JudgeRequest": JudgeRequest(episode=EPISODE, store_url="s3://b"),
    "JudgeReply": JudgeReply(verdict=Verdict(success=False, reward=0, grader="judge",
                                             judge_error=True, reason="timed out")),
    "RolloutRequest": ROLLOUT,
    "RolloutAccepted": RolloutAccepted(run_id="run-1", groups=2, episodes=8, store_url="s3://b"),
    "EpisodeWork": EpisodeWork(
        run_id="run-1", index=0, group_id="g00000", episode_id="g00000.0", sample_index=0,
        group_size=4,
        task=TASK, policy=ROLLOUT.policy, sampling=SamplingSpec(seed=3), step_budget=30,
        prompt=PromptConfig(), max_env_retries=2, store_url="s3://b",
    ),
    "RunEvent": RunEvent(run_id="run-1", kind="group_complete", group_id="g00000"),
    "RunStatusQuery": RunStatusQuery(run_id="run-1", store_url="s3://b"),
    "RunProgress": RunProgress(run_id="run-1", store_url="s3://b", groups=2, groups_complete=1,
                               episodes_stored=4),
    "TaskQuery": TaskQuery(suite="smoke", seeds=(0, 1)),
    "TaskList": TaskList(tasks=(TASK,)),
    "OracleRequest": OracleRequest(task=TASK),
    "OracleReply": OracleReply(actions=(Click(coordinate=(1, 2)), Terminate(status="success"))),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(set(PUBLIC_MESSAGES) - {"Action"}))
def test_every_public_message_survives_a_json_round_trip(name: str) -> None:
    example = EXAMPLES[name]
    model = PUBLIC_MESSAGES[name]
    assert isinstance(model, type)
    assert issubclass(model, BaseModel)
    assert model.model_validate_json(example.model_dump_json()) == example


def test_frame_bytes_travel_as_base64_and_are_checked_against_their_hash() -> None:
    data = FRAME.model_dump(mode="json")
    assert isinstance(data["data"], str)
    tampered = dict(data, data="AAAA")
    with pytest.raises(ValidationError, match="bytes"):
        Frame.model_validate(tampered)


def test_a_step_has_an_action_or_an_invalid_reason_but_not_both() -> None:
    with pytest.raises(ValidationError, match="exactly one"):
        Step(index=0, observation=OBSERVATION, raw_output="x")
    with pytest.raises(ValidationError, match="exactly one"):
        Step(
            index=0,
            observation=OBSERVATION,
            raw_output="x",
            action=Click(coordinate=(1, 1)),
            invalid_reason="also bad",
        )


def test_episode_counts_invalid_steps_and_reads_its_reward() -> None:
    assert EPISODE.invalid_steps == 1
    assert EPISODE.reward == 1.0


def test_a_judge_error_can_never_be_a_success() -> None:
    with pytest.raises(ValidationError, match="never be a success"):
        Verdict(success=True, reward=1, grader="judge", judge_error=True)


def test_task_id_is_stable_and_depends_on_seed_and_params() -> None:
    same = TaskSpec.model_validate_json(TASK.model_dump_json())
    assert same.task_id == TASK.task_id
    assert TASK.model_copy(update={"seed": 8}).task_id != TASK.task_id
    assert TASK.task_id.startswith("shop.add_to_cart-7-")


def test_task_instruction_follows_its_language() -> None:
    assert TASK.instruction_text == TASK.instruction.en
    assert TASK.model_copy(update={"language": "zh"}).instruction_text == TASK.instruction.zh


@pytest.mark.parametrize(
    ("model", "data", "fragment"),
    [
        (TaskSpec, {**TASK.model_dump(exclude={"task_id"}), "step_budget": 0}, "step_budget"),
        (TaskSpec, {**TASK.model_dump(exclude={"task_id"}), "apps": []}, "apps"),
        (TaskSpec, {**TASK.model_dump(exclude={"task_id"}), "template_id": "Bad Id"}, "template"),
        (TaskSpec, {**TASK.model_dump(exclude={"task_id"}), "source": "cloud"}, "source"),
        (env.LeaseRequest, {"client_id": "x", "ttl_s": 0}, "ttl_s"),
        (env.ActRequest, {"lease_id": "short", "action": {"action": "wait"}}, "lease_id"),
        (env.ActRequest, {"lease_id": LEASE_ID, "action": {"action": "fly"}}, "action"),
        (Bounds, {"left": 10, "top": 0, "right": 5, "bottom": 1}, "not ordered"),
        (ErrorReply, {"code": "nope", "message": "x"}, "code"),
    ],
)
def test_invalid_messages_are_rejected_naming_the_field(
    model: type[BaseModel], data: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(ValidationError, match=fragment):
        model.model_validate(data)


def test_ui_tree_search_by_resource_id_and_text() -> None:
    [button] = TREE.find(resource_id="com.pw.shop:id/add_to_cart")
    assert button.text == "加入购物车"
    assert button.bounds.center == (300, 2275)
    assert TREE.find(text="加入购物车") == [button]
    assert len(TREE.walk()) == 2


def test_schema_covers_every_public_message_and_is_valid_json_schema() -> None:
    schemas = all_json_schemas()
    assert set(schemas) == set(PUBLIC_MESSAGES)
    action = json_schema("Action")
    assert set(action["discriminator"]["mapping"]) >= {"click", "swipe", "terminate"}
    assert schemas["Episode"]["title"] == "Episode"
    with pytest.raises(KeyError, match="no public message named 'Nope'"):
        json_schema("Nope")
    TypeAdapter(dict).validate_python(schemas)


def test_subjects_are_built_in_one_place_and_reject_bad_tokens() -> None:
    assert subjects.env_lease_subject(Source.SIM) == "pb.env.sim.lease"
    assert (
        subjects.env_verb_subject(Source.REAL, "gw-1", subjects.EnvVerb.ACT)
        == "pb.env.real.gw-1.act"
    )
    for bad in ["a.b", "a*", ">", "", "a b"]:
        with pytest.raises(ValueError, match="not a valid NATS subject token"):
            subjects.env_instance_prefix(Source.SIM, bad)


def test_source_mix_parses_and_normalizes() -> None:
    mix = SourceMix.parse("sim=1, real=3")
    assert mix.shares() == {Source.SIM: 0.25, Source.REAL: 0.75}
    with pytest.raises(ValueError, match="not sim=SHARE"):
        SourceMix.parse("sim=1,phone=2")
    with pytest.raises(ValueError, match="no source a share"):
        SourceMix.parse("sim=0")


def test_task_selection_takes_exactly_one_way() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        TaskSelection(suite="smoke", template_ids=("notes.create",))
    with pytest.raises(ValueError, match="exactly one"):
        TaskSelection()
