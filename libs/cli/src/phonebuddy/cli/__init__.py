"""phonebuddy.cli."""
