"""The simulated OS: shell composition, launcher, keyboard and system overlays."""
