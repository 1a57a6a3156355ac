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

from .network_policy import Evaluator, Outside, Pod, selects

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
                assert security["readOnlyRootFilesystem"] is True, (name, container["name"])
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
    # Not the policy server: the model server does not use NATS (only the teacher backend does).
    assert components == {"phoneworld", "device-gateway", "teacher", "judge", "broker", None}
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


# ---- NetworkPolicies: both directions, evaluated (network_policy.py) over the rendered pods ----

NAMESPACE = "pb"
SFT_JOB = json.dumps([{"name": "tiny-sft", "job": "sft",
                       "config": {"checkpoint": {"output": "s3://phonebuddy/sft"}}}])  # fmt: skip
NAMESPACES = {
    name: {"kubernetes.io/metadata.name": name}
    for name in (NAMESPACE, "kube-system", "monitoring", "ml-jobs", "infra")
}
DNS = Pod("coredns", "kube-system", {"k8s-app": "kube-dns"}, "10.96.0.53",
          {"dns": (53, "UDP"), "dns-tcp": (53, "TCP")})  # fmt: skip
PROMETHEUS = Pod("prometheus-0", "monitoring", {"app": "prometheus"}, "10.2.0.9")
INFRA_NATS = Pod("nats-0", "infra", {"app.kubernetes.io/name": "nats"}, "10.3.0.4",
                 {"client": (4222, "TCP")})  # fmt: skip
OTHER_CLIENT = Pod("eval-7", "ml-jobs", {"phonebuddy.dev/client": "true"}, "10.4.0.7")
INTERNET = Outside("198.51.100.7", "internet")
API_SERVER = Outside("10.0.0.10", "api-server")
OUTSIDE = (INTERNET, API_SERVER, Outside("52.218.3.4", "s3"), Outside("10.20.0.11", "phone-1"),
           Outside("10.20.0.12", "phone-2"), Outside("203.0.113.20", "llm"))  # fmt: skip
OUTSIDE_PORTS = [(port, "TCP") for port in (53, 80, 443, 4222, 5555, 6443, 8093, 9000)]
DNS_PORTS = {("dns", 53, "UDP"), ("dns", 53, "TCP")}


def release_pods(objects: list[dict[str, Any]]) -> list[Pod]:
    """A pod of every Deployment, StatefulSet and Job, and of KServe's predictor (it carries
    the labels the chart gives `spec.predictor.labels`), each at its own address."""
    templates = [t for _, t in pod_templates(objects)]
    templates += [o["spec"]["template"] for o in objects if o["kind"] == "Job"]
    for obj in objects:
        if obj["kind"] == "InferenceService":
            predictor = obj["spec"]["predictor"]
            templates.append({"metadata": {"name": obj["metadata"]["name"],
                                           "labels": predictor.get("labels", {})},
                              "spec": {"containers": predictor["containers"]}})  # fmt: skip
    return [Pod.of(template, namespace=NAMESPACE, ip=f"10.1.0.{i + 1}")
            for i, template in enumerate(templates)]  # fmt: skip


def role(endpoint: Pod | Outside) -> str:
    """What a peer is: a release pod's component (`training` for a Job's), or its name."""
    if isinstance(endpoint, Outside):
        return endpoint.name
    if "phonebuddy.dev/job" in endpoint.labels:
        return "training"
    if endpoint.namespace == NAMESPACE:
        return endpoint.labels["app.kubernetes.io/component"]
    return {"kube-system": "dns", "infra": "infra-nats"}.get(endpoint.namespace, endpoint.name)


def destinations(pods: list[Pod]) -> Iterator[tuple[Pod | Outside, tuple[int, str]]]:
    """Every port of every pod (a training pod's rendezvous port too), of DNS and of the
    outside addresses."""
    for pod in [*pods, DNS, INFRA_NATS]:
        ports = set(pod.named_ports.values())
        if role(pod) == "training":
            ports.add((29500, "TCP"))
        for port in ports:
            yield pod, port
    for outside in OUTSIDE:
        for port in OUTSIDE_PORTS:
            yield outside, port


