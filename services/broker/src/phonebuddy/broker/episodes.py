"""Running one episode: lease a device, reset it to the task, then observe -> policy -> act with
the shared harness until the policy answers or terminates or the step budget runs out; reward it
(PhoneWorld's verifier for sim, the rubric judge for real).

An environment failure (device lost, endpoint gone, timeout) or a policy outage ends the attempt;
the caller retries on a fresh device. Invalid answers are steps like any other: recorded with
their reason and counted, never the end of an episode. Every step keeps the tokens the policy
sampled (`Step.sample`, when the server returns them: model servers do, the teacher does not).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from datetime import UTC, datetime

from phonebuddy.agent import (
    ParsedAction,
    PolicyCallError,
    PolicyClient,
    PolicyReply,
    Prompt,
    Sampling,
    build_prompt,
)
from phonebuddy.broker.env import EnvFailureError, EnvSession
from phonebuddy.broker.metrics import BrokerMetrics
from phonebuddy.bus import Bus, BusError, RemoteError
from phonebuddy.protocol import (
    Answer,
    Episode,
    EpisodeStatus,
    EpisodeWork,
    Frame,
    InvalidActionError,
    Observation,
    PolicyRef,
    PolicyTarget,
    Source,
    Step,
    StepTimings,
    Terminate,
    Verdict,
)
from phonebuddy.protocol.elements import resolve_element
from phonebuddy.protocol.env import ImageFormat
from phonebuddy.protocol.judging import JudgeReply, JudgeRequest, for_judging
from phonebuddy.protocol.subjects import JUDGE_SUBJECT
from phonebuddy.trajectories import TrajectoryStore

log = logging.getLogger(__name__)
_STEP_NUMBER = re.compile(r"(\d+)$")


class PolicyFailureError(Exception):
    """The policy could not be reached or kept failing: the attempt cannot go on."""


class StalePolicyError(Exception):
    """An answer came from a policy older than the request allows."""


def policy_step(version: str | None) -> int | None:
    """The training step a model version names (`rl-step-12`, `ckpt@40` -> 12, 40), if any."""
    if not version:
        return None
    match = _STEP_NUMBER.search(version)
    return int(match.group(1)) if match else None


class EpisodeRunner:
    def __init__(
        self,
        *,
        bus: Bus,
        policy: PolicyClient,
        store: TrajectoryStore,
        metrics: BrokerMetrics,
        image_format: ImageFormat,
        policy_retries: int,
        judge_timeout_s: float,
    ) -> None:
        self.bus = bus
        self.policy = policy
        self.store = store
        self.metrics = metrics
        self.image_format = image_format
        self.policy_retries = policy_retries
        self.judge_timeout_s = judge_timeout_s

    async def _ask(
        self, work: EpisodeWork, prompt: Prompt, frames: dict[str, bytes], sampling: Sampling,
        step: int,
    ) -> PolicyReply:  # fmt: skip
        delay = 0.5
        for attempt in range(self.policy_retries + 1):
            try:
                return await self.policy.act(prompt, frames, sampling, task=work.task, step=step)
            except PolicyCallError as exc:
                if not exc.retryable or attempt == self.policy_retries:
                    raise PolicyFailureError(f"policy call failed: {exc}") from exc
                self.metrics.retries.labels(reason="policy_call").inc()
                log.warning("%s: policy call failed (%s); retrying", work.episode_id, exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
        raise PolicyFailureError("unreachable")  # pragma: no cover

    async def _frame(self, frame: Frame | None, observation: Observation) -> None:
        if frame is None:
            raise EnvFailureError(f"the device sent no screenshot for {observation.frame.sha256}")
        await self.store.put_frame(frame)

    async def run(
        self, work: EpisodeWork, env: EnvSession, attempt: int, policy: PolicyTarget
    ) -> Episode:
        """One attempt on a leased device; `policy` is the endpoint as the broker called it."""
        task = work.task
        source = task.source
        started_at = datetime.now(UTC)
        began = time.perf_counter()
        reply = await env.reset(task, self.image_format)
        self.metrics.step_latency.labels(component="env").observe(time.perf_counter() - began)
        observation, frame = reply.observation, reply.frame
        await self._frame(frame, observation)
        frames = {observation.frame.sha256: frame.data if frame else b""}
        config = work.prompt
        history: list[Step] = []
        versions: set[str] = set()
        status = EpisodeStatus.BUDGET_EXHAUSTED
        answer: str | None = None
        sampling = Sampling(
            temperature=work.sampling.temperature,
            top_p=work.sampling.top_p,
            max_tokens=work.sampling.max_tokens,
            seed=None if work.sampling.seed is None else work.sampling.seed + work.sample_index,
        )
        for index in range(work.step_budget):
            prompt = build_prompt(task, history, observation, config=config)
            needed = {ref.sha256 for ref in prompt.frames}
            frames = {sha: data for sha, data in frames.items() if sha in needed}
            began = time.perf_counter()
            reply_ = await self._ask(work, prompt, frames, sampling, index)
            policy_s = time.perf_counter() - began
            self.metrics.step_latency.labels(component="policy").observe(policy_s)
            version = reply_.model_version
            if version:
                versions.add(version)
            self._check_staleness(work, version)
            answer_ = reply_.answers[0]
            self.metrics.env_steps.labels(source=source.value).inc()
            if not isinstance(answer_.parsed, ParsedAction):
                self.metrics.invalid_actions.labels(source=source.value).inc()
                history.append(
                    Step(
                        index=index, observation=observation, raw_output=answer_.raw,
                        invalid_reason=answer_.parsed.reason,
                        timings=StepTimings(policy_s=policy_s), policy_version=version,
                        sample=answer_.tokens,
                    )
                )  # fmt: skip
                await env.keep_alive()
                continue
            action = answer_.parsed.action
            try:  # an element the screen does not list is the policy's mistake: a step, recorded
                resolve_element(action, observation.ui_tree, observation.screen)
            except InvalidActionError as exc:
                self.metrics.invalid_actions.labels(source=source.value).inc()
                history.append(
                    Step(
                        index=index, observation=observation, raw_output=answer_.raw,
                        invalid_reason=exc.reason, timings=StepTimings(policy_s=policy_s),
                        policy_version=version, sample=answer_.tokens,
                    )
                )  # fmt: skip
                await env.keep_alive()
                continue
            began = time.perf_counter()
            acted = await env.act(action, self.image_format)
            action = acted.action or action  # as done: an element with its resolved point
            env_s = time.perf_counter() - began
            self.metrics.step_latency.labels(component="env").observe(env_s)
            history.append(
                Step(
                    index=index, observation=observation, raw_output=answer_.raw, action=action,
                    timings=StepTimings(policy_s=policy_s, env_s=env_s), policy_version=version,
                    sample=answer_.tokens,
                )
            )  # fmt: skip
            if isinstance(action, Answer):
                answer, status = action.text, EpisodeStatus.ANSWERED
                break
            if isinstance(action, Terminate):
                status = EpisodeStatus.TERMINATED
                break
            if acted.observation is None:
                raise EnvFailureError(f"act on {env.device_id} returned no observation")
            observation, frame = acted.observation, acted.frame
            await self._frame(frame, observation)
            if frame is not None:
                frames[observation.frame.sha256] = frame.data
        verdict: Verdict | None = None
        if source == Source.SIM:
            began = time.perf_counter()
            verdict = await env.verify(answer)
            self.metrics.step_latency.labels(component="env").observe(time.perf_counter() - began)
        return Episode(
            episode_id=work.episode_id,
            run_id=work.run_id,
            group_id=work.group_id,
            sample_index=work.sample_index,
            task=task,
            policy=PolicyRef(
                model=policy.model,
                version=",".join(sorted(versions)) or "unknown",
                endpoint=policy.base_url,
            ),
            device_id=env.device_id,
            steps=tuple(history),
            final_observation=observation,
            status=status,
            answer=answer,
            verdict=verdict,
            attempts=attempt,
            started_at=started_at,
            finished_at=datetime.now(UTC),
        )

    def _check_staleness(self, work: EpisodeWork, version: str | None) -> None:
        if work.min_policy_step is None:
            return
        step = policy_step(version)
        if step is not None and step < work.min_policy_step:
            raise StalePolicyError(
                f"policy version {version!r} (step {step}) is older than the bound "
                f"{work.min_policy_step}"
            )

    async def judge(self, episode: Episode, store_url: str) -> Episode:
        """A real episode's verdict from the rubric judge, which reads its screenshots from
        the run's store (`store_url`) and stores its record there; any failure is a
        `judge_error`."""
        began = time.perf_counter()
        request = JudgeRequest(episode=for_judging(episode), store_url=store_url)
        try:
            reply = await self.bus.request(
                JUDGE_SUBJECT, request, JudgeReply, timeout_s=self.judge_timeout_s
            )
            verdict = reply.verdict
        except (BusError, RemoteError) as exc:
            verdict = Verdict(
                success=False, reward=0.0, grader="judge", judge_error=True,
                reason=f"the judge did not grade the episode: {exc}",
            )  # fmt: skip
        judge_s = time.perf_counter() - began
        self.metrics.step_latency.labels(component="judge").observe(judge_s)
        return episode.model_copy(update={"verdict": verdict, "judge_s": judge_s})
