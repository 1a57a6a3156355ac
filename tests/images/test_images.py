"""The images `make images` builds, imported into a real containerd and run: non-root, their
entrypoints work, the broker and judge images hold no torch, and the same inputs give the same
image digest. The torch images (policy, sft, rl, eval) are built the same way by `make images`;
the local-cluster test imports those it runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from phonebuddy.testing.containerd import Containerd

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "infra" / "images" / "build.py"
LIGHT = ("nats", "s3", "broker", "judge", "phoneworld")

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="building Debian roots needs root")


def build_images(out: Path, *names: str) -> dict[str, dict]:
    result = subprocess.run(
        [sys.executable, str(BUILD), "--out", str(out), *names],
        capture_output=True, text=True, check=False, timeout=1500,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return {image["image"]: image for image in json.loads(result.stdout)["images"]}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    return build_images(tmp_path_factory.mktemp("images"), *LIGHT)


@pytest.fixture(scope="module")
def containerd(built: dict[str, dict]) -> Iterator[Containerd]:
    with Containerd() as server:
        for image in built.values():
            server.import_image(Path(image["file"]))
            Path(image["file"]).unlink()  # containerd holds it now
        yield server


@pytest.mark.timeout(1800)  # a first build: Debian roots and the wheelhouse (~3-5 min)
def test_each_image_runs_its_entrypoint_as_a_non_root_user(
    built: dict[str, dict], containerd: Containerd
) -> None:
    references = {name: image["reference"] for name, image in built.items()}
    for name in ("broker", "judge", "phoneworld"):
        ran = containerd.run(references[name], "id", "-u", name=f"id-{name}")
        assert ran.stdout.strip() == "10001", ran.stderr
        service = {"broker": "broker", "judge": "judge", "phoneworld": "world"}[name]
        helped = containerd.run(
            references[name], "/opt/phonebuddy/bin/phonebuddy", service, "serve", "--help",
            name=f"help-{name}",
        )  # fmt: skip
        assert helped.returncode == 0, helped.stderr
        assert "Usage: phonebuddy" in helped.stdout
    version = containerd.run(references["nats"], "/usr/local/bin/nats-server", "--version",
                             name="nats-version")  # fmt: skip
    assert version.returncode == 0
    assert "nats-server" in version.stdout
    weed = containerd.run(references["s3"], "/usr/local/bin/weed", "version", name="weed")
    assert weed.returncode == 0, weed.stderr
    assert "version" in weed.stdout.lower()


def test_the_broker_and_judge_images_hold_no_torch_and_phoneworld_has_cjk_fonts(
    built: dict[str, dict], containerd: Containerd
) -> None:
    probe = "import importlib.util as u; print(u.find_spec('torch') is None)"
    for name in ("broker", "judge"):
        ran = containerd.run(built[name]["reference"], "/opt/phonebuddy/bin/python", "-c", probe,
                             name=f"torch-{name}")  # fmt: skip
        assert ran.stdout.strip() == "True", ran.stderr
    fonts = containerd.run(built["phoneworld"]["reference"], "ls", "/usr/share/fonts/opentype",
                           name="fonts")  # fmt: skip
    assert "noto" in fonts.stdout
    sizes = {name: image["bytes"] / 2**20 for name, image in built.items()}
    assert sizes["broker"] < 400  # Python and its own wheels, nothing of the training stack


def test_the_same_inputs_give_the_same_image_and_stale_cache_entries_go(
    built: dict[str, dict], tmp_path: Path
) -> None:
    """Roots and environments come from the cache, so this checks that the image writer itself
    is deterministic (sorted entries, fixed owners and times), not Debian's archive. The
    rebuild also prunes the cache: another wheelhouse, an older venv of an image it built and a
    root no image uses go; a venv of an image it did not build stays."""
    cache = Path(os.environ.get("PHONEBUDDY_IMAGE_CACHE", Path.home() / ".cache/phonebuddy/images"))
    stale = ["wheels-0000000000000000", "venv-broker-0000000000000000", "root-0000000000000000"]
    other = "venv-sft-0000000000000000"
    for name in [*stale, other]:
        (cache / name).mkdir()
        (cache / name / "file").write_text("x")
        (cache / f"{name}.complete").touch()
    try:
        again = build_images(tmp_path, "broker", "nats")
        assert again["broker"]["digest"] == built["broker"]["digest"]
        assert again["nats"]["digest"] == built["nats"]["digest"]
        left = {entry.name for entry in cache.iterdir()}
        assert not left & {*stale, *(f"{name}.complete" for name in stale)}
        assert {other, f"{other}.complete"} <= left
        assert sum(name.startswith("wheels-") and "." not in name for name in left) == 1
        assert sum(name.startswith("venv-broker-") and "." not in name for name in left) == 1
    finally:
        for name in [*stale, other]:
            subprocess.run(["rm", "-rf", str(cache / name), str(cache / f"{name}.complete")],
                           check=True)  # fmt: skip
