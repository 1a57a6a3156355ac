"""The chart on a real one-node Kubernetes cluster (`phonebuddy.testing.kube`: etcd,
kube-apiserver, controller-manager, scheduler and a kubelet on containerd, all on loopback),
with the project's own images imported into the node:

helm install -> every Deployment and StatefulSet becomes ready -> a teacher rollout through the
in-cluster broker stores its episodes in the in-cluster object store -> `phonebuddy jobs render
sft | kubectl apply -f -` fine-tunes the tiny model on those episodes in a pod and its checkpoint
appears in the in-cluster store -> the NetworkPolicies and pods as stored are evaluated (not
enforced: no CNI here enforces them) for who may reach whom -> helm upgrade with more phones per
PhoneWorld pod changes the phones the broker leases -> helm uninstall leaves nothing.

The cluster is Kubernetes 1.20 (built from Debian's source package): the chart picks
policy/v1beta1 for the PodDisruptionBudget there by `.Capabilities`, and the rendered Job leaves
out podFailurePolicy (1.26+)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from phonebuddy.bus import NatsSettings
from phonebuddy.policy_model import make_tiny
from phonebuddy.protocol import PolicyTarget, RolloutRequest, SourceMix, TaskSelection
from phonebuddy.rollouts import RolloutClient
from phonebuddy.storage import StoreSettings, open_store
from phonebuddy.testing.kube import LocalCluster, kube_bin
from phonebuddy.testing.ports import free_port
from phonebuddy.trajectories import TrajectoryStore

from .network_policy import Evaluator, Outside, Pod

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "charts" / "phonebuddy"
IMAGES = ("pause", "nats", "s3", "phoneworld", "broker", "teacher", "sft")
RELEASE = "rel"

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="a kubelet and containerd need root"),
    pytest.mark.timeout(1800),
]


@pytest.fixture(scope="module")
def images(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    out = tmp_path_factory.mktemp("images")
    result = subprocess.run(
        [sys.executable, str(REPO / "infra" / "images" / "build.py"), "--out", str(out), *IMAGES],
        capture_output=True, text=True, check=False, timeout=1500,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return {image["image"]: image for image in json.loads(result.stdout)["images"]}


@pytest.fixture(scope="module")
def cluster(
    images: dict[str, dict], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LocalCluster]:
    if not (kube_bin() / "kubelet").exists():
        subprocess.run([str(REPO / "infra" / "kube" / "build_kubernetes.sh")], check=True)
    work = Path(tmp_path_factory.mktemp("cluster"))
    with LocalCluster(work, pause_image=images["pause"]["reference"]) as running:
        assert running.containerd is not None
        for image in images.values():
            running.containerd.import_image(Path(image["file"]))
            Path(image["file"]).unlink()  # containerd holds it now: 2 GiB less on the disk
        yield running
    # The node's image store and snapshots (~4 GiB): gone once nothing is mounted under them.
    if not any(str(work) in line for line in Path("/proc/mounts").read_text().splitlines()):
        shutil.rmtree(work, ignore_errors=True)


def _ports() -> dict[str, int]:
    from phonebuddy.testing.s3 import _free_port_with_grpc

    ports = {name: free_port("127.0.0.1") for name in
             ("nats", "nats_monitor", "phoneworld", "teacher", "broker")}  # fmt: skip
    return {**ports, "s3": _free_port_with_grpc("127.0.0.1")}  # SeaweedFS's gRPC is +10000


def _weed_ports() -> list[str]:
    """SeaweedFS's own parts, each on a free port whose gRPC partner (+10000) is free too."""
    from phonebuddy.testing.s3 import _free_port_with_grpc

    flags = [f"-{name}.port={_free_port_with_grpc('127.0.0.1')}"
             for name in ("master", "volume", "filer", "admin")]  # fmt: skip
    return [*flags, f"-s3.port.iceberg={free_port('127.0.0.1')}",
            f"-s3.port.lance={free_port('127.0.0.1')}"]  # fmt: skip


def _secret(cluster: LocalCluster, name: str) -> dict[str, str]:
    found = json.loads(cluster.kubectl("get", "secret", name, "-o", "json").stdout)
    return {key: base64.b64decode(value).decode() for key, value in found["data"].items()}


