"""The one-minute demo as a newcomer runs it: `phonebuddy demo --quick` on embedded defaults."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PHONEBUDDY = str(Path(sys.executable).parent / "phonebuddy")


def test_demo_rolls_out_the_teacher_and_the_tiny_model_and_leaves_nothing_running(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    command = [PHONEBUDDY, "demo", "--quick", "--no-wait", "--group-size", "1",
               "--state-dir", str(tmp_path / "s")]  # fmt: skip
    result = subprocess.run(
        command,
        env={**os.environ, "PHONEBUDDY_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert "rollout of the teacher policy" in out
    assert "rollout of the tiny policy" in out
    # The teacher solves every smoke task; the random tiny model writes no valid action.
    assert "groups: 6 complete, 0 failed" in out
    assert "invalid actions: 0 (0.0%)" in out
    assert "(100.0%)" in out.split("rollout of the tiny policy")[1]
    assert "trajectories are in s3://" in out
    assert not (home / "stack.json").exists()
