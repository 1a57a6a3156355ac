"""A small in-memory filesystem per device: what `adb push/pull`, `screencap FILE`,
`uiautomator dump FILE`, `ls`, `cat` and `rm` work on.

Only shared storage (`/sdcard`, also reachable as `/storage/emulated/0`) and `/data/local/tmp`
are writable, as for the real `shell` user. Files live in memory only; a device holds at most
`max_bytes` of them so that a client cannot exhaust the server's memory.
"""

from __future__ import annotations

import fnmatch
import posixpath
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

S_DIR = stat.S_IFDIR | 0o771
S_FILE = stat.S_IFREG | 0o660
S_CHAR = stat.S_IFCHR | 0o666
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
WRITABLE_ROOTS = ("/sdcard", "/data/local/tmp")
ALIASES = {
    "/storage/emulated/0": "/sdcard",
    "/storage/self/primary": "/sdcard",
    "/mnt/sdcard": "/sdcard",
}
INITIAL_DIRS = (
    "/sdcard/Download",
    "/sdcard/DCIM",
    "/sdcard/Pictures",
    "/sdcard/Documents",
    "/sdcard/Music",
    "/sdcard/Movies",
    "/data/local/tmp",
    "/system/bin",
    "/storage/emulated",
    "/dev",
)
NULL_DEVICE = "/dev/null"


