"""phonebuddy.rl: the GRPO job (`phonebuddy train rl`)."""
