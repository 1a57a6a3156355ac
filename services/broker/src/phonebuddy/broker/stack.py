"""How `phonebuddy up` runs the broker: after the env endpoints, the policy servers and the judge,
writing runs to the stack's object store, or to a request's store in your home directory
(`phonebuddy rollout --out DIR`). It calls the stack's policy and teacher with their API key
(PHONEBUDDY_POLICY_URL, PHONEBUDDY_TEACHER_URL) and any other URL without one."""

STACK_SERVICE = {
    "name": "broker",
    "nats_user": "broker",
    "args": ["broker", "serve", "--store-root", "local:~"],
    "after": ["phoneworld", "device-gateway", "policy", "teacher", "judge"],
    "description": "rollout broker: groups of episodes over NATS JetStream, stored exactly once",
}
