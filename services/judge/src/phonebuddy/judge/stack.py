"""How `phonebuddy up` runs the judge in the local stack (entry point `phonebuddy.stack`).

The stack starts `phonebuddy judge serve --host H --port P` with NATS and the store in the
environment; it judges runs in that store or in stores in your home directory (`phonebuddy
rollout --out DIR`). It starts after the policy server, which sets PHONEBUDDY_JUDGE_{RUBRIC,GRADER}_
{BASE_URL,MODEL,API_KEY} to itself unless the user set them: no judge model runs on a laptop, so
the tiny policy's unusable answers make real-source episodes `judge_error` until those variables
name a real model. That is expected.
"""

STACK_SERVICE = {
    "name": "judge",
    "nats_user": "judge",
    "args": ["judge", "serve", "--store-root", "local:~"],
    "after": ["policy"],
    "description": "rubric judge: grades real-device episodes (NATS request/reply)",
}