def egress_by_role(objects: list[dict[str, Any]]) -> dict[str, set[tuple[str, int, str]]]:
    """What each component's pods may send to, as (peer, port, protocol)."""
    policies = [o for o in objects if o["kind"] == "NetworkPolicy"]
    evaluator = Evaluator(policies, NAMESPACES, default_namespace=NAMESPACE)
    pods = release_pods(objects)
    reach: dict[str, set[tuple[str, int, str]]] = {}
    for source in pods:
        allowed = {
            (role(destination), port, protocol)
            for destination, (port, protocol) in destinations(pods)
            if evaluator.egress_allows(source, destination, port, protocol)
        }
        assert reach.setdefault(role(source), allowed) == allowed, role(source)  # same per role
    return reach


def evaluator_of(objects: list[dict[str, Any]]) -> tuple[Evaluator, dict[str, Pod]]:
    policies = [o for o in objects if o["kind"] == "NetworkPolicy"]
    pods = {role(pod): pod for pod in release_pods(objects)}
    return Evaluator(policies, NAMESPACES, default_namespace=NAMESPACE), pods


def test_every_pod_of_the_release_is_isolated_both_ways_by_its_policies(scenario) -> None:
    objects = render("-f", str(scenario[0]), "--set-json", f"trainingJobs={SFT_JOB}")
    policies = [o for o in objects if o["kind"] == "NetworkPolicy"]
    evaluator = Evaluator(policies, NAMESPACES, default_namespace=NAMESPACE)
    pods = release_pods(objects)
    roles = {role(pod) for pod in pods}
    assert {"training", "broker", "teacher", "phoneworld"} <= roles
    for pod in pods:
        selecting = [p for p in policies if selects(p["spec"]["podSelector"], pod.labels)
                     and evaluator.policy_types(p["spec"]) == ["Ingress", "Egress"]]  # fmt: skip
        names = {p["metadata"]["name"] for p in selecting}
        assert "rel-phonebuddy-default-deny" in names, pod.name
        own = "training" if role(pod) == "training" else role(pod)
        assert f"rel-phonebuddy-{own}" in names, (pod.name, names)
        assert evaluator.isolated(pod, "Ingress"), pod.name
        assert evaluator.isolated(pod, "Egress"), pod.name
    for policy in policies:
        assert evaluator.policy_types(policy["spec"]) == ["Ingress", "Egress"]
        assert "egress" in policy["spec"]
        assert "ingress" in policy["spec"]


def _expected_egress(name: str) -> dict[str, set[tuple[str, int, str]]]:
    """Each component's destinations besides DNS, as its settings in the templates say."""
    if name == "external-s3":
        nats, store = {("infra-nats", 4222, "TCP")}, {("s3", 443, "TCP")}
    else:
        nats, store = {("nats", 4222, "TCP")}, {("minio", 9000, "TCP")}
    policies = {("policy", 8093, "TCP"), ("teacher", 8097, "TCP")}
    ranks = {("training", 9400, "TCP"), ("training", 29500, "TCP")}  # any port of its ranks
    expected = {
        "phoneworld": nats,
        "policy": store,  # checkpoints, weight pushes, `store:` images; never NATS
        "teacher": nats,  # PhoneWorld's oracle, over NATS
        "broker": nats | store | policies,
        "training": nats | store | policies | ranks,
    }
    if name != "external-s3":
        expected |= {"nats": {("nats", 6222, "TCP")}, "minio": set()}
    if name == "gpu":
        phones = {("emulator", 5555, "TCP"), ("phone-1", 5555, "TCP"), ("phone-2", 5555, "TCP")}
        expected |= {"device-gateway": nats | phones, "emulator": set(),
                     "judge": nats | store | {("llm", 443, "TCP")}}  # fmt: skip
    return {component: allowed | DNS_PORTS for component, allowed in expected.items()}


