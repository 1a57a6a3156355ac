"""PhoneBuddy's policy server: one OpenAI-compatible chat-completions API (images, tools, `n`
samples, logprobs) for every backend — transformers (CPU or GPU, batched), vLLM's own server on
GPU — with `/livez`, `/readyz`, `/metrics` and atomic weight reload for RL."""