def _workloads_ready(cluster: LocalCluster) -> bool:
    found = json.loads(cluster.kubectl("get", "deployments,statefulsets", "-o", "json").stdout)
    items = found["items"]
    return bool(items) and all(
        item["status"].get("readyReplicas", 0) == item["spec"]["replicas"] for item in items
    )


def _phones(port: int) -> float:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    line = next(ln for ln in text.splitlines() if ln.startswith("phonebuddy_phoneworld_devices "))
    return float(line.split()[-1])


async def _teacher_rollout(
    nats: NatsSettings, store_settings: StoreSettings, run_id: str, group_size: int
) -> list:
    request = RolloutRequest(
        run_id=run_id, tasks=TaskSelection(template_ids=("settings.toggle", "notes.pin")),
        policy=PolicyTarget(endpoint="teacher", model="phonebuddy-policy"),
        group_size=group_size, mix=SourceMix(sim=1.0), step_budget=12,
    )  # fmt: skip
    async with RolloutClient.connect(nats) as client:
        await client.run(request, timeout_s=300)
    async with open_store(store_settings) as store:
        return [episode async for episode in TrajectoryStore(store).episodes(run_id)]


async def _upload(files: dict[str, bytes], settings: StoreSettings) -> None:
    async with open_store(settings) as store:
        for key, data in files.items():
            await store.put_bytes(key, data)


async def _keys(settings: StoreSettings, prefix: str) -> list[str]:
    async with open_store(settings) as store:
        return await store.list(prefix)


