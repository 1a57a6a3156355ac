"""Subject tokens and the default instance id of a service process."""

import pytest

from phonebuddy.protocol.subjects import check_token, host_instance_id


def test_default_instance_ids_are_tokens_and_stay_distinct_for_long_pod_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert host_instance_id("world", "box.local") == "world-box-local"
    long_release = "a-release-name-that-is-quite-long-phonebuddy-phoneworld-7d9f8b6c5d"
    first = host_instance_id("world", f"{long_release}-abcde")
    second = host_instance_id("world", f"{long_release}-fghij")
    assert first != second
    for made in (first, second):
        assert len(made) <= 48
        assert check_token(made) == made
    monkeypatch.setenv("PHONEBUDDY_POD_NAME", "pod-7")  # pods on the host network share a host name
    assert host_instance_id("broker") == "broker-pod-7"
