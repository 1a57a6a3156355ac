"""The ground-truth grader's OpenAI-compatible routes, `/ground-truth/v1` on the PhoneWorld
service (with PHONEBUDDY_WORLD_GROUND_TRUTH_JUDGE=true): `POST /chat/completions` and
`GET /models`. A request it cannot answer gets a 400 in OpenAI's error shape."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from phonebuddy.phoneworld.ground_truth import MODEL, GradingRequestError, answer
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import ScreenSize

PREFIX = "/ground-truth/v1"


def _error(status: int, message: str) -> JSONResponse:
    body = {"error": {"message": message, "type": "invalid_request_error", "code": None}}
    return JSONResponse(body, status_code=status)


def ground_truth_router(world: World, screen: ScreenSize) -> APIRouter:
    router = APIRouter(prefix=PREFIX)

    @router.get("/models")
    async def models() -> dict[str, Any]:
        model = {"id": MODEL, "object": "model", "owned_by": "phonebuddy"}
        return {"object": "list", "data": [model]}

    @router.post("/chat/completions", response_model=None)
    async def chat_completions(request: Request) -> JSONResponse | dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "the body is not JSON")
        if not isinstance(body, dict):
            return _error(400, "the body must be a JSON object")
        try:
            value = await asyncio.to_thread(answer, world, screen, body)
        except GradingRequestError as exc:
            return _error(400, str(exc))
        return {
            "id": f"chatcmpl-{secrets.token_hex(8)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": MODEL,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": json.dumps(value)},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }

    return router