@pytest.mark.parametrize("name", ["cpu-only", "gpu", "external-s3"])
def test_each_components_egress_allows_exactly_what_it_uses(name: str) -> None:
    """DNS and what the component's settings name, nothing else: the policy server reaches
    only DNS and the object store it loads checkpoints from, a training Job only NATS, the
    object store, the policy endpoints (RL weight pushes, eval), its own ranks and DNS; no pod
    reaches the Kubernetes API server or an outside address it was not given."""
    values = CHART / "ci" / f"{name}-values.yaml"
    objects = render("-f", str(values), "--set-json", f"trainingJobs={SFT_JOB}")
    assert egress_by_role(objects) == _expected_egress(name)


def test_the_api_server_is_reachable_only_by_the_components_named() -> None:
    objects = render("-f", str(CHART / "ci" / "cpu-only-values.yaml"),
                     "--set-json", f"trainingJobs={SFT_JOB}",
                     "--set-json", 'networkPolicy.egress.kubernetesApi.components=["clients"]',
                     "--set-json", 'networkPolicy.egress.kubernetesApi.cidrs=["10.0.0.10/32"]',
                     "--set", "networkPolicy.egress.kubernetesApi.port=6443")  # fmt: skip
    reach = egress_by_role(objects)
    expected = _expected_egress("cpu-only")
    assert reach["training"] == expected["training"] | {("api-server", 6443, "TCP")}
    assert {c: r for c, r in reach.items() if c != "training"} == {
        c: r for c, r in expected.items() if c != "training"
    }


def test_connections_need_both_sides_and_follow_who_talks_to_whom() -> None:
    """Pairs, both egress and ingress evaluated: the broker and the clients reach the policy
    endpoints, scrapers reach every service's HTTP port, nothing else crosses."""
    objects = render("-f", str(CHART / "ci" / "gpu-values.yaml"),
                     "--set-json", f"trainingJobs={SFT_JOB}")  # fmt: skip
    evaluator, pods = evaluator_of(objects)
    minio, nats = pods["minio"], pods["nats"]
    assert evaluator.allows(pods["training"], nats, 4222)
    assert evaluator.allows(pods["training"], minio, 9000)
    assert evaluator.allows(pods["training"], pods["policy"], 8093)  # RL weight pushes
    assert evaluator.allows(pods["broker"], pods["teacher"], 8097)
    assert evaluator.allows(pods["device-gateway"], pods["emulator"], 5555)
    assert evaluator.allows(OTHER_CLIENT, nats, 4222)  # networkPolicy.clientNamespaceSelectors
    assert not evaluator.allows(pods["training"], INTERNET, 443)
    assert not evaluator.allows(pods["training"], API_SERVER, 6443)
    assert not evaluator.allows(pods["policy"], nats, 4222)
    assert not evaluator.allows(pods["policy"], INTERNET, 443)
    assert not evaluator.allows(pods["phoneworld"], minio, 9000)
    assert not evaluator.allows(pods["teacher"], minio, 9000)
    assert not evaluator.allows(pods["phoneworld"], pods["policy"], 8093)
    assert not evaluator.allows(pods["judge"], pods["emulator"], 5555)
    assert not evaluator.allows(pods["emulator"], INTERNET, 443)
    for component, port in (("policy", 8093), ("broker", 8096), ("phoneworld", 8090),
                            ("judge", 8094), ("nats", 8222)):  # fmt: skip
        assert evaluator.allows(PROMETHEUS, pods[component], port), component
    assert not evaluator.allows(PROMETHEUS, minio, 9000)
    assert not evaluator.allows(PROMETHEUS, nats, 4222)
    for source in pods.values():
        assert evaluator.allows(source, DNS, 53, "UDP")
        assert evaluator.allows(source, DNS, 53)
        assert not evaluator.allows(source, DNS, 80)


