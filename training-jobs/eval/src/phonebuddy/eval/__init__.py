"""PhoneBuddy's evaluation job (`phonebuddy eval`): held-out success with intervals, paired
comparisons between checkpoints, and an HTML + JSON report."""
