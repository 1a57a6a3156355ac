"""PhoneBuddy's rollout broker: takes rollout requests, schedules groups (one task on one source
each), runs episodes observe -> policy -> act against PhoneWorld and real phones, rewards them
(verifier or rubric judge) and stores every trajectory exactly once before acknowledging."""
