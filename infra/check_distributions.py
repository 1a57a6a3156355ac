"""Each distribution installs alone into a fresh virtual environment and imports cleanly.

For every `libs/*`, `services/*` and `training-jobs/*` distribution: build its wheel (all of
them once, into a temporary wheelhouse), make an empty venv, install the distribution with all
of its extras and exactly the PhoneBuddy distributions it declares (transitively) from that
wheelhouse, everything else from the package indexes pinned by `constraints.txt`, then

- import every module of its packages (`pkgutil.walk_packages`): an undeclared dependency
  fails here,
- load every entry point it declares, and render `--help` of each `phonebuddy.cli` command it
  adds (so a command works in an image without `phonebuddy-cli`),
- run `python -m phonebuddy.<pkg> --help` for each package with a `__main__`.

Venvs are made one after the other and removed when checked; pip's cache is shared. Prints one
line per distribution and a total; exits 1 if any failed. `make check-dists` runs it.

    python infra/check_distributions.py [NAME ...]   # all distributions when none are named
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUPS = ("libs", "services", "training-jobs")
CONSTRAINTS = ROOT / "constraints.txt"

# Runs inside each fresh venv: argv = distribution name, then its packages.
IMPORT_CHECK = r"""
import contextlib, importlib, io, pkgutil, sys, traceback
from importlib.metadata import distribution

name, packages = sys.argv[1], sys.argv[2:]
failures, modules = [], 0

def failed(what):
    failures.append(f"{what}:\n" + traceback.format_exc(limit=-3).rstrip())

for top in packages:
    try:
        package = importlib.import_module(top)
    except Exception:
        failed(f"import {top}")
        continue
    modules += 1
    errors = []
    for info in pkgutil.walk_packages(package.__path__, top + ".", onerror=errors.append):
        if info.name.rpartition(".")[2] == "__main__":
            continue  # run, not imported: checked with `python -m ... --help` below
        try:
            importlib.import_module(info.name)
            modules += 1
        except Exception:
            failed(f"import {info.name}")
    failures += [f"walk {e}" for e in errors]

for entry in distribution(name).entry_points:
    try:
        loaded = entry.load()
    except Exception:
        failed(f"entry point {entry.group}:{entry.name} = {entry.value}")
        continue
    if entry.group != "phonebuddy.cli":
        continue
    try:  # as `phonebuddy` mounts it: a sub-command group of the command line
        import typer
        import typer.main
        parent = typer.Typer()
        parent.add_typer(loaded, name=entry.name)
        command = typer.main.get_command(parent)
        with contextlib.redirect_stdout(io.StringIO()):
            command.main([entry.name, "--help"], prog_name="phonebuddy", standalone_mode=False)
    except Exception:
        failed(f"phonebuddy {entry.name} --help")

for failure in failures:
    print(failure, file=sys.stderr)
print(modules)
sys.exit(1 if failures else 0)
"""


# Runs in the build environment: argv = wheelhouse, then project folders.
BUILD_WHEELS = r"""
import os, sys
from hatchling.build import build_wheel

out = os.path.abspath(sys.argv[1])
os.makedirs(out, exist_ok=True)
for project in sys.argv[2:]:
    os.chdir(project)
    build_wheel(out)
"""


@dataclass(frozen=True)
class Dist:
    name: str
    path: Path
    dependencies: tuple[str, ...]  # requirement strings
    optional: dict[str, tuple[str, ...]]  # extra -> requirement strings
    packages: tuple[str, ...]  # phonebuddy.<package> it ships
    mains: tuple[str, ...]  # packages with a __main__ module


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_requirement(text: str) -> tuple[str, tuple[str, ...]]:
    """(normalized name, extras) of a requirement string."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?", text)
    if match is None:
        raise ValueError(f"cannot read the requirement {text!r}")
    extras = tuple(sorted(e.strip() for e in (match.group(2) or "").split(",") if e.strip()))
    return normalize(match.group(1)), extras


def discover() -> dict[str, Dist]:
    found = {}
    for group in GROUPS:
        for project in sorted((ROOT / group).glob("*/pyproject.toml")):
            meta = tomllib.loads(project.read_text())["project"]
            optional = meta.get("optional-dependencies", {})
            src = project.parent / "src" / "phonebuddy"
            packages = sorted(p.name for p in src.iterdir() if p.is_dir()) if src.is_dir() else []
            mains = [p for p in packages if (src / p / "__main__.py").exists()]
            found[normalize(meta["name"])] = Dist(
                name=normalize(meta["name"]),
                path=project.parent,
                dependencies=tuple(meta.get("dependencies", [])),
                optional={extra: tuple(reqs) for extra, reqs in optional.items()},
                packages=tuple(f"phonebuddy.{p}" for p in packages),
                mains=tuple(f"phonebuddy.{p}" for p in mains),
            )
    return found


