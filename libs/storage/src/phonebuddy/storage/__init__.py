"""phonebuddy.storage."""