def test_more_dns_servers_can_be_allowed_by_address() -> None:
    cidrs = 'networkPolicy.egress.dns.cidrs=["169.254.20.10/32"]'
    objects = render("-f", str(CHART / "ci" / "cpu-only-values.yaml"), "--set-json", cidrs)
    evaluator, pods = evaluator_of(objects)
    node_local = Outside("169.254.20.10", "NodeLocal DNSCache")
    for source in pods.values():
        assert evaluator.allows(source, node_local, 53, "UDP")
        assert evaluator.allows(source, DNS, 53, "UDP")
        assert not evaluator.allows(source, node_local, 80)
        assert not evaluator.allows(source, Outside("169.254.20.11"), 53, "UDP")


def test_egress_rules_can_be_turned_off_and_policies_off_altogether() -> None:
    base = ("-f", str(CHART / "ci" / "cpu-only-values.yaml"))
    ingress_only = render(*base, "--set", "networkPolicy.egress.enabled=false")
    policies = [o["spec"] for o in ingress_only if o["kind"] == "NetworkPolicy"]
    assert policies
    assert all(p["policyTypes"] == ["Ingress"] and "egress" not in p for p in policies)
    none = render(*base, "--set", "networkPolicy.enabled=false")
    assert not [o for o in none if o["kind"] == "NetworkPolicy"]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (["-f", "external-s3-values.yaml", "--set-json", "networkPolicy.egress.objectStore=[]"],
         "networkPolicy.egress.objectStore must say where the external object store is"),
        (["-f", "external-s3-values.yaml", "--set-json", "networkPolicy.egress.nats=[]"],
         "networkPolicy.egress.nats must say where the NATS server"),
        (["-f", "gpu-values.yaml", "--set-json", "networkPolicy.egress.extra.judge=[]"],
         "networkPolicy.egress.extra.judge must allow the judge's rubric writer and grader"),
        (["-f", "gpu-values.yaml", "--set-json", 'deviceGateway.connect=["phone-3.lab:5555"]'],
         "deviceGateway.connect names phones by host name (phone-3.lab:5555)"),
        (["-f", "cpu-only-values.yaml",
          "--set-json", 'networkPolicy.egress.kubernetesApi.components=["trainer"]'],
         '"trainer" is not one of nats, objectStore'),
        (["-f", "cpu-only-values.yaml",
          "--set-json", 'networkPolicy.egress.kubernetesApi.components=["clients"]'],
         "networkPolicy.egress.kubernetesApi.cidrs must list the API server's addresses"),
        (["-f", "cpu-only-values.yaml",
          "--set-json", 'networkPolicy.egress.extra.policy=[{"host": "images.example.com"}]'],
         'networkPolicy.egress.extra.policy[0] has an unknown key "host"'),
        (["-f", "cpu-only-values.yaml", "--set", "broker.image.digest=sha256:abc"],
         'image digest "sha256:abc" must be sha256: and 64 lower-case hex digits'),
    ],
    ids=["external-store", "external-nats", "judge", "phone-host-name", "api-component",
         "api-cidrs", "destination-key", "digest"],
)  # fmt: skip
def test_egress_values_that_cannot_work_fail_with_a_sentence(settings: list[str],
                                                             message: str) -> None:  # fmt: skip
    args = [str(CHART / "ci" / a) if a.endswith("-values.yaml") else a for a in settings]
    result = helm("template", "rel", str(CHART), *args)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr


