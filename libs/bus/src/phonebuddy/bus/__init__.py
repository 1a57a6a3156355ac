"""phonebuddy.bus."""