def _start_sft_job(cluster: LocalCluster, store: StoreSettings, release_values: list[Path],
                   work: Path) -> str:  # fmt: skip
    """The tiny model fine-tuned on the in-cluster run by a Job rendered with `phonebuddy jobs
    render` and applied with kubectl: the objects applied."""
    base = make_tiny(work / "tiny", seed=0)
    files = {p.relative_to(base).as_posix(): p.read_bytes() for p in base.rglob("*") if p.is_file()}
    asyncio.run(_upload(files, store.model_copy(update={"url": "s3://phonebuddy/models/tiny"})))
    preset = REPO / "training-jobs" / "sft" / "src" / "phonebuddy" / "sft" / "configs"
    config = yaml.safe_load((preset / "tiny-cpu.yaml").read_text())
    config |= {"name": "cluster-sft",
               "train": {"max_steps": 2, "epochs": 1, "seed": 0}}  # fmt: skip
    config["model"]["base"] = "s3://phonebuddy/models/tiny"
    config["data"] |= {"runs": [{"run": "in-cluster"}], "validation_fraction": 0.0}
    config["optim"]["global_batch_rows"] = 1
    config["checkpoint"] |= {"output": "s3://phonebuddy/sft", "every_steps": 2}
    config_file = work / "sft.yaml"
    config_file.write_text(yaml.safe_dump(config))
    server = json.loads(cluster.kubectl("version", "-o", "json").stdout)["serverVersion"]
    values = [part for path in release_values for part in ("-f", str(path))]
    rendered = subprocess.run(
        [str(Path(sys.executable).parent / "phonebuddy"), "jobs", "render", "sft",
         "--config", str(config_file), "--release", RELEASE, *values, "--cpu", "1",
         "--memory", "4Gi", "--kube-version", server["gitVersion"]],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    cluster.kubectl("apply", "-f", "-", stdin=rendered)
    return rendered


def _release_pods_with_the_job(cluster: LocalCluster) -> list[dict]:
    """The release's pods, the SFT Job's among them, as the API server stores them."""

    def pods() -> list[dict]:
        found = cluster.kubectl("get", "pods", "-l", f"app.kubernetes.io/instance={RELEASE}",
                                "-o", "json").stdout  # fmt: skip
        return json.loads(found)["items"]

    def job_pod() -> bool:
        return any("phonebuddy.dev/job" in p["metadata"]["labels"] for p in pods())

    cluster.wait_for(job_pod, timeout_s=60, what="the SFT Job's pod")
    return pods()


def _finish_sft_job(cluster: LocalCluster, store: StoreSettings, rendered: str) -> list[str]:
    """The keys of the checkpoint the SFT Job wrote, once it completed; the Job is deleted."""
    job = f"{RELEASE}-phonebuddy-cluster-sft"

    def finished() -> bool:
        status = json.loads(cluster.kubectl("get", "job", job, "-o", "json").stdout)["status"]
        assert not status.get("failed"), "the SFT Job's pod failed"
        return bool(status.get("succeeded"))

    cluster.wait_for(finished, timeout_s=600, what="the SFT Job to complete")
    keys = asyncio.run(_keys(store.model_copy(update={"url": "s3://phonebuddy/sft"}), ""))
    cluster.kubectl("delete", "-f", "-", stdin=rendered)
    return keys


def _check_network_policies(cluster: LocalCluster, pods: list[dict]) -> None:
    """The release's NetworkPolicies and pods as the API server stored them, EVALUATED (not
    enforced: this cluster's CNI is loopback only, its pods are on the host's network, and no
    CNI that enforces NetworkPolicies can be installed here) with Kubernetes' semantics
    (network_policy.py): every pod isolated both ways, and who may reach whom. Reading them back
    catches what 1.20 would drop silently (it prunes fields it does not know)."""
    stored = json.loads(cluster.kubectl("get", "networkpolicies", "-l",
                                        f"app.kubernetes.io/instance={RELEASE}",
                                        "-o", "json").stdout)["items"]  # fmt: skip
    sent = [doc for doc in yaml.safe_load_all(cluster.helm("get", "manifest", RELEASE).stdout)
            if doc and doc["kind"] == "NetworkPolicy"]  # fmt: skip
    by_name = {policy["metadata"]["name"]: policy for policy in stored}
    assert set(by_name) == {policy["metadata"]["name"] for policy in sent}
    for policy in sent:
        kept = by_name[policy["metadata"]["name"]]
        # Empty lists and maps are left out when stored (`ingress: []` reads back as absent).
        assert _pruned(_non_empty(policy["spec"]), kept["spec"]) == [], policy["metadata"]["name"]
    # 1.21+ labels every namespace with its name; 1.20 does not: label kube-system as a current
    # cluster would, for the DNS rule's namespaceSelector.
    cluster.kubectl("label", "namespace", "kube-system", "--overwrite",
                    "kubernetes.io/metadata.name=kube-system")  # fmt: skip
    namespaces = {ns["metadata"]["name"]: ns["metadata"].get("labels", {})
                  for ns in json.loads(cluster.kubectl("get", "namespaces", "-o",
                                                       "json").stdout)["items"]}  # fmt: skip
    evaluator = Evaluator(stored, namespaces)
    released = [Pod.of(pod) for pod in pods]
    by_role = {pod.labels["app.kubernetes.io/component"]: pod for pod in released}
    by_role["training"] = by_role.pop("cluster-sft")  # the SFT Job's pod
    assert {"nats", "minio", "phoneworld", "teacher", "broker", "training"} <= set(by_role)
    # No cluster DNS here: the peer the DNS rule names, in the namespace as stored.
    dns = Pod("coredns", "kube-system", {"k8s-app": "kube-dns"}, "10.96.0.10",
              {"dns": (53, "UDP"), "dns-tcp": (53, "TCP")})  # fmt: skip
    outside = Outside("198.51.100.7", "an address on the internet")
    nats, store = by_role["nats"], by_role["minio"]
    nats_port = nats.named_ports["client"][0]
    store_port = store.named_ports["s3"][0]
    for pod in released:
        assert evaluator.isolated(pod, "Ingress"), pod.name
        assert evaluator.isolated(pod, "Egress"), pod.name
        assert evaluator.allows(pod, dns, 53, "UDP"), pod.name
        assert evaluator.allows(pod, dns, 53, "TCP"), pod.name
        assert not evaluator.allows(pod, outside, 443), pod.name
    job = by_role["training"]
    assert evaluator.allows(job, nats, nats_port)
    assert evaluator.allows(job, store, store_port)
    assert not evaluator.allows(job, outside, 443)
    assert not evaluator.allows(job, by_role["phoneworld"],
                                by_role["phoneworld"].named_ports["http"][0])  # fmt: skip
    teacher_port = by_role["teacher"].named_ports["http"][0]
    assert evaluator.allows(by_role["broker"], by_role["teacher"], teacher_port)
    assert evaluator.allows(by_role["teacher"], nats, nats_port)
    # Neither PhoneWorld nor the teacher uses the object store; PhoneWorld calls no service.
    assert not evaluator.allows(by_role["teacher"], store, store_port)
    assert not evaluator.allows(by_role["phoneworld"], store, store_port)
    assert not evaluator.allows(by_role["phoneworld"], by_role["teacher"], teacher_port)


def test_install_roll_out_scale_and_uninstall(cluster: LocalCluster, tmp_path: Path) -> None:
    ports = _ports()
    weed_args = [
        "-logdir=/tmp", "mini", "-dir=/data", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
        "-s3.port={{ .port }}", "-s3.config=/etc/s3/s3.json", "-webdav=false",
        "-admin.ui=false", "-master.telemetry=false", "-s3.autoCreateBucket=false",
        "-volume.max=100", *_weed_ports(),
    ]  # fmt: skip
    settings = [
        f"phoneworld.service.port={ports['phoneworld']}",
        f"teacher.service.port={ports['teacher']}", f"broker.service.port={ports['broker']}",
    ]  # fmt: skip
    ports_values = tmp_path / "ports.yaml"  # the same ports for `jobs render`
    ports_values.write_text(yaml.safe_dump({
        "nats": {"service": {"port": ports["nats"], "monitorPort": ports["nats_monitor"]}},
        "objectStore": {"minio": {"service": {"port": ports["s3"]}}},
    }))  # fmt: skip
    release_values = [CHART / "ci" / "local-cluster-values.yaml", ports_values]
    args = ["-f", str(release_values[0]), "-f", str(ports_values),
            "--set-json", f"objectStore.minio.args={json.dumps(weed_args)}"]  # fmt: skip
    for setting in settings:
        args += ["--set", setting]
    try:
        cluster.helm("install", RELEASE, str(CHART), *args, "--wait", "--timeout", "6m")
        cluster.wait_for(lambda: _workloads_ready(cluster), timeout_s=60, what="workloads")
        pdb = json.loads(cluster.kubectl("get", "pdb", "-o", "json").stdout)["items"]
        assert pdb[0]["apiVersion"] == "policy/v1beta1"  # chosen by .Capabilities on 1.20

        users = _secret(cluster, f"{RELEASE}-phonebuddy-nats-users")
        nats = NatsSettings(url=f"nats://127.0.0.1:{ports['nats']}", user="client",
                            password=users["client"])  # fmt: skip
        keys = _secret(cluster, f"{RELEASE}-phonebuddy-object-store")
        store = StoreSettings(
            url="s3://phonebuddy", endpoint=f"127.0.0.1:{ports['s3']}",
            access_key=keys["accessKey"], secret_key=keys["secretKey"],
        )  # fmt: skip
        episodes = asyncio.run(_teacher_rollout(nats, store, "in-cluster", group_size=2))
        assert len(episodes) == 4
        assert len({e.device_id for e in episodes}) == 2  # 4 broker workers, 2 phones
        assert all(e.verdict is not None and e.verdict.success for e in episodes)
        assert {e.policy.version for e in episodes} == {"phoneworld-oracle"}

        rendered = _start_sft_job(cluster, store, release_values, tmp_path)
        _check_network_policies(cluster, _release_pods_with_the_job(cluster))
        keys = _finish_sft_job(cluster, store, rendered)
        step = "cluster-sft/checkpoints/step-00000002"
        assert {
            f"{step}/COMPLETE",
            f"{step}/model/model.safetensors",
            "cluster-sft/latest.json",
        } <= set(keys)

        assert _phones(ports["phoneworld"]) == 2
        cluster.helm("upgrade", RELEASE, str(CHART), *args, "--set", "phoneworld.devicesPerPod=3",
                     "--wait", "--timeout", "6m")  # fmt: skip
        cluster.wait_for(lambda: _phones(ports["phoneworld"]) == 3, timeout_s=120,
                         what="PhoneWorld to serve 3 phones")  # fmt: skip
        # The broker now leases all three: 6 episodes on 4 workers hold 3 phones at once.
        more = asyncio.run(_teacher_rollout(nats, store, "after-upgrade", group_size=3))
        assert len(more) == 6
        assert all(e.verdict is not None and e.verdict.success for e in more)
        assert len({e.device_id for e in more}) == 3
        again = _secret(cluster, f"{RELEASE}-phonebuddy-nats-users")
        assert again == users  # generated credentials survive an upgrade
    except BaseException:
        sys.stderr.write(cluster.pod_log_tail() + "\n" + cluster.pod_states())
        raise
    cluster.helm("uninstall", RELEASE, "--wait", "--timeout", "3m")

    def left() -> str:
        kinds = "all,secrets,configmaps,pvc,networkpolicies,pdb,serviceaccounts"
        selector = f"app.kubernetes.io/instance={RELEASE}"
        return cluster.kubectl("get", kinds, "-l", selector, "-o", "name").stdout.strip()

    # The garbage collector removes ReplicaSets and pods after their owners; pods end within
    # their grace period (every service handles SIGTERM).
    cluster.wait_for(lambda: left() == "", timeout_s=120, what="nothing of the release left")


CRDS = Path(__file__).resolve().parent / "crds"
CUSTOM_KINDS = {"ScaledObject", "ServiceMonitor", "PodMonitor", "PrometheusRule",
                "InferenceService"}  # fmt: skip


def _pruned(sent: object, returned: object, path: str = "") -> list[str]:
    """Fields of `sent` that the API server dropped: Kubernetes 1.20 prunes fields a CRD's
    schema does not know instead of rejecting them (strict field validation is 1.25+)."""
    if isinstance(sent, dict) and isinstance(returned, dict):
        return [p for key, value in sent.items()
                for p in ([f"{path}.{key}"] if key not in returned
                          else _pruned(value, returned[key], f"{path}.{key}"))]  # fmt: skip
    if isinstance(sent, list) and isinstance(returned, list):
        return [p for i, (a, b) in enumerate(zip(sent, returned, strict=False))
                for p in _pruned(a, b, f"{path}[{i}]")]  # fmt: skip
    return []


def _non_empty(value: object) -> object:
    """`value` without the empty lists and maps inside it."""
    if isinstance(value, dict):
        return {k: _non_empty(v) for k, v in value.items() if v not in ([], {})}
    if isinstance(value, list):
        return [_non_empty(v) for v in value]
    return value


def _dry_run(cluster: LocalCluster, obj: dict) -> subprocess.CompletedProcess[str]:
    return cluster.kubectl("apply", "--dry-run=server", "-o", "json", "-f", "-",
                           stdin=json.dumps(obj), check=False)  # fmt: skip


def test_custom_resources_are_accepted_whole_by_their_upstream_crds(cluster: LocalCluster) -> None:
    """KEDA's, the Prometheus Operator's and KServe's CRDs (tests/charts/crds, vendored) in the
    API server; every custom resource of every CI values file passes a server-side dry run with
    no field pruned (1.20 would drop an unknown one silently), and a misspelt or mistyped field
    is refused."""
    names = []
    for crd in sorted(CRDS.glob("*.yaml")):
        cluster.kubectl("apply", "-f", str(crd))
        names.append(f"crd/{yaml.safe_load(crd.read_text())['metadata']['name']}")
    cluster.kubectl("wait", "--for=condition=Established", *names, "--timeout=60s")
    checked: set[str] = set()
    for values in sorted((CHART / "ci").glob("*-values.yaml")):
        rendered = cluster.helm("template", RELEASE, str(CHART), "-f", str(values)).stdout
        for obj in (doc for doc in yaml.safe_load_all(rendered) if doc):
            if obj["kind"] not in CUSTOM_KINDS:
                continue
            result = _dry_run(cluster, obj)
            assert result.returncode == 0, f"{values.name} {obj['kind']}: {result.stderr}"
            assert _pruned(obj, json.loads(result.stdout)) == [], f"{values.name} {obj['kind']}"
            checked.add(obj["kind"])
            if obj["kind"] == "ServiceMonitor":
                monitor = obj
    assert checked == CUSTOM_KINDS

    misspelt = json.loads(json.dumps(monitor))
    misspelt["spec"]["endpoints"][0]["intervall"] = "15s"
    result = _dry_run(cluster, misspelt)  # kubectl checks it against the CRD's published schema
    assert result.returncode != 0
    assert 'unknown field "intervall"' in result.stderr
    mistyped = json.loads(json.dumps(monitor))
    mistyped["spec"]["endpoints"] = "http"
    assert _dry_run(cluster, mistyped).returncode != 0
