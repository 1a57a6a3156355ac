"""`phonebuddy demo`: the main job on embedded defaults (see `phonebuddy.demo.cli`)."""
