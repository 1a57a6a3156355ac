"""The chart, checked without a cluster: the real Helm engine renders it for every CI values file
(strict lint), every built-in object validates against the schema of a current Kubernetes
release, and the rendered objects make sense together: images set, pods non-root, resources that
parse with requests within limits, probes on the services' real routes, Services that select
pods and name their ports, Secrets that exist. A contract test builds each service's settings
from the container environment the chart renders, the way the service will in its pod."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from typer.testing import CliRunner

from phonebuddy.testing.process import find_binary

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "charts" / "phonebuddy"
CI_VALUES = sorted((CHART / "ci").glob("*-values.yaml"))
KUBERNETES = "1.35.0"  # the kubectl that `make setup` installs
# Kinds that come with an operator: no schema in kubernetes-validate.
CUSTOM_GROUPS = ("keda.sh/", "monitoring.coreos.com/", "serving.kserve.io/")
WORKLOADS = ("Deployment", "StatefulSet")
POD_NAME = "rel-phonebuddy-broker-5d8f7c9b6d-x2x7q"
POD_IP = "10.1.2.3"


def helm(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [find_binary("helm"), *args], capture_output=True, text=True, check=False, timeout=120
    )


def render(*args: str) -> list[dict[str, Any]]:
    result = helm("template", "rel", str(CHART), "--namespace", "pb", *args)
    assert result.returncode == 0, result.stderr
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


@pytest.fixture(scope="module", params=CI_VALUES, ids=[p.stem for p in CI_VALUES])
def scenario(request: pytest.FixtureRequest) -> tuple[Path, list[dict[str, Any]]]:
    return request.param, render("-f", str(request.param))


def values_of(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text()) or {}


def pod_templates(objects: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], dict]]:
    for obj in objects:
        if obj["kind"] in WORKLOADS:
            yield obj, obj["spec"]["template"]


def quantity(text: str | int | float) -> float:
    """A Kubernetes quantity as a number (cpu in cores, memory in bytes)."""
    text = str(text)
    suffixes = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40,
                "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}  # fmt: skip
    for suffix in sorted(suffixes, key=len, reverse=True):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * suffixes[suffix]
    return float(text)


def test_the_generated_files_are_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "infra" / "chart_files.py"), "--check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_lint_is_strict_and_clean_for_every_ci_values_file() -> None:
    assert {p.stem for p in CI_VALUES} == {
        "cpu-only-values", "gpu-values", "external-s3-values", "local-cluster-values"
    }  # fmt: skip
    for values in CI_VALUES:
        result = helm("lint", "--strict", str(CHART), "-f", str(values))
        assert result.returncode == 0, result.stdout + result.stderr
        assert "[WARNING]" not in result.stdout, result.stdout


def test_every_builtin_object_is_valid_for_a_current_kubernetes(scenario) -> None:
    _, objects = scenario
    custom = []
    for obj in objects:
        if obj["apiVersion"].startswith(CUSTOM_GROUPS):
            custom.append(obj["kind"])
            assert obj["metadata"]["name"]
            continue
        kubernetes_validate.validate(obj, KUBERNETES, strict=True)
    # Checked against their upstream CRDs by a server dry run (test_local_cluster.py).
    assert set(custom) <= {"ScaledObject", "ServiceMonitor", "PodMonitor", "PrometheusRule",
                           "InferenceService"}  # fmt: skip


def test_values_are_checked_by_the_schema_and_required_values_say_why() -> None:
    misspelt = helm("template", "rel", str(CHART), "--set", "phoneworld.replica=3")
    assert misspelt.returncode != 0
    assert "replica" in misspelt.stderr
    assert "additional properties" in misspelt.stderr.lower()
    wrong_type = helm("template", "rel", str(CHART), "--set", "policy.mode=tpu")
    assert wrong_type.returncode != 0
    assert "/policy/mode" in wrong_type.stderr
    no_model = helm("template", "rel", str(CHART))
    assert no_model.returncode != 0
    assert "policy.model must name the checkpoint to serve" in no_model.stderr
    external = helm("template", "rel", str(CHART), "--set", "policy.model=s3://b/m",
                    "--set", "objectStore.external.enabled=true",
                    "--set", "objectStore.external.endpoint=s3.example.com:443")  # fmt: skip
    assert external.returncode != 0
    assert "objectStore.external.existingSecret" in external.stderr


def test_pods_run_as_non_root_with_limits_and_set_images(scenario) -> None:
    path, objects = scenario
    for workload, template in pod_templates(objects):
        name = workload["metadata"]["name"]
        spec = template["spec"]
        assert spec["securityContext"]["runAsNonRoot"] is True, name
        assert spec.get("automountServiceAccountToken") is False, name
        for container in spec["containers"]:
            image = container["image"]
            repository, _, tag = image.rpartition(":")
            assert repository, image
            assert tag, image
            assert "/" not in tag, image
            security = container.get("securityContext", {})
            privileged_usb = container["name"] == "adb-server" and security.get("privileged")
            if privileged_usb:  # USB phones need the node's devices: only with adbServer.usb
                assert values_of(path)["deviceGateway"]["adbServer"]["usb"] is True
            else:
                assert security["allowPrivilegeEscalation"] is False, (name, container["name"])
                assert security["capabilities"]["drop"] == ["ALL"]
            resources = container["resources"]
            for kind in ("cpu", "memory"):
                request, limit = resources["requests"][kind], resources["limits"][kind]
                assert quantity(request) <= quantity(limit), (name, kind)
            if "nvidia.com/gpu" in resources.get("limits", {}):
                assert (
                    resources["requests"]["nvidia.com/gpu"] == resources["limits"]["nvidia.com/gpu"]
                )


def test_services_select_pods_and_their_ports_exist(scenario) -> None:
    _, objects = scenario
    pods = [template for _, template in pod_templates(objects)]
    for service in (o for o in objects if o["kind"] == "Service"):
        selector = service["spec"]["selector"]
        matching = [p for p in pods if selector.items() <= p["metadata"]["labels"].items()]
        assert matching, f"Service {service['metadata']['name']} selects no pods"
        ports = {
            port["name"]
            for p in matching
            for c in p["spec"]["containers"]
            for port in c.get("ports", [])
        }
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in ports, (service["metadata"]["name"], port)


def test_every_secret_a_pod_reads_is_rendered_or_named_in_the_values(scenario) -> None:
    path, objects = scenario
    rendered = {o["metadata"]["name"]: o["data"] for o in objects if o["kind"] == "Secret"}
    text = json.dumps(values_of(path))
    for _, template in pod_templates(objects):
        for container in template["spec"]["containers"]:
            for env in container.get("env", []):
                ref = env.get("valueFrom", {}).get("secretKeyRef")
                if ref is None:
                    continue
                if ref["name"] in rendered:
                    assert ref["key"] in rendered[ref["name"]], ref
                else:
                    assert f'"{ref["name"]}"' in text, f"{ref['name']} is neither made nor given"


def _phonebuddy_containers(objects: list[dict[str, Any]]) -> Iterator[tuple[str, dict]]:
    services = {"phoneworld", "device-gateway", "policy", "teacher", "judge", "broker"}
    for workload, template in pod_templates(objects):
        if workload["metadata"]["labels"]["app.kubernetes.io/component"] not in services:
            continue
        for container in template["spec"]["containers"]:
            if container["name"] != "adb-server":
                yield workload["metadata"]["name"], container
    for obj in objects:
        if obj["kind"] == "InferenceService":
            for container in obj["spec"]["predictor"]["containers"]:
                yield obj["metadata"]["name"], container


def _environment(container: dict, secrets: dict[str, dict[str, str]]) -> dict[str, str]:
    """The container's variables as the kubelet would set them (fields from a pod of ours)."""
    env = {}
    for item in container.get("env", []):
        if "value" in item:
            env[item["name"]] = item["value"]
            continue
        source = item["valueFrom"]
        if "secretKeyRef" in source:
            ref = source["secretKeyRef"]
            data = secrets.get(ref["name"])
            value = base64.b64decode(data[ref["key"]]).decode() if data else f"given-{ref['key']}"
            env[item["name"]] = value
        else:
            field = source["fieldRef"]["fieldPath"]
            env[item["name"]] = {"metadata.name": POD_NAME, "status.podIP": POD_IP}[field]
    return env


