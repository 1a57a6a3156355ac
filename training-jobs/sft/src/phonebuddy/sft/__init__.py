"""PhoneBuddy's SFT job: `phonebuddy train sft` (see `phonebuddy.sft.cli`)."""
