"""A real one-node Kubernetes cluster on loopback: etcd, kube-apiserver, kube-controller-manager,
kube-scheduler and a kubelet on containerd, each its own process on free ports, with a private
PKI made by openssl. Binaries: Kubernetes 1.20 built from Debian's source package by
`infra/kube/build_kubernetes.sh` (cached in ~/.cache/phonebuddy/kube/v1.20, or
$PHONEBUDDY_KUBE_BIN); etcd and containerd from Debian. Needs root (the kubelet, containerd).

Limits of this cluster (see ../shared/design/NOTES.md): the CNI is loopback only, so pods use
the host network; there is no cluster DNS and no kube-proxy; `kubectl logs` cannot reach the
kubelet, so `pod_log_tail` reads the log files under /var/log/pods.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import ssl
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from phonebuddy.testing.containerd import Containerd
from phonebuddy.testing.ports import free_port
from phonebuddy.testing.process import ManagedProcess, find_binary

KUBE_BIN_VARIABLE = "PHONEBUDDY_KUBE_BIN"
NODE = "phonebuddy-node"
HOST_POD_LOGS = Path("/var/log/pods")


def kube_bin() -> Path:
    if os.environ.get(KUBE_BIN_VARIABLE):
        return Path(os.environ[KUBE_BIN_VARIABLE])
    cache = Path(os.environ.get("PHONEBUDDY_KUBE_CACHE", Path.home() / ".cache/phonebuddy/kube"))
    return cache / "v1.20"


def kube_binary(name: str) -> str:
    path = kube_bin() / name
    if not os.access(path, os.X_OK):
        raise FileNotFoundError(f"{path} is missing: run infra/kube/build_kubernetes.sh")
    return str(path)


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


class Pki:
    """CA, API server certificate, admin client, kubelet client and service-account keys."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                 "-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=phonebuddy-test-ca",
                 cwd=folder)  # fmt: skip
        self.cert(
            "apiserver",
            "/CN=kube-apiserver",
            "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,IP:10.0.0.1",
        )
        self.cert("admin", "/O=system:masters/CN=admin")
        self.cert("kubelet", f"/O=system:nodes/CN=system:node:{NODE}",
                  "subjectAltName=IP:127.0.0.1,DNS:localhost")  # fmt: skip
        _openssl("genrsa", "-out", "sa.key", "2048", cwd=folder)
        _openssl("rsa", "-in", "sa.key", "-pubout", "-out", "sa.pub", cwd=folder)

    def cert(self, name: str, subject: str, extension: str | None = None) -> None:
        _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key",
                 "-out", f"{name}.csr", "-subj", subject, cwd=self.folder)  # fmt: skip
        extra = []
        if extension:
            (self.folder / f"{name}.ext").write_text(extension + "\n")
            extra = ["-extfile", f"{name}.ext"]
        _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                 "-CAcreateserial", "-days", "2", "-out", f"{name}.crt", *extra,
                 cwd=self.folder)  # fmt: skip

    def path(self, name: str) -> str:
        return str(self.folder / name)

    def kubeconfig(self, server: str, user: str, target: Path) -> Path:
        def b64(name: str) -> str:
            return base64.b64encode((self.folder / name).read_bytes()).decode()

        config = {
            "apiVersion": "v1", "kind": "Config", "current-context": "local",
            "clusters": [{"name": "local", "cluster": {
                "server": server, "certificate-authority-data": b64("ca.crt")}}],
            "users": [{"name": user, "user": {
                "client-certificate-data": b64(f"{user}.crt"),
                "client-key-data": b64(f"{user}.key")}}],
            "contexts": [{"name": "local", "context": {"cluster": "local", "user": user}}],
        }  # fmt: skip
        target.write_text(json.dumps(config))
        target.chmod(0o600)
        return target


class _Command(ManagedProcess):
    """A process with a fixed command line and a readiness probe."""

    def __init__(self, name: str, command: Sequence[str], ready: Any, work_dir: Path,
                 timeout_s: float = 60.0) -> None:  # fmt: skip
        self.name = name
        self.ready_timeout_s = timeout_s
        super().__init__(work_dir=work_dir)
        self._command = list(command)
        self._ready = ready

    def command(self) -> Sequence[str]:
        return self._command

    def is_ready(self) -> bool:
        return bool(self._ready())


