"""Domain errors, each with its HTTP status; `app.py` maps them to OpenAI's error body
(`{"error": {"message", "type", "param", "code"}}`) in one place."""

from __future__ import annotations

from collections.abc import Mapping


class PolicyError(Exception):
    status = 500
    type = "server_error"
    code: str | None = None

    def __init__(self, message: str, *, param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.param = param

    def body(self) -> dict[str, dict[str, str | None]]:
        return {
            "error": {
                "message": self.message,
                "type": self.type,
                "param": self.param,
                "code": self.code,
            }
        }


class BadRequestError(PolicyError):
    status = 400
    type = "invalid_request_error"


class ImageError(BadRequestError):
    code = "invalid_image"


class PromptTooLongError(BadRequestError):
    code = "context_length_exceeded"

    def __init__(self, prompt_tokens: int, max_tokens: int, max_model_len: int) -> None:
        super().__init__(
            f"this model's maximum context length is {max_model_len} tokens; the request has "
            f"{prompt_tokens} prompt tokens and asks for {max_tokens} completion tokens",
            param="messages",
        )
        self.prompt_tokens = prompt_tokens


class PromptTextTooLongError(BadRequestError):
    """A prompt refused by its length in characters, before it is tokenized: more characters
    than `max_model_len` tokens of this tokenizer can hold."""

    code = "context_length_exceeded"

    def __init__(self, chars: int, max_chars: int, max_model_len: int) -> None:
        super().__init__(
            f"this model's maximum context length is {max_model_len} tokens, at most "
            f"{max_chars} characters of text; the request has {chars} characters",
            param="messages",
        )
        self.chars = chars


class UnauthorizedError(PolicyError):
    status = 401
    type = "authentication_error"
    code = "invalid_api_key"


class ForbiddenError(PolicyError):
    status = 403
    type = "permission_error"


class ModelNotFoundError(PolicyError):
    status = 404
    type = "not_found_error"
    code = "model_not_found"

    def __init__(self, requested: str, served: str) -> None:
        super().__init__(
            f"the model {requested!r} does not exist here; this server serves {served!r}",
            param="model",
        )


class OverloadedError(PolicyError):
    status = 503
    type = "overloaded_error"
    code = "queue_full"


class NotReadyError(PolicyError):
    status = 503
    type = "service_unavailable"
    code = "model_not_loaded"


class GenerationTimeoutError(PolicyError):
    status = 504
    type = "timeout_error"
    code = "timeout"


class CheckpointError(BadRequestError):
    """A checkpoint that cannot be found or loaded (reload keeps the old model)."""

    code = "invalid_checkpoint"


# OpenAI's error type for each status its own classes above answer with.
_STATUS_TYPES = {
    UnauthorizedError.status: UnauthorizedError.type,
    ForbiddenError.status: ForbiddenError.type,
    ModelNotFoundError.status: ModelNotFoundError.type,
}


class HTTPStatusError(PolicyError):
    """An error the HTTP layer answers before a handler runs (an unknown path, a method the path
    does not take, a body that is not JSON), with the status it chose."""

    def __init__(
        self, status: int, message: str, *, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.type = _STATUS_TYPES.get(
            status, "invalid_request_error" if status < 500 else "server_error"
        )
        self.headers = dict(headers) if headers else None  # Allow, on a 405
