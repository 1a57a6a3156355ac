"""A real containerd (Debian package `containerd`, with `runc`) on a private socket and state
folder, and `ctr` to import OCI archives and run containers from them. Needs root."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from phonebuddy.testing.process import ManagedProcess, find_binary

NAMESPACE = "k8s.io"  # the kubelet's namespace: images imported here are the node's
CNI_PLUGINS = "/usr/lib/cni"


class Containerd(ManagedProcess):
    name = "containerd"
    ready_timeout_s = 30.0

    def __init__(self, *, work_dir: Path | None = None, sandbox_image: str | None = None) -> None:
        super().__init__(work_dir=work_dir)
        self.socket = self.work_dir / "containerd.sock"
        self.sandbox_image = sandbox_image

    def command(self) -> Sequence[str]:
        # CNI: loopback only (Debian's containernetworking-plugins); pods use the host network.
        cni = self.work_dir / "cni"
        cni.mkdir(exist_ok=True)
        (cni / "10-loopback.conflist").write_text(
            '{"cniVersion": "0.4.0", "name": "loopback", "plugins": [{"type": "loopback"}]}\n'
        )
        cri = [
            '[plugins."io.containerd.grpc.v1.cri"]',
            "  restrict_oom_score_adj = true",
            "  enable_selinux = false",
        ]
        if self.sandbox_image:
            cri.append(f'  sandbox_image = "{self.sandbox_image}"')
        cri += [
            '[plugins."io.containerd.grpc.v1.cri".cni]',
            f'  bin_dir = "{CNI_PLUGINS}"',
            f'  conf_dir = "{cni}"',
        ]
        config = self.work_dir / "config.toml"
        config.write_text(
            "\n".join([
                "version = 2",
                f'root = "{self.work_dir / "root"}"',
                f'state = "{self.work_dir / "state"}"',
                "[grpc]",
                f'  address = "{self.socket}"',
                "[ttrpc]",
                f'  address = "{self.socket}.ttrpc"',
                *cri,
            ])
            + "\n"
        )  # fmt: skip
        return [find_binary("containerd"), "--config", str(config)]

    def is_ready(self) -> bool:
        if not self.socket.exists():
            return False
        return self.ctr("version", check=False).returncode == 0

    def ctr(
        self, *args: str, check: bool = True, timeout_s: float = 300
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [find_binary("ctr"), "--address", str(self.socket), "--namespace", NAMESPACE, *args],
            capture_output=True, text=True, check=check, timeout=timeout_s,
        )  # fmt: skip

    def stop(self, timeout_s: float = 10.0) -> None:
        """Kill every container first: their processes belong to shims, not to containerd, and
        would outlive it (and the test) otherwise."""
        if self.running:
            listed = self.ctr("tasks", "ls", "-q", check=False, timeout_s=30)
            tasks = listed.stdout.split()
            for task in tasks:
                self.ctr("tasks", "kill", "-s", "SIGKILL", task, check=False, timeout_s=30)
            for task in tasks:
                self.ctr("tasks", "delete", "-f", task, check=False, timeout_s=30)
        super().stop(timeout_s)
        # Shims of this containerd that are still there (a kill that came too late).
        subprocess.run(["pkill", "-KILL", "-f", f"containerd-shim.* -address {self.socket}"],
                       check=False)  # fmt: skip
        mounts = Path("/proc/mounts").read_text().splitlines()
        for target in sorted(
            (m.split()[1] for m in mounts if str(self.work_dir) in m), reverse=True
        ):
            subprocess.run(["umount", "-l", target], check=False)

    def import_image(self, archive: Path) -> None:
        self.ctr("images", "import", str(archive))

    def run(
        self, image: str, *command: str, name: str, timeout_s: float = 120
    ) -> subprocess.CompletedProcess[str]:
        """Run `command` in a container of `image` (host network) and remove it."""
        return self.ctr(
            "run", "--rm", "--net-host", image, name, *command, check=False, timeout_s=timeout_s
        )
