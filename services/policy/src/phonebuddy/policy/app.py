"""The policy server's HTTP app: OpenAI's `/v1/chat/completions` and `/v1/models`, `/admin/reload`,
vLLM-shaped RL routes (pause / resume and weight updates, `phonebuddy.policy.weights`),
`/livez`, `/readyz`, `/metrics`. Domain errors become OpenAI error bodies in one handler."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import shutil
import time
import uuid
from collections.abc import AsyncIterator
from typing import Annotated

import httpx
from fastapi import Depends, FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from phonebuddy.policy.api import (
    MAX_JSON_DEPTH,
    AssistantMessage,
    ChatCompletion,
    ChatCompletionRequest,
    Choice,
    ChoiceLogprobs,
    ModelCard,
    ModelList,
    ReloadRequest,
    ReloadResponse,
    ResponseFunctionCall,
    ResponseToolCall,
    TokenLogprob,
    TopLogprob,
    Usage,
)
from phonebuddy.policy.backend import Backend, Generation, Sample, SamplingParams, TokenInfo
from phonebuddy.policy.checkpoints import (
    checkpoint_version,
    default_cache_dir,
    fetch_checkpoint,
    is_store_url,
)
from phonebuddy.policy.errors import (
    BadRequestError,
    ForbiddenError,
    GenerationTimeoutError,
    HTTPStatusError,
    ModelNotFoundError,
    PolicyError,
    PromptTextTooLongError,
    PromptTooLongError,
    UnauthorizedError,
)
from phonebuddy.policy.images import ImageFit, ImageLimits, ImageLoader
from phonebuddy.policy.memory import MemoryReturn, ReturnMemoryMiddleware
from phonebuddy.policy.metrics import PolicyMetrics
from phonebuddy.policy.remote_images import RemoteImageFetcher, RemotePolicy
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.toolcalls import parse_assistant_text
from phonebuddy.policy.weight_files import WeightSources
from phonebuddy.policy.weights import PauseGate, WeightUpdater, weight_routes
from phonebuddy.storage import ObjectStore, S3Location, StoreSettings, open_store
from phonebuddy.telemetry import health_router

log = logging.getLogger(__name__)
VERSION_HEADER = "X-PhoneBuddy-Model-Version"


def _token_logprob(info: TokenInfo) -> TokenLogprob:
    return TokenLogprob(
        token=info.token,
        logprob=info.logprob,
        bytes=list(info.token.encode()),
        top_logprobs=[
            TopLogprob(token=token, logprob=logprob, bytes=list(token.encode()))
            for token, logprob in info.top
        ],
    )


def _choice(index: int, sample: Sample, *, tools_enabled: bool, token_ids: bool) -> Choice:
    parsed = parse_assistant_text(sample.text, tools_enabled=tools_enabled)
    calls = [
        ResponseToolCall(function=ResponseFunctionCall(name=call.name, arguments=call.arguments))
        for call in parsed.tool_calls
    ]
    finish = "tool_calls" if calls and sample.finish == "stop" else sample.finish
    logprobs = None
    if sample.logprobs is not None:
        logprobs = ChoiceLogprobs(content=[_token_logprob(info) for info in sample.logprobs])
    return Choice(
        index=index,
        message=AssistantMessage(
            content=parsed.content, tool_calls=calls, reasoning_content=parsed.reasoning
        ),
        finish_reason=finish,
        logprobs=logprobs,
        # A backend without a tokenizer (the teacher) has no ids to return.
        token_ids=list(sample.token_ids) if token_ids and sample.token_ids else None,
    )


class PolicyService:
    """What the process holds: settings, the backend, the image loader, metrics."""

    def __init__(self, settings: PolicySettings, backend: Backend) -> None:
        self.settings = settings
        self.backend = backend
        self.metrics = PolicyMetrics(settings.served_model_name)
        self.memory = MemoryReturn()
        self.store: ObjectStore | None = None
        self.http: httpx.AsyncClient | None = None
        self.images: ImageLoader | None = None
        self.gate = PauseGate(
            max_wait_s=settings.pause_max_wait_s,
            on_change=lambda paused: self.metrics.paused.set(int(paused)),
        )
        self.weights = WeightUpdater(
            sources=WeightSources(settings.weight_roots),
            work_dir=default_cache_dir() / "weight-updates" / f"{os.getpid()}-{uuid.uuid4().hex}",
            backend_name=backend.name,
            reload=backend.reload,
            on_served=self.metrics.serving,
        )
        self.started = int(time.time())

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            stack.push_async_callback(self.memory.close)
            s = self.settings
            remote = None
            if s.allow_remote_images:
                # No proxy from the environment: the address checked is the one connected to.
                self.http = await stack.enter_async_context(
                    httpx.AsyncClient(trust_env=False, follow_redirects=False)
                )
                remote = RemoteImageFetcher(
                    RemotePolicy(frozenset(s.image_url_allow_hosts), s.image_url_max_redirects,
                                 s.image_fetch_timeout_s, s.max_image_bytes),
                    self.http,
                )  # fmt: skip
            location = None
            if os.environ.get("PHONEBUDDY_STORE_URL"):  # store: image refs need a store
                store_settings = StoreSettings()
                self.store = await stack.enter_async_context(open_store(store_settings))
                if isinstance(store_settings.location, S3Location):
                    location = store_settings.location
            self.images = ImageLoader(
                ImageLimits(s.max_image_bytes, s.max_image_pixels),
                remote=remote, store=self.store, store_location=location,
                decode_slots=s.max_concurrent_image_decodes, on_decode=self.memory.note,
            )  # fmt: skip
            await self.backend.start()
            stack.push_async_callback(self.backend.close)
            stack.push_async_callback(self.weights.close)
            if self.backend.uses_checkpoints:
                await self.load(s.model, s.model_version)
            else:
                self.metrics.serving(self.backend.version)
            yield

    async def load(self, source: str, version: str | None) -> tuple[str, float]:
        """Fetch and load a checkpoint, then serve it; the old one serves until then."""
        started = time.perf_counter()
        folder, downloaded = await fetch_checkpoint(source, default_cache_dir() / "checkpoints")
        try:
            name = source.rstrip("/").rsplit("/", 1)[-1] if is_store_url(source) else None
            version = version or await asyncio.to_thread(checkpoint_version, folder, name=name)
            await self.weights.serve_checkpoint(folder, version)
        finally:
            if downloaded:
                await asyncio.to_thread(shutil.rmtree, folder, ignore_errors=True)
        return version, time.perf_counter() - started

    # ---- chat completions ----

    def sampling(self, request: ChatCompletionRequest, prompt_tokens: int) -> SamplingParams:
        limit = self.backend.max_model_len
        room = limit - prompt_tokens
        asked = request.requested_max_tokens()
        max_tokens = asked if asked is not None else min(self.settings.max_tokens_default, room)
        if max_tokens < 1 or prompt_tokens + max_tokens > limit:
            raise PromptTooLongError(prompt_tokens, max(asked or 1, 1), limit)
        return SamplingParams(
            temperature=request.temperature,
            top_p=request.top_p,
            top_k=request.top_k if request.top_k and request.top_k > 0 else None,
            max_tokens=max_tokens,
            seed=request.seed,
            logprobs=request.logprobs,
            top_logprobs=request.top_logprobs or 0,
            stop=tuple(request.stop_strings),
        )

    async def complete(self, request: ChatCompletionRequest) -> ChatCompletion:
        s = self.settings
        if request.model != s.served_model_name:
            raise ModelNotFoundError(request.model, s.served_model_name)
        if request.n > s.max_n:
            raise BadRequestError(
                f"n={request.n} is above this server's limit {s.max_n}", param="n"
            )
        # Refuse by size before anything costs: images, the template, the tokenizer (a backend
        # without a tokenizer has no `max_prompt_chars`).
        max_chars: int | None = getattr(self.backend, "max_prompt_chars", None)
        if max_chars is not None and (chars := request.text_chars()) > max_chars:
            raise PromptTextTooLongError(chars, max_chars, self.backend.max_model_len)
        labelled = [
            (url, f"image {number} (message {index + 1})")
            for index, message in enumerate(request.messages)
            for number, url in enumerate(message.image_urls(), 1)
        ]
        if len(labelled) > s.max_images_per_request:
            raise BadRequestError(
                f"{len(labelled)} images; this server takes at most {s.max_images_per_request}",
                param="messages",
            )
        loader = self.images
        if loader is None:
            raise RuntimeError("the service is not running")
        # Images arrive already resized to what the model's processor makes of them.
        fit: ImageFit | None = getattr(self.backend, "image_fit", None)
        images = await asyncio.gather(
            *(loader.load(url, label=label, fit=fit) for url, label in labelled)
        )
        prompt = await self.backend.encode(request, list(images))
        del images
        params = self.sampling(request, prompt.prompt_tokens)
        self.metrics.prompt_length.observe(prompt.prompt_tokens)
        try:
            generation: Generation = await asyncio.wait_for(
                self.backend.generate(prompt, params, request.n), s.request_timeout_s
            )
        except TimeoutError as exc:
            raise GenerationTimeoutError(
                f"no answer within {s.request_timeout_s} s (queue depth "
                f"{self.backend.queue_depth}); try again, or raise "
                "PHONEBUDDY_POLICY_REQUEST_TIMEOUT_S"
            ) from exc
        completion_tokens = sum(len(sample.token_ids) for sample in generation.samples)
        token_ids = bool(request.return_token_ids)
        self.metrics.prompt_tokens.inc(generation.prompt_tokens)
        self.metrics.completion_tokens.inc(completion_tokens)
        vllm = self.metrics.vllm
        vllm.prompt_tokens.inc(generation.prompt_tokens)
        vllm.generation_tokens.inc(completion_tokens)
        for sample in generation.samples:
            vllm.success.labels(vllm.model_name, sample.finish).inc()
        return ChatCompletion(
            model=s.served_model_name,
            choices=[
                _choice(index, sample, tools_enabled=request.tools_enabled, token_ids=token_ids)
                for index, sample in enumerate(generation.samples)
            ],
            usage=Usage(
                prompt_tokens=generation.prompt_tokens,
                completion_tokens=completion_tokens,
                total_tokens=generation.prompt_tokens + completion_tokens,
            ),
            system_fingerprint=generation.model_version,
            model_version=generation.model_version,
            prompt_token_ids=generation.prompt_token_ids if token_ids else None,
        )


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _validation_message(exc: RequestValidationError) -> tuple[str, str | None]:
    problems = []
    param = None
    for error in exc.errors():
        location = [part for part in error.get("loc", ()) if part != "body"]
        if error.get("type") == "json_invalid":  # its location is a character offset
            reason = error.get("ctx", {}).get("error", "JSON decode error")
            at = f": char {location[0]}" if location else ""
            problems.append(f"the body is not valid JSON ({reason}{at})")
            continue
        if param is None and location and isinstance(location[0], str):
            param = location[0]
        where = ".".join(str(part) for part in location) or "body"
        problems.append(f"{where}: {error.get('msg', 'invalid')}")
    return "invalid request: " + "; ".join(problems[:5]), param


def _http_message(request: Request, exc: HTTPException) -> str:
    if isinstance(exc.__cause__, RecursionError):  # FastAPI's json.loads gave up
        return (
            f"the body nests JSON too deeply to parse; this server takes at most "
            f"{MAX_JSON_DEPTH} levels of objects and arrays"
        )
    if exc.status_code in (404, 405):
        return f"{exc.detail} ({request.method} {request.url.path})"
    return str(exc.detail)


def create_app(settings: PolicySettings, backend: Backend) -> FastAPI:
    service = PolicyService(settings, backend)
    observe = getattr(backend, "observe_batches", None)
    if observe is not None:
        observe(service.metrics.batch)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with service.running():
            yield

    app = FastAPI(title="PhoneBuddy policy server", lifespan=lifespan)
    app.state.service = service
    app.add_middleware(ReturnMemoryMiddleware, memory=service.memory)
    app.include_router(
        health_router(metrics=service.metrics.registry, readiness={"model": lambda: backend.loaded})
    )

    # Every error leaves as OpenAI's body: the server's own, FastAPI's validation errors, and
    # Starlette's (unknown path, wrong method, unreadable body), and anything unforeseen (500).
    @app.exception_handler(PolicyError)
    async def policy_error(request: Request, exc: PolicyError) -> JSONResponse:
        headers: dict[str, str] | None = getattr(exc, "headers", None)  # Retry-After, Allow
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        message, param = _validation_message(exc)
        return await policy_error(request, BadRequestError(message, param=param))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        error = HTTPStatusError(exc.status_code, _http_message(request, exc), headers=exc.headers)
        return await policy_error(request, error)

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
        # Starlette logs the exception after this answer.
        return await policy_error(
            request, PolicyError("internal server error; the server log has the details")
        )

    async def client_auth(authorization: Annotated[str | None, Header()] = None) -> None:
        key = settings.api_key
        if key is None:
            return
        token = _bearer(authorization)
        if token is None or not hmac.compare_digest(token, key.get_secret_value()):
            raise UnauthorizedError("missing or wrong API key (Authorization: Bearer <key>)")

    async def admin_auth(authorization: Annotated[str | None, Header()] = None) -> None:
        if settings.admin_token is None:
            raise ForbiddenError(
                "reload and weight updates are off: set PHONEBUDDY_POLICY_ADMIN_TOKEN to turn "
                "them on"
            )
        token = _bearer(authorization)
        if token is None or not hmac.compare_digest(token, settings.admin_token.get_secret_value()):
            raise UnauthorizedError("missing or wrong admin token")

    @app.get("/v1/models", dependencies=[Depends(client_auth)])
    async def models() -> ModelList:
        return ModelList(
            data=[
                ModelCard(
                    id=settings.served_model_name,
                    created=service.started,
                    root=settings.model or backend.name,
                    model_version=backend.version,
                    max_model_len=backend.max_model_len,
                )
            ]
        )

    in_flight: set[int] = set()  # requests admitted and not yet answered

    @app.post("/v1/chat/completions", dependencies=[Depends(client_auth)])
    async def chat_completions(request: ChatCompletionRequest) -> JSONResponse:
        started = time.perf_counter()
        service.metrics.queue_depth.set(backend.queue_depth)
        vllm = service.metrics.vllm
        in_flight.add(id(request))
        vllm.waiting.set(backend.queue_depth)
        vllm.running.set(max(0, len(in_flight) - backend.queue_depth))
        outcome, code = "error", 500
        try:
            async with service.gate.admitted():  # waits while paused for a weight update
                completion = await service.complete(request)
            outcome, code = "ok", 200
        except PolicyError as exc:
            code = exc.status
            raise
        finally:
            service.metrics.requests.labels(code=str(code)).inc()
            service.metrics.request_latency.labels(outcome=outcome).observe(
                time.perf_counter() - started
            )
            service.metrics.queue_depth.set(backend.queue_depth)
            in_flight.discard(id(request))
            if outcome == "ok":
                vllm.e2e_latency.observe(time.perf_counter() - started)
            vllm.waiting.set(backend.queue_depth)
            vllm.running.set(max(0, len(in_flight) - backend.queue_depth))
        return JSONResponse(
            completion.model_dump(mode="json"),
            headers={VERSION_HEADER: completion.model_version},
        )

    @app.post("/admin/reload", dependencies=[Depends(admin_auth)])
    async def reload(body: ReloadRequest) -> ReloadResponse:
        if not backend.uses_checkpoints:
            raise BadRequestError(f"the {backend.name} backend has no weights to reload")
        previous = backend.version
        try:
            version, seconds = await service.load(body.model, body.version)
        except PolicyError:
            service.metrics.reloads.labels(outcome="error").inc()
            raise
        except Exception as exc:
            service.metrics.reloads.labels(outcome="error").inc()
            log.exception("reload of %s failed; still serving %s", body.model, previous)
            raise BadRequestError(
                f"could not load {body.model}: {exc}; still serving {previous}", param="model"
            ) from exc
        service.metrics.reloads.labels(outcome="ok").inc()
        return ReloadResponse(
            model_version=version, previous_version=previous, load_seconds=seconds
        )

    app.include_router(
        weight_routes(
            service.weights, service.gate, service.metrics, dependencies=[Depends(admin_auth)]
        )
    )
    return app


def backend_for(settings: PolicySettings) -> Backend:
    if settings.backend == "transformers":
        from phonebuddy.policy.transformers_backend import TransformersBackend

        return TransformersBackend(settings)
    if settings.backend == "teacher":
        from phonebuddy.policy.teacher_backend import TeacherBackend

        return TeacherBackend(settings)
    if settings.backend == "replay":
        from phonebuddy.policy.replay_backend import ReplayBackend

        return ReplayBackend(settings)
    raise BadRequestError(f"backend {settings.backend!r} runs its own server (see `policy serve`)")
