"""How `phonebuddy up` runs the judge in the local stack (entry point `phonebuddy.stack`).

The stack starts `phonebuddy judge serve --host H --port P` with NATS and the store in the
environment; it judges runs in that store or in stores in your home directory (`phonebuddy
rollout --out DIR`). No judge model runs on a laptop: it starts after PhoneWorld, which points
PHONEBUDDY_JUDGE_{RUBRIC,GRADER}_{BASE_URL,MODEL} at its ground-truth grader (a labelled stand-in
that replays each episode on a fresh PhoneWorld phone and answers from the task's verifier; the
local stack's `real` phones are PhoneWorld phones) unless the user named a real model.
"""

STACK_SERVICE = {
    "name": "judge",
    "nats_user": "judge",
    "args": ["judge", "serve", "--store-root", "local:~"],
    "after": ["phoneworld", "policy"],
    "description": "rubric judge: grades real-device episodes (NATS request/reply)",
}