def _settings_classes(command: tuple[str, ...]) -> list[type]:
    from phonebuddy.bus import NatsSettings
    from phonebuddy.storage import StoreSettings

    if command == ("world", "serve"):
        from phonebuddy.phoneworld.service.settings import WorldSettings

        return [WorldSettings, NatsSettings]
    if command == ("broker", "serve"):
        from phonebuddy.broker.settings import BrokerSettings

        return [BrokerSettings, NatsSettings, StoreSettings]
    if command == ("policy", "serve"):
        from phonebuddy.policy.settings import PolicySettings

        return [PolicySettings, NatsSettings, StoreSettings]
    if command == ("judge", "serve"):
        from phonebuddy.judge.settings import JudgeSettings

        return [JudgeSettings, NatsSettings, StoreSettings]
    if command == ("gateway", "serve"):
        from phonebuddy.device_gateway.settings import GatewaySettings

        return [GatewaySettings, NatsSettings]
    raise AssertionError(f"no service runs `phonebuddy {' '.join(command)}`")


def template_host_network(objects: list[dict[str, Any]], workload: str) -> bool:
    """Whether the named workload's pods run on the host's network."""
    for obj, template in pod_templates(objects):
        if obj["metadata"]["name"] == workload:
            return bool(template["spec"].get("hostNetwork"))
    return False


def known_variables(settings_class: type) -> set[str]:
    """The environment variables a pydantic-settings class reads (pydantic-settings ignores
    unknown ones even with extra="forbid", so a misspelt variable would go unnoticed)."""
    from pydantic import AliasChoices

    prefix = settings_class.model_config.get("env_prefix", "")
    names = set()
    for name, field in settings_class.model_fields.items():
        names.add(f"{prefix}{name}".upper())
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            names |= {str(choice).upper() for choice in alias.choices}
        elif isinstance(alias, str):
            names.add(alias.upper())
    return names


