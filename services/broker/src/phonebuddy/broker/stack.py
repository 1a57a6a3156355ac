"""How `phonebuddy up` runs the broker: after the env endpoints, the policy servers and the judge,
writing runs to the stack's object store."""

STACK_SERVICE = {
    "name": "broker",
    "nats_user": "broker",
    "args": ["broker", "serve"],
    "after": ["phoneworld", "device-gateway", "policy", "teacher", "judge"],
    "description": "rollout broker: groups of episodes over NATS JetStream, stored exactly once",
}
