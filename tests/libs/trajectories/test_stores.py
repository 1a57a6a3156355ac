"""`RunStores`: a request's store URL is allowed only inside the service's own store or its
configured roots, and is opened once."""

from pathlib import Path

import pytest

from phonebuddy.protocol import Frame
from phonebuddy.storage import LocalStore
from phonebuddy.trajectories import RunStores, StoreNotAllowedError


def test_a_store_must_lie_inside_the_home_store_or_a_root(tmp_path: Path) -> None:
    roots = tmp_path / "roots"
    (roots / "exp").mkdir(parents=True)
    (roots / "exp" / "out").symlink_to(tmp_path)  # a link leading out of the root
    stores = RunStores(home="s3://rollouts", roots=(f"local:{roots}", "s3://shared/team-a"))
    allowed = [
        "s3://rollouts", "s3://rollouts/exp1", f"local:{roots}", f"local:{roots}/exp/run",
        f"file://{roots}/exp", "s3://shared/team-a", "s3://shared/team-a/exp",
    ]  # fmt: skip
    refused = [
        f"local:{tmp_path}/elsewhere", f"local:{roots}/../elsewhere", f"local:{roots}/exp/out/x",
        "local:relative/path", "s3://shared/team-ab", "s3://shared", "s3://other",
        "ftp://nowhere", "local:",
    ]  # fmt: skip
    assert [stores.check(url) for url in allowed] == allowed
    for url in refused:
        with pytest.raises(StoreNotAllowedError) as error:
            stores.check(url)
        assert "s3://rollouts" in str(error.value), url  # says what is allowed
    assert stores.check(None) == "s3://rollouts"


def test_home_in_a_root_is_the_home_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    stores = RunStores(home=None, roots=("local:~",))
    assert stores.check(f"local:{tmp_path}/runs") == f"local:{tmp_path}/runs"
    with pytest.raises(StoreNotAllowedError):
        stores.check("local:/etc/phonebuddy")
    with pytest.raises(StoreNotAllowedError, match="has no store"):
        stores.check(None)


def test_a_bad_root_is_refused_up_front() -> None:
    with pytest.raises(ValueError, match="ftp://x"):
        RunStores(home=None, roots=("ftp://x",))


async def test_allowed_stores_open_once_and_the_home_store_is_the_given_one(
    tmp_path: Path,
) -> None:
    home = LocalStore(tmp_path / "home")
    stores = RunStores(home=f"local:{tmp_path / 'home'}", roots=(f"local:{tmp_path}",),
                       home_store=home)  # fmt: skip
    try:
        assert (await stores.get(None)).store is home
        other = await stores.get(f"local:{tmp_path / 'other'}")
        assert await stores.get(f"local:{tmp_path / 'other'}") is other
        await other.put_frame(Frame.from_bytes(b"jpeg", "image/jpeg"))
    finally:
        await stores.close()
    assert any((tmp_path / "other").rglob("*"))
    assert not (tmp_path / "home").exists()