def test_each_service_builds_its_settings_from_the_rendered_environment(
    scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from phonebuddy.cli.main import full_app

    _, objects = scenario
    secrets = {o["metadata"]["name"]: o["data"] for o in objects if o["kind"] == "Secret"}
    seen = set()
    for name, container in _phonebuddy_containers(objects):
        args = container["args"]
        command = tuple(args[:2])
        help_run = CliRunner().invoke(full_app(), [*args, "--help"])
        assert help_run.exit_code == 0, (name, args, help_run.output)
        for variable in [v for v in os.environ if v.startswith("PHONEBUDDY_")]:
            monkeypatch.delenv(variable)
        env = _environment(container, secrets)
        for variable, value in env.items():
            monkeypatch.setenv(variable, value)
        options = dict(zip(args[2::2], args[3::2], strict=False))
        classes = _settings_classes(command)
        known = set().union(*(known_variables(c) for c in classes)) | {"PHONEBUDDY_POD_NAME"}
        unknown = {v for v in env if v.startswith("PHONEBUDDY_")} - known
        assert not unknown, f"{name} sets variables no setting reads: {sorted(unknown)}"
        for settings_class in classes:
            given = {}
            if "--backend" in options and settings_class.__name__ == "PolicySettings":
                given["backend"] = options["--backend"]
            settings = settings_class(**given)  # raises if the chart's variables are wrong
            if hasattr(settings, "port") and "PHONEBUDDY_POD_NAME" in env:
                port = {p["name"]: p["containerPort"] for p in container["ports"]}["http"]
                assert settings.port == port, name
                hostnet = template_host_network(objects, name)
                assert settings.host == ("127.0.0.1" if hostnet else "0.0.0.0"), name
        seen.add(command)
    assert ("world", "serve") in seen
    assert ("broker", "serve") in seen


def test_probes_use_the_services_real_routes(scenario) -> None:
    from phonebuddy.telemetry.health import health_router
    from phonebuddy.telemetry.metrics import ServiceMetrics

    routes = {route.path for route in health_router(metrics=ServiceMetrics("x")).routes}
    _, objects = scenario
    for name, container in _phonebuddy_containers(objects):
        vllm = "--backend" in container["args"] and "vllm" in container["args"]
        expected = {"/health"} if vllm else routes
        for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
            path = container[probe]["httpGet"]["path"]
            assert path in expected, (name, probe, path)
        if not vllm:
            assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"


def test_nats_is_reachable_only_from_the_services_and_the_clients() -> None:
    objects = render("-f", str(CHART / "ci" / "gpu-values.yaml"))
    policies = {o["metadata"]["name"]: o for o in objects if o["kind"] == "NetworkPolicy"}
    nats = policies["rel-phonebuddy-nats"]["spec"]["ingress"]
    client_rule = next(rule for rule in nats if {"port": 4222} in rule["ports"])
    components = {
        peer["podSelector"]["matchLabels"].get("app.kubernetes.io/component")
        for peer in client_rule["from"]
    }
    assert components == {
        "phoneworld", "device-gateway", "policy", "teacher", "judge", "broker", None
    }  # fmt: skip
    labelled = [p for p in client_rule["from"] if "app.kubernetes.io/component" not in
                p["podSelector"]["matchLabels"]]  # fmt: skip
    assert all(p["podSelector"]["matchLabels"]["phonebuddy.dev/client"] == "true" for p in labelled)
    monitor = next(rule for rule in nats if {"port": 8222} in rule["ports"])
    assert monitor["from"] == [
        {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}}}
    ]
    emulator = policies["rel-phonebuddy-emulator"]["spec"]["ingress"]
    assert emulator == [{
        "from": [{"podSelector": {"matchLabels": {
            "app.kubernetes.io/instance": "rel", "app.kubernetes.io/component": "device-gateway"
        }}}],
        "ports": [{"port": 5555}],
    }]  # fmt: skip
    judge = policies["rel-phonebuddy-judge"]["spec"]["ingress"]
    assert all("podSelector" not in peer for rule in judge for peer in rule["from"])


def test_nats_users_match_the_services_and_their_permissions() -> None:
    from phonebuddy.bus.permissions import SERVICE_PERMISSIONS

    objects = render("--set", "policy.model=s3://b/m")
    config = next(o for o in objects if o["metadata"]["name"] == "rel-phonebuddy-nats-config")
    text = config["data"]["nats.conf"]
    users = next(o for o in objects if o["metadata"]["name"] == "rel-phonebuddy-nats-users")
    assert set(users["data"]) == set(SERVICE_PERMISSIONS)
    for user, permissions in SERVICE_PERMISSIONS.items():
        variable = "PASSWORD_" + user.upper().replace("-", "_")
        line = next(line for line in text.splitlines() if f'user: "{user}"' in line)
        assert f"password: ${variable}," in line
        assert json.dumps(permissions.to_nats(), sort_keys=True, separators=(",", ":")) in line
        assert len(base64.b64decode(users["data"][user])) >= 32  # a generated password
