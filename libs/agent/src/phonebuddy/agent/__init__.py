"""PhoneBuddy's agent harness, shared by training, rollouts and evaluation so that all of them
format prompts and read answers identically: the `mobile_use` tool schema (generated from the
protocol's actions), the prompt layout, Qwen3.5's chat format, output parsing and SFT examples.
Pure Python, pydantic and httpx; no torch, no transformers."""

from phonebuddy.agent.chat_format import (
    CHAT_TEMPLATE,
    IMAGE_PLACEHOLDER,
    SPECIAL_TOKEN_IDS,
    render_chat,
    render_completion,
)
from phonebuddy.agent.client import (
    PolicyAnswer,
    PolicyCallError,
    PolicyClient,
    PolicyEndpoint,
    PolicyReply,
    Sampling,
    data_uri,
    message_text,
)
from phonebuddy.agent.messages import (
    ChatMessage,
    FunctionCall,
    ImagePart,
    TextPart,
    ToolCall,
    to_openai_messages,
)
from phonebuddy.agent.parsing import InvalidOutput, ParsedAction, ParsedOutput, parse_output
from phonebuddy.agent.prompt import (
    BRIEF_SYSTEM_PROMPT,
    SYSTEM_PROMPT,
    Prompt,
    build_prompt,
    history_text,
    step_text,
    ui_tree_text,
)
from phonebuddy.agent.record import RECORD_FILE, RecordError, read_record, write_record
from phonebuddy.agent.sft import (
    SFTExample,
    UntrainableStepError,
    assistant_message,
    element_form,
    sft_example,
    sft_examples,
)
from phonebuddy.agent.tool import action_text, mobile_use_tool
from phonebuddy.protocol import PromptConfig

__all__ = [
    "BRIEF_SYSTEM_PROMPT",
    "CHAT_TEMPLATE",
    "IMAGE_PLACEHOLDER",
    "RECORD_FILE",
    "SPECIAL_TOKEN_IDS",
    "SYSTEM_PROMPT",
    "ChatMessage",
    "FunctionCall",
    "ImagePart",
    "InvalidOutput",
    "ParsedAction",
    "ParsedOutput",
    "PolicyAnswer",
    "PolicyCallError",
    "PolicyClient",
    "PolicyEndpoint",
    "PolicyReply",
    "Prompt",
    "PromptConfig",
    "RecordError",
    "SFTExample",
    "Sampling",
    "TextPart",
    "ToolCall",
    "UntrainableStepError",
    "action_text",
    "assistant_message",
    "build_prompt",
    "data_uri",
    "element_form",
    "history_text",
    "message_text",
    "mobile_use_tool",
    "parse_output",
    "read_record",
    "render_chat",
    "render_completion",
    "sft_example",
    "sft_examples",
    "step_text",
    "to_openai_messages",
    "ui_tree_text",
    "write_record",
]
