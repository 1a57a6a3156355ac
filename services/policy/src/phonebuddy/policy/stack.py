"""How `phonebuddy up` runs the policy server: the tiny random Qwen3.5-VL on CPU (built on first
use into the cache, no download), so rollouts have a model to call on a laptop. The stack makes
an API key and an admin (reload) token for it and tells other services where it is.
"""

STACK_SERVICE = {
    "name": "policy",
    "nats_user": None,  # the model server itself does not use NATS
    "args": ["policy", "serve", "--tiny"],
    "description": "policy server: OpenAI-compatible API, tiny Qwen3.5-VL on CPU (transformers)",
    "secrets": ["PHONEBUDDY_POLICY_API_KEY", "PHONEBUDDY_POLICY_ADMIN_TOKEN"],
    "exports": {"PHONEBUDDY_POLICY_URL": "{url}/v1"},
}

TEACHER_SERVICE = {
    "name": "teacher",
    "nats_user": "policy",  # asks PhoneWorld's oracle
    "args": [
        "policy",
        "serve",
        "--backend",
        "teacher",
        "--served-model-name",
        "phoneworld-teacher",
    ],
    "after": ["phoneworld"],
    "description": "teacher policy: PhoneWorld's scripted solutions behind the same API",
    "secrets": ["PHONEBUDDY_POLICY_API_KEY"],
    "exports": {"PHONEBUDDY_TEACHER_URL": "{url}/v1"},
}
