"""phonebuddy.protocol."""