def closure(dists: dict[str, Dist], name: str) -> dict[str, set[str]]:
    """The local distributions `name` (with all its extras) brings in -> the extras asked of
    each. A dependency's extras are followed only when a requirement asks for them."""
    wanted: dict[str, set[str]] = {name: set(dists[name].optional)}
    pending = [name]
    while pending:
        current = dists[pending.pop()]
        texts = list(current.dependencies)
        for extra in sorted(wanted[current.name]):
            if extra not in current.optional:
                raise SystemExit(f"check-dists: {current.name} has no extra {extra!r}")
            texts += current.optional[extra]
        for text in texts:
            dep, extras = parse_requirement(text)
            if dep not in dists:
                continue
            before = set(wanted.get(dep, set()))
            wanted.setdefault(dep, set()).update(extras)
            if dep not in pending and (dep not in before or wanted[dep] != before):
                pending.append(dep)
    return wanted


def build_wheels(dists: dict[str, Dist], work: Path) -> dict[str, Path]:
    """Every distribution's wheel, built in one build environment (one hatchling install, not
    one per project)."""
    builder = work / "build-env"
    wheelhouse = work / "wheels"
    python = venv(builder)
    pip(builder, "install", "-q", "--no-input", "hatchling>=1.27")
    projects = [str(d.path) for d in dists.values()]
    subprocess.run([str(python), "-c", BUILD_WHEELS, str(wheelhouse), *projects], check=True)
    wheels = {normalize(w.name.split("-", 1)[0]): w for w in wheelhouse.glob("*.whl")}
    missing = sorted(set(dists) - set(wheels))
    if missing:
        raise SystemExit(f"check-dists: no wheel was built for {missing}")
    return wheels


def venv(path: Path) -> Path:
    """An empty virtual environment (no pip of its own: this process's pip installs into it)."""
    python = os.environ.get("PYTHON", "python3")
    subprocess.run([python, "-m", "venv", "--without-pip", str(path)], check=True)
    return path / "bin" / "python"


def pip(env: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """This process's pip, installing into `env`; its output is kept for when it fails."""
    command = [sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise SystemExit(
            f"check-dists: pip {' '.join(args[:1])} failed:\n{done.stdout}{done.stderr}"
        )
    return done


def check(dist: Dist, dists: dict[str, Dist], wheels: dict[str, Path], work: Path) -> str | None:
    """None when `dist` installs alone and imports cleanly; else what went wrong."""
    env = work / dist.name
    python = venv(env)
    try:
        targets = []
        for name, extras in sorted(closure(dists, dist.name).items()):
            suffix = f"[{','.join(sorted(extras))}]" if extras else ""
            targets.append(f"{wheels[name]}{suffix}")
        install = pip(env, "install", "-q", "--no-input", "--no-compile",
                      "-c", str(CONSTRAINTS), *targets, check=False)  # fmt: skip
        if install.returncode != 0:
            return f"pip install failed:\n{install.stdout}{install.stderr}".rstrip()
        imported = subprocess.run(
            [str(python), "-c", IMPORT_CHECK, dist.name, *dist.packages],
            capture_output=True, text=True, check=False, cwd=work,
        )  # fmt: skip
        if imported.returncode != 0:
            return imported.stderr.rstrip() or imported.stdout.rstrip()
        for package in dist.mains:
            ran = subprocess.run([str(python), "-m", package, "--help"], capture_output=True,
                                 text=True, check=False, cwd=work)  # fmt: skip
            if ran.returncode != 0:
                return f"python -m {package} --help exited {ran.returncode}:\n{ran.stderr}"
        return None
    finally:
        shutil.rmtree(env, ignore_errors=True)


def say(text: str, *, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="distributions to check (default: all)")
    args = parser.parse_args(argv)
    dists = discover()
    unknown = sorted(set(map(normalize, args.names)) - set(dists))
    if unknown:
        parser.error(f"no distribution named {unknown}; known: {', '.join(sorted(dists))}")
    chosen = sorted(set(map(normalize, args.names))) or sorted(dists)
    started = time.monotonic()
    failed = []
    with tempfile.TemporaryDirectory(prefix="pb-check-dists-") as tmp:
        work = Path(tmp)
        wheels = build_wheels(dists, work)
        say(f"check-dists: built {len(wheels)} wheels in {time.monotonic() - started:.0f} s")
        for name in chosen:
            began = time.monotonic()
            problem = check(dists[name], dists, wheels, work)
            took = time.monotonic() - began
            say(f"check-dists: {'ok  ' if problem is None else 'FAIL'} {name} ({took:.0f} s)")
            if problem is not None:
                failed.append(name)
                say("  " + problem.replace("\n", "\n  "), err=True)
    total = time.monotonic() - started
    verdict = f"failed: {', '.join(failed)}" if failed else "each installs alone and imports"
    say(f"check-dists: {len(chosen)} distributions in {total:.0f} s; {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