def test_every_image_can_be_pinned_by_digest() -> None:
    """`image.digest` (and the GPU policy image's `gpuImageDigest`) renders REPOSITORY@sha256:...
    in place of the tag, for every image of every component and of the training Jobs."""
    keys = [
        "nats.image",
        "objectStore.minio.image",
        "phoneworld.image",
        "deviceGateway.image",
        "emulators.image",
        "policy.image",
        "teacher.image",
        "judge.image",
        "broker.image",
    ]
    digests = {key: "sha256:" + f"{i + 1:02x}" * 32 for i, key in enumerate(keys)}
    digests["policy.gpuImage"] = "sha256:" + "ee" * 32
    job = [{"name": "tiny-sft", "job": "sft", "image": {"digest": "sha256:" + "ff" * 32},
            "config": {"checkpoint": {"output": "s3://phonebuddy/sft"}}}]  # fmt: skip
    sets = [f"{key}.digest={digest}" for key, digest in digests.items() if key != "policy.gpuImage"]
    args = ["--set-json", f"trainingJobs={json.dumps(job)}",
            "--set", f"policy.gpuImageDigest={digests['policy.gpuImage']}"]  # fmt: skip
    for setting in sets:
        args += ["--set", setting]
    by_component = {"nats": "nats.image", "minio": "objectStore.minio.image",
                    "phoneworld": "phoneworld.image", "device-gateway": "deviceGateway.image",
                    "emulator": "emulators.image", "teacher": "teacher.image",
                    "judge": "judge.image", "broker": "broker.image"}  # fmt: skip
    for mode, policy_key in (("cpu", "policy.image"), ("vllm", "policy.gpuImage"),
                             ("kserve", "policy.gpuImage")):  # fmt: skip
        objects = render("-f", str(CHART / "ci" / "gpu-values.yaml"),
                         "--set", f"policy.mode={mode}", *args)  # fmt: skip
        expected = {**by_component, "policy": policy_key}
        images = [(o["metadata"]["labels"]["app.kubernetes.io/component"], c["image"])
                  for o in objects if o["kind"] in (*WORKLOADS, "Job")
                  for c in o["spec"]["template"]["spec"]["containers"]]  # fmt: skip
        images += [("policy", c["image"]) for o in objects if o["kind"] == "InferenceService"
                   for c in o["spec"]["predictor"]["containers"]]  # fmt: skip
        assert {component for component, _ in images} >= {*by_component, "policy", "tiny-sft"}
        for component, image in images:
            digest = (
                "sha256:" + "ff" * 32 if component == "tiny-sft" else digests[expected[component]]
            )
            repository, _, pinned = image.partition("@")
            assert pinned == digest, (mode, component, image)
            assert ":" not in repository.rsplit("/", 1)[-1], image  # no tag beside the digest
    gpu_values = CHART / "ci" / "gpu-values.yaml"  # pins the GPU image only
    gpu = render("-f", str(gpu_values))
    pinned = [
        c["image"]
        for o in gpu
        if o["kind"] in WORKLOADS
        for c in o["spec"]["template"]["spec"]["containers"]
        if "@" in c["image"]
    ]
    digest = values_of(gpu_values)["policy"]["gpuImageDigest"]
    assert pinned == [f"registry.example.com/phonebuddy/phonebuddy/policy-gpu@{digest}"]
    plain = render("-f", str(CHART / "ci" / "cpu-only-values.yaml"))
    assert not [
        c["image"]
        for o in plain
        if o["kind"] in WORKLOADS
        for c in o["spec"]["template"]["spec"]["containers"]
        if "@" in c["image"]
    ]


def test_the_emulator_has_a_read_only_root_and_writes_to_empty_dirs() -> None:
    objects = render("-f", str(CHART / "ci" / "gpu-values.yaml"),
                     "--set-json", 'emulators.writablePaths=["/android/avd"]')  # fmt: skip
    emulator = next(o for o in objects if o["kind"] == "StatefulSet"
                    and o["metadata"]["name"] == "rel-phonebuddy-emulator")  # fmt: skip
    spec = emulator["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["HOME"] == "/tmp"
    volumes = {v["name"]: v for v in spec["volumes"]}
    mounts = {m["mountPath"]: volumes[m["name"]] for m in container["volumeMounts"]}
    assert mounts["/tmp"]["emptyDir"] == {}
    assert mounts["/android/avd"]["emptyDir"] == {}
    assert mounts["/dev/kvm"]["hostPath"]["path"] == "/dev/kvm"
