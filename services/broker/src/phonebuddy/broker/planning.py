"""A rollout request -> groups and episode work items.

Each group is one task on one source with G episodes (G + redundancy for real phones, of which
the first G to finish count). Sources are given to groups in the ratio of the mix, spread evenly
over the task list (largest remainder), so a 50/50 mix of 8 tasks gives 4 sim and 4 real groups.

The plan is a pure function of the request, its tasks and its store, so every broker process
rebuilds the same items from the stored request and task list. A run has at most `concurrency`
items queued or running at once: the first `concurrency` are queued on submission, and each
item, once done, queues the item `concurrency` places after it (`successor`). Each run's items
are queued on the run's own queue, and the brokers serve runs in turn (`queues`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from phonebuddy.protocol import EpisodeWork, RolloutRequest, Source, TaskSpec
from phonebuddy.trajectories import GroupRecord, RunManifest


def assign_sources(count: int, shares: dict[Source, float]) -> list[Source]:
    """`count` sources in the ratio of `shares`, interleaved (sim, real, sim, real ...)."""
    assigned: list[Source] = []
    given = dict.fromkeys(shares, 0)
    for index in range(count):
        # The source furthest behind its share so far takes the next group.
        source = max(shares, key=lambda s: (shares[s] * (index + 1) - given[s], shares[s]))
        given[source] += 1
        assigned.append(source)
    return assigned


def group_id(index: int) -> str:
    return f"g{index:05d}"


def episode_id(group: str, sample: int) -> str:
    return f"{group}.{sample}"


def group_of(episode: str) -> str:
    return episode.rsplit(".", 1)[0]


def plan(
    request: RolloutRequest, tasks: Sequence[TaskSpec], store_url: str
) -> tuple[RunManifest, list[EpisodeWork]]:
    sources = assign_sources(len(tasks), request.mix.shares())
    groups: list[GroupRecord] = []
    work: list[EpisodeWork] = []
    for index, (task, source) in enumerate(zip(tasks, sources, strict=True)):
        spec = task.model_copy(update={"source": source, "step_budget": request.step_budget})
        gid = group_id(index)
        groups.append(
            GroupRecord(
                group_id=gid, task_id=spec.task_id, template_id=spec.template_id,
                category=spec.category, apps=spec.apps, source=source, size=request.group_size,
            )
        )  # fmt: skip
        extra = request.redundancy if source == Source.REAL else 0
        for sample in range(request.group_size + extra):
            work.append(
                EpisodeWork(
                    run_id=request.run_id, index=len(work), group_id=gid,
                    episode_id=episode_id(gid, sample),
                    sample_index=sample, group_size=request.group_size, task=spec,
                    policy=request.policy, sampling=request.sampling,
                    step_budget=request.step_budget, prompt=request.prompt,
                    max_env_retries=request.max_env_retries,
                    min_policy_step=request.min_policy_step, store_url=store_url,
                )
            )  # fmt: skip
    manifest = RunManifest(
        run_id=request.run_id,
        policy=request.policy.model_dump(),
        settings={
            "group_size": request.group_size,
            "mix": request.mix.model_dump(),
            "step_budget": request.step_budget,
            "redundancy": request.redundancy,
            "sampling": request.sampling.model_dump(),
            # What export needs to rebuild each step's prompt exactly as the rollout sent it.
            "prompt_config": request.prompt.model_dump(mode="json"),
            "min_policy_step": request.min_policy_step,
            "store_url": store_url,
            "concurrency": request.concurrency,
            "episodes": len(work),
        },
        groups=groups,
    )
    return manifest, work


def window(request: RolloutRequest, work: Sequence[EpisodeWork]) -> Sequence[EpisodeWork]:
    """The items queued when the run is submitted."""
    return work[: request.concurrency]


def successor(
    item: EpisodeWork, work: Sequence[EpisodeWork], concurrency: int, pending: Callable[[str], bool]
) -> EpisodeWork | None:
    """The item that `item` queues when it is done: the next one of its chain (every
    `concurrency`-th item) whose group is still `pending`, if any."""
    index = item.index + concurrency
    while index < len(work):
        if pending(work[index].group_id):
            return work[index]
        index += concurrency
    return None