class FileSystemError(Exception):
    """An operation that failed the way it fails on Android: `reason` is the errno text."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


@dataclass
class _Node:
    mode: int
    mtime: int
    data: bytes = b""
    children: dict[str, _Node] = field(default_factory=dict)

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.mode)

    @property
    def size(self) -> int:
        return 4096 if self.is_dir else len(self.data)


@dataclass(frozen=True, slots=True)
class FileInfo:
    name: str
    mode: int
    size: int
    mtime: int

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.mode)


def normalize(path: str, cwd: str = "/") -> str:
    """An absolute, normalized path with `/storage/emulated/0` and friends mapped to /sdcard."""
    joined = posixpath.normpath(posixpath.join(cwd, path)) if path else cwd
    if joined.startswith("//"):
        joined = "/" + joined.lstrip("/")
    for alias, target in ALIASES.items():
        if joined == alias or joined.startswith(alias + "/"):
            return target + joined[len(alias) :]
    return joined


def _writable(path: str) -> bool:
    return any(path.startswith(root + "/") for root in WRITABLE_ROOTS)


def _denied(path: str) -> FileSystemError:
    reason = "Permission denied" if path.startswith("/data") else "Read-only file system"
    return FileSystemError(path, reason)


class VirtualFS:
    """Thread-safe: the shell runs in worker threads while file sync runs on the event loop."""

    def __init__(self, clock: Callable[[], int], *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self._clock = clock
        self.max_bytes = max_bytes
        self._lock = threading.RLock()
        self._root = _Node(S_DIR, clock())
        self._used = 0
        for directory in INITIAL_DIRS:
            self._make_dirs(directory)
        self._lookup("/dev").children["null"] = _Node(S_CHAR, clock())

    # -- lookups -----------------------------------------------------------------------------
    def _lookup(self, path: str) -> _Node:
        node = self._root
        for part in path.strip("/").split("/") if path != "/" else []:
            if not node.is_dir:
                raise FileSystemError(path, "Not a directory")
            child = node.children.get(part)
            if child is None:
                raise FileSystemError(path, "No such file or directory")
            node = child
        return node

    def _parent(self, path: str) -> tuple[_Node, str]:
        parent_path, name = posixpath.split(path)
        parent = self._lookup(parent_path)
        if not parent.is_dir:
            raise FileSystemError(path, "Not a directory")
        return parent, name

    def _make_dirs(self, path: str) -> _Node:
        node = self._root
        for part in path.strip("/").split("/"):
            child = node.children.get(part)
            if child is None:
                child = node.children[part] = _Node(S_DIR, self._clock())
            elif not child.is_dir:
                raise FileSystemError(path, "Not a directory")
            node = child
        return node

    # -- reading -----------------------------------------------------------------------------
    def stat(self, path: str) -> FileInfo | None:
        path = normalize(path)
        with self._lock:
            try:
                node = self._lookup(path)
            except FileSystemError:
                return None
            return FileInfo(posixpath.basename(path) or "/", node.mode, node.size, node.mtime)

    def exists(self, path: str) -> bool:
        return self.stat(path) is not None

    def is_dir(self, path: str) -> bool:
        info = self.stat(path)
        return info is not None and info.is_dir

    def list_dir(self, path: str) -> list[FileInfo]:
        path = normalize(path)
        with self._lock:
            node = self._lookup(path)
            if not node.is_dir:
                raise FileSystemError(path, "Not a directory")
            return [
                FileInfo(name, child.mode, child.size, child.mtime)
                for name, child in sorted(node.children.items())
            ]

    def read(self, path: str) -> bytes:
        path = normalize(path)
        if path == NULL_DEVICE:
            return b""
        with self._lock:
            node = self._lookup(path)
            if node.is_dir:
                raise FileSystemError(path, "Is a directory")
            return node.data

    def glob(self, pattern: str, cwd: str = "/") -> list[str]:
        """Paths matching a shell pattern (`*`, `?`, `[...]` within one path component)."""
        absolute = pattern.startswith("/")
        parts = [p for p in pattern.split("/") if p]
        with self._lock:
            found = [("/" if absolute else normalize(cwd), "/" if absolute else "")]
            for part in parts:
                matched: list[tuple[str, str]] = []
                for real, shown in found:
                    try:
                        node = self._lookup(normalize(real))
                    except FileSystemError:
                        continue
                    if not node.is_dir:
                        continue
                    if part in (".", ".."):
                        names = [part]
                    elif any(ch in part for ch in "*?["):
                        names = [
                            name
                            for name in sorted(node.children)
                            if fnmatch.fnmatchcase(name, part)
                            and (part.startswith(".") or not name.startswith("."))
                        ]
                    else:
                        names = [part] if part in node.children else []
                    for name in names:
                        matched.append(
                            (
                                posixpath.join(real, name),
                                posixpath.join(shown, name) if shown else name,
                            )
                        )
                found = matched
        return [shown for _, shown in found]

    # -- writing -----------------------------------------------------------------------------
    def write(
        self, path: str, data: bytes, *, append: bool = False, make_parents: bool = False
    ) -> None:
        """Create or replace (or append to) a file; `make_parents` as `adb push` does."""
        path = normalize(path)
        if path == NULL_DEVICE:
            return
        if not _writable(path):
            raise _denied(path)
        with self._lock:
            if make_parents:
                self._make_dirs(posixpath.dirname(path))
            parent, name = self._parent(path)
            node = parent.children.get(name)
            if node is not None and node.is_dir:
                raise FileSystemError(path, "Is a directory")
            old = node.data if node is not None else b""
            new = old + data if append else bytes(data)
            if self._used - len(old) + len(new) > self.max_bytes:
                raise FileSystemError(path, "No space left on device")
            self._used += len(new) - len(old)
            if node is None:
                parent.children[name] = _Node(S_FILE, self._clock(), new)
            else:
                node.data, node.mtime = new, self._clock()

    def touch(self, path: str) -> None:
        path = normalize(path)
        with self._lock:
            if self.exists(path):
                self._lookup(path).mtime = self._clock()
            else:
                self.write(path, b"")

    def mkdir(self, path: str, *, parents: bool = False) -> None:
        path = normalize(path)
        if not _writable(path):
            if parents and self.is_dir(path):
                return
            raise _denied(path)
        with self._lock:
            if parents:
                self._make_dirs(path)
                return
            parent, name = self._parent(path)
            if name in parent.children:
                raise FileSystemError(path, "File exists")
            parent.children[name] = _Node(S_DIR, self._clock())

    def remove(self, path: str, *, recursive: bool = False) -> None:
        path = normalize(path)
        with self._lock:
            node = self._lookup(path)  # ENOENT before EACCES, as rm reports
            if not _writable(path):
                raise _denied(path)
            if node.is_dir and not recursive:
                raise FileSystemError(path, "Is a directory")
            parent, name = self._parent(path)
            del parent.children[name]
            self._used -= _total_size(node)


def _total_size(node: _Node) -> int:
    if not node.is_dir:
        return len(node.data)
    return sum(_total_size(child) for child in node.children.values())