class LocalCluster:
    """The cluster, started in order and stopped in reverse; `kubectl(...)` runs as admin."""

    def __init__(self, work_dir: Path, *, pause_image: str) -> None:
        self.work_dir = work_dir
        self.pause_image = pause_image
        self.pki = Pki(work_dir / "pki")
        self.api_port = free_port("127.0.0.1")
        self.server = f"https://127.0.0.1:{self.api_port}"
        self.kubeconfig = self.pki.kubeconfig(self.server, "admin", work_dir / "admin.conf")
        self.kubelet_config = self.pki.kubeconfig(self.server, "kubelet", work_dir / "kubelet.conf")
        self.started = time.time()
        self._stack = contextlib.ExitStack()
        self.containerd: Containerd | None = None

    def __enter__(self) -> LocalCluster:
        try:
            self._start()
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _https_ok(self, path: str) -> bool:
        context = ssl.create_default_context(cafile=self.pki.path("ca.crt"))
        context.load_cert_chain(self.pki.path("admin.crt"), self.pki.path("admin.key"))
        try:
            response = httpx.get(f"{self.server}{path}", verify=context, timeout=2)
        except httpx.HTTPError:
            return False
        return response.status_code == 200

    def _start(self) -> None:
        work, pki = self.work_dir, self.pki
        client, peer = free_port("127.0.0.1"), free_port("127.0.0.1")
        etcd_url = f"http://127.0.0.1:{client}"
        self._stack.enter_context(_Command("etcd", [
            find_binary("etcd"), f"--data-dir={work / 'etcd'}",
            f"--listen-client-urls={etcd_url}", f"--advertise-client-urls={etcd_url}",
            f"--listen-peer-urls=http://127.0.0.1:{peer}", "--max-request-bytes=4194304",
            "--log-level=warn",
        ], lambda: _http_ok(f"{etcd_url}/health"), work / "etcd-process"))  # fmt: skip
        self._stack.enter_context(_Command("kube-apiserver", [
            kube_binary("kube-apiserver"), "--bind-address=127.0.0.1",
            f"--secure-port={self.api_port}", "--insecure-port=0", f"--etcd-servers={etcd_url}",
            "--endpoint-reconciler-type=none", "--authorization-mode=Node,RBAC",
            f"--client-ca-file={pki.path('ca.crt')}",
            f"--tls-cert-file={pki.path('apiserver.crt')}",
            f"--tls-private-key-file={pki.path('apiserver.key')}",
            f"--kubelet-client-certificate={pki.path('admin.crt')}",
            f"--kubelet-client-key={pki.path('admin.key')}",
            f"--service-account-key-file={pki.path('sa.pub')}",
            f"--service-account-signing-key-file={pki.path('sa.key')}",
            "--service-account-issuer=https://kubernetes.default.svc",
            "--service-cluster-ip-range=10.0.0.0/24", "--allow-privileged=true",
            "--enable-admission-plugins=NamespaceLifecycle,ServiceAccount", "--v=0",
        ], lambda: self._https_ok("/readyz"), work / "apiserver-process", 90))  # fmt: skip
        kubeconfig = str(self.kubeconfig)
        self._stack.enter_context(_Command("kube-controller-manager", [
            kube_binary("kube-controller-manager"), f"--kubeconfig={kubeconfig}",
            "--leader-elect=false", "--port=0", "--secure-port=0", "--controllers=*",
            f"--service-account-private-key-file={pki.path('sa.key')}",
            f"--root-ca-file={pki.path('ca.crt')}", "--use-service-account-credentials=false",
        ], lambda: True, work / "controller-manager-process"))  # fmt: skip
        self._stack.enter_context(_Command("kube-scheduler", [
            kube_binary("kube-scheduler"), f"--kubeconfig={kubeconfig}", "--leader-elect=false",
            "--port=0", "--secure-port=0",
        ], lambda: True, work / "scheduler-process"))  # fmt: skip
        self.containerd = self._stack.enter_context(
            Containerd(work_dir=work / "containerd", sandbox_image=self.pause_image)
        )
        self._start_kubelet()

    def _start_kubelet(self) -> None:
        work = self.work_dir
        root = work / "kubelet"
        root.mkdir(exist_ok=True)
        assert self.containerd is not None
        health = free_port("127.0.0.1")
        config = {
            "apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
            "address": "127.0.0.1", "port": free_port("127.0.0.1"), "readOnlyPort": 0,
            "healthzBindAddress": "127.0.0.1", "healthzPort": health,
            "cgroupDriver": "cgroupfs", "cgroupsPerQOS": False, "enforceNodeAllocatable": [],
            "failSwapOn": False, "oomScoreAdj": 0, "resolvConf": "/etc/resolv.conf",
            "authentication": {"anonymous": {"enabled": False}, "webhook": {"enabled": False},
                               "x509": {"clientCAFile": self.pki.path("ca.crt")}},
            "authorization": {"mode": "AlwaysAllow"},
            "tlsCertFile": self.pki.path("kubelet.crt"),
            "tlsPrivateKeyFile": self.pki.path("kubelet.key"),
            "evictionHard": {"memory.available": "100Mi", "nodefs.available": "1%",
                             "imagefs.available": "1%"},
            "imageGCHighThresholdPercent": 100, "imageGCLowThresholdPercent": 99,
            "serializeImagePulls": False,
        }  # fmt: skip
        (work / "kubelet-config.json").write_text(json.dumps(config))
        # Not in a mount namespace of its own: the volumes the kubelet mounts (Secrets are
        # tmpfs) must be visible to containerd, which runs outside it.
        self._stack.enter_context(_Command("kubelet", [
            kube_binary("kubelet"), f"--config={work / 'kubelet-config.json'}",
            f"--kubeconfig={self.kubelet_config}", f"--root-dir={root}",
            "--container-runtime=remote",
            f"--container-runtime-endpoint=unix://{self.containerd.socket}",
            f"--hostname-override={NODE}", "--node-ip=127.0.0.1",
            f"--pod-infra-container-image={self.pause_image}", "--v=1",
        ], lambda: _http_ok(f"http://127.0.0.1:{health}/healthz"), work / "kubelet-process",
            90))  # fmt: skip
        self._stack.callback(self._unmount_pods, root)
        self._stack.callback(self._remove_pod_logs)
        self.wait_for(lambda: self._node_ready(), timeout_s=120, what="the node to be Ready")

    def _unmount_pods(self, root: Path) -> None:
        subprocess.run(["sh", "-c", f"grep ' {root}' /proc/mounts | cut -d' ' -f2 | sort -r "
                        "| xargs -r umount -l"], check=False)  # fmt: skip

    def _node_ready(self) -> bool:
        result = self.kubectl("get", "node", NODE, "-o", "json", check=False)
        if result.returncode != 0:
            return False
        conditions = json.loads(result.stdout)["status"].get("conditions", [])
        return any(c["type"] == "Ready" and c["status"] == "True" for c in conditions)

    def kubectl(self, *args: str, check: bool = True, stdin: str | None = None,
                timeout_s: float = 120) -> subprocess.CompletedProcess[str]:  # fmt: skip
        result = subprocess.run(
            [find_binary("kubectl"), f"--kubeconfig={self.kubeconfig}", *args],
            capture_output=True, text=True, input=stdin, check=False, timeout=timeout_s,
        )  # fmt: skip
        if check and result.returncode != 0:
            raise RuntimeError(f"kubectl {' '.join(args)}: {result.stderr.strip()}")
        return result

    def helm(
        self, *args: str, check: bool = True, timeout_s: float = 600
    ) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [find_binary("helm"), f"--kubeconfig={self.kubeconfig}", *args],
            capture_output=True, text=True, check=False, timeout=timeout_s,
        )  # fmt: skip
        if check and result.returncode != 0:
            raise RuntimeError(f"helm {' '.join(args)}: {result.stderr.strip()}")
        return result

    def wait_for(self, condition: Any, *, timeout_s: float, what: str) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout_s} s for {what}")
            time.sleep(0.5)

    def _own_log_folders(self) -> list[Path]:
        """This cluster's pod log folders under the kubelet's fixed /var/log/pods."""
        if not HOST_POD_LOGS.exists():
            return []
        return sorted(p for p in HOST_POD_LOGS.iterdir() if p.stat().st_mtime >= self.started)

    def pod_log_tail(self, lines: int = 40) -> str:
        """The last lines of every container log of this cluster's pods (`kubectl logs` cannot
        reach a kubelet on a loopback node address)."""
        texts = []
        for folder in self._own_log_folders():
            for path in sorted(folder.rglob("*.log")):
                content = path.read_text(errors="replace").splitlines()[-lines:]
                texts.append(f"--- {folder.name}/{path.name}\n" + "\n".join(content))
        return "\n".join(texts)

    def pod_states(self) -> str:
        """Every container's restarts and why its last run ended (OOMKilled, Error...), and the
        cluster's warning events (failed probes, kills): what the logs cannot say."""
        found = self.kubectl("get", "pods", "-A", "-o", "json", check=False)
        lines = []
        for pod in json.loads(found.stdout or '{"items": []}')["items"]:
            for status in pod.get("status", {}).get("containerStatuses", []):
                ended = status.get("lastState", {}).get("terminated") or {}
                reason, code = ended.get("reason", "-"), ended.get("exitCode", "-")
                name = f"{pod['metadata']['name']}/{status['name']}"
                restarts = status.get("restartCount", 0)
                lines.append(f"{name}: restarts {restarts}, last ended {reason} (exit {code})")
        events = self.kubectl("get", "events", "-A", "--field-selector", "type=Warning",
                              check=False)  # fmt: skip
        return "\n".join(["--- pod states", *lines, "--- warning events", events.stdout])

    def _remove_pod_logs(self) -> None:
        for folder in self._own_log_folders():
            subprocess.run(["rm", "-rf", str(folder)], check=False)


def _http_ok(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False
