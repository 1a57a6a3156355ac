"""The simulated `/system/bin/sh` of a PhoneWorld device: a parser and a dispatcher, never a
real shell.

Nothing here ever starts a process. A command line is tokenized (single quotes, double quotes,
backslashes, `$?`/`$NAME` expansion, globs on the virtual filesystem) and parsed into simple
commands joined by `|`, `;`, `&&`, `||` (and `&`, run in order), with `>`, `>>`, `<`, `2>`,
`2>&1`-style redirections. Each simple command is looked up in a table of Python functions that
act on the simulated phone; a name that is not in the table answers like Android
(`/system/bin/sh: NAME: inaccessible or not found`, exit 127). Whatever text arrives, the worst
it can do is call one of those functions with strings: text typed with `input text` or the
ADBKeyboard broadcast is an argument and only ever becomes text in a field.

Left out on purpose (they answer with a syntax error): command substitution (`$(...)` and
backticks), subshells and groups, here-documents, and control flow (`if`, `for`, `while`...).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from phonebuddy.phoneworld.adb.files import FileSystemError

log = logging.getLogger(__name__)

SH = "/system/bin/sh"
NOT_FOUND = 127
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.DOTALL)
_RESERVED = frozenset(
    {"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
     "function", "select", "{", "}", "[[", "]]"}
)  # fmt: skip
_COMMAND_DIRS = ("/system/bin/", "/system/xbin/", "/vendor/bin/", "/bin/", "/sbin/")
_FD_DEFAULT = {">": 1, ">>": 1, "<": 0, ">&": 1, "&>": 1}
# The environment `adb shell` starts with on Android 14.
ENVIRONMENT = {
    "HOME": "/",
    "USER": "shell",
    "SHELL": "/system/bin/sh",
    "HOSTNAME": "localhost",
    "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin:/vendor/bin",
    "TMPDIR": "/data/local/tmp",
    "EXTERNAL_STORAGE": "/sdcard",
    "ANDROID_DATA": "/data",
    "ANDROID_ROOT": "/system",
}


class ShellSyntaxError(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


# -- tokens ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a word: literal text, or a parameter to expand (`$?`, `$NAME`)."""

    text: str
    quoted: bool = False
    param: bool = False


@dataclass(frozen=True, slots=True)
class Word:
    parts: tuple[Part, ...]

    @property
    def literal(self) -> str | None:
        """The text if the word holds no parameter, else None."""
        if any(p.param for p in self.parts):
            return None
        return "".join(p.text for p in self.parts)

    @property
    def globbable(self) -> bool:
        return all(not p.quoted and not p.param for p in self.parts) and any(
            ch in p.text for p in self.parts for ch in "*?["
        )


@dataclass(frozen=True, slots=True)
class Operator:
    text: str  # ; && || | & or a newline


@dataclass(frozen=True, slots=True)
class Redirect:
    fd: int
    op: str  # > >> < >& &>
    target: Word | None = None  # a file; None for `N>&M`
    dup: int | None = None


Token = Word | Operator | Redirect


def tokenize(line: str) -> list[Token]:
    """Split a command line into words, operators and redirections."""
    return _Lexer(line).run()


class _Lexer:
    def __init__(self, line: str) -> None:
        self.line = line
        self.i = 0
        self.tokens: list[Token] = []
        self.parts: list[Part] = []
        self.in_word = False
        self.pending_redirect: tuple[int, str] | None = None

    def _add(self, text: str, *, quoted: bool = False, param: bool = False) -> None:
        self.in_word = True
        last = self.parts[-1] if self.parts else None
        if last is not None and not param and not last.param and last.quoted == quoted:
            self.parts[-1] = Part(last.text + text, quoted)
        else:
            self.parts.append(Part(text, quoted, param))

    def _end_word(self) -> None:
        if not self.in_word:
            return
        word = Word(tuple(self.parts))
        self.parts, self.in_word = [], False
        if self.pending_redirect is not None:
            fd, op = self.pending_redirect
            self.pending_redirect = None
            self.tokens.append(Redirect(fd, op, target=word))
        else:
            self.tokens.append(word)

    def _operator(self, text: str) -> None:
        self._end_word()
        if self.pending_redirect is not None:
            raise ShellSyntaxError(f"'{text}' unexpected")
        self.tokens.append(Operator(text))

    def run(self) -> list[Token]:
        line = self.line
        while self.i < len(line):
            ch = line[self.i]
            if ch in " \t":
                self._end_word()
                self.i += 1
            elif ch == "\n":
                self._operator("\n")
                self.i += 1
            elif ch == "#" and not self.in_word:
                end = line.find("\n", self.i)
                self.i = len(line) if end == -1 else end
            elif ch == "'":
                end = line.find("'", self.i + 1)
                if end == -1:
                    raise ShellSyntaxError("unterminated quoted string")
                self._add(line[self.i + 1 : end], quoted=True)
                self.i = end + 1
            elif ch == '"':
                self._double_quoted()
            elif ch == "\\":
                if self.i + 1 >= len(line):
                    self._add("\\")
                    self.i += 1
                elif line[self.i + 1] == "\n":
                    self.i += 2  # line continuation
                else:
                    self._add(line[self.i + 1], quoted=True)
                    self.i += 2
            elif ch == "$":
                self._dollar(quoted=False)
            elif ch == "`":
                raise ShellSyntaxError("command substitution (`...`) is not supported")
            elif ch in "()":
                raise ShellSyntaxError(f"'{ch}' unexpected (subshells are not supported)")
            elif ch in "<>":
                self._redirect()
            elif ch in "|&;":
                self._control()
            else:
                self._add(ch)
                self.i += 1
        self._end_word()
        if self.pending_redirect is not None:
            raise ShellSyntaxError("missing file name after redirection")
        return self.tokens

    def _double_quoted(self) -> None:
        line = self.line
        self.i += 1
        text: list[str] = []
        self._add("", quoted=True)  # `""` is an (empty) argument
        while True:
            if self.i >= len(line):
                raise ShellSyntaxError("unterminated quoted string")
            ch = line[self.i]
            if ch == '"':
                self.i += 1
                break
            if ch == "\\" and self.i + 1 < len(line) and line[self.i + 1] in '$`"\\\n':
                if line[self.i + 1] != "\n":
                    text.append(line[self.i + 1])
                self.i += 2
            elif ch == "$":
                if text:
                    self._add("".join(text), quoted=True)
                    text = []
                self._dollar(quoted=True)
            elif ch == "`":
                raise ShellSyntaxError("command substitution (`...`) is not supported")
            else:
                text.append(ch)
                self.i += 1
        if text:
            self._add("".join(text), quoted=True)

    def _dollar(self, *, quoted: bool) -> None:
        line = self.line
        rest = line[self.i + 1 :]
        if rest.startswith("("):
            raise ShellSyntaxError("command substitution $(...) is not supported")
        if rest.startswith("{"):
            end = rest.find("}")
            name = rest[1:end] if end != -1 else ""
            if end == -1 or not (_NAME.fullmatch(name) or name in ("?", "$", "#", "!")):
                raise ShellSyntaxError("bad substitution")
            self._add(name, quoted=quoted, param=True)
            self.i += end + 2
            return
        if rest[:1] in ("?", "$", "#", "!") or rest[:1].isdigit():
            self._add(rest[0], quoted=quoted, param=True)
            self.i += 2
            return
        match = _NAME.match(rest)
        if match:
            self._add(match.group(), quoted=quoted, param=True)
            self.i += 1 + match.end()
            return
        self._add("$", quoted=quoted)
        self.i += 1

    def _redirect(self) -> None:
        line = self.line
        fd: int | None = None
        if (
            self.in_word
            and len(self.parts) == 1
            and not self.parts[0].quoted
            and not self.parts[0].param
            and self.parts[0].text.isdigit()
        ):
            fd = int(self.parts[0].text)
            self.parts, self.in_word = [], False
        else:
            self._end_word()
        if self.pending_redirect is not None:
            raise ShellSyntaxError(f"'{line[self.i]}' unexpected")
        for op in (">>", ">&", "<&", ">|", "<<", "<>", ">", "<"):
            if line.startswith(op, self.i):
                break
        self.i += len(op)
        if op == "<<":
            raise ShellSyntaxError("here-documents are not supported")
        if op in ("<>", "<&"):
            raise ShellSyntaxError(f"'{op}' is not supported")
        if op == ">|":
            op = ">"
        target_fd = _FD_DEFAULT[op] if fd is None else fd
        if op == ">&":
            match = re.match(r"[0-9]+|-", line[self.i :])
            if match is None:
                # `>&file` is bash's `&>file`
                self.pending_redirect = (target_fd, "&>")
                return
            self.i += match.end()
            if match.group() == "-":
                raise ShellSyntaxError("closing file descriptors is not supported")
            self.tokens.append(Redirect(target_fd, ">&", dup=int(match.group())))
            return
        self.pending_redirect = (target_fd, op)

    def _control(self) -> None:
        line = self.line
        two = line[self.i : self.i + 2]
        if two in ("&&", "||"):
            self._operator(two)
            self.i += 2
        elif two == "&>":
            self._end_word()
            self.i += 2
            if line.startswith(">", self.i):
                raise ShellSyntaxError("'&>>' is not supported")
            self.pending_redirect = (1, "&>")
        elif two == ";;":
            raise ShellSyntaxError("';;' unexpected")
        else:
            self._operator(line[self.i])
            self.i += 1


# -- parsing -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SimpleCommand:
    words: tuple[Word, ...]
    redirects: tuple[Redirect, ...]


@dataclass(frozen=True, slots=True)
class Pipeline:
    commands: tuple[SimpleCommand, ...]
    run_if: str = ";"  # ";" always, "&&" after success, "||" after failure


def parse(line: str) -> list[Pipeline]:
    """A command line -> pipelines in order, each with the condition it runs under."""
    program: list[Pipeline] = []
    commands: list[SimpleCommand] = []
    words: list[Word] = []
    redirects: list[Redirect] = []
    run_if = ";"

    def end_command(op: str) -> None:
        nonlocal words, redirects
        if not words and not redirects:
            raise ShellSyntaxError(f"'{op}' unexpected")
        commands.append(SimpleCommand(tuple(words), tuple(redirects)))
        words, redirects = [], []

    needs_command: str | None = None  # `|`, `&&` or `||` just seen: a command must follow
    for token in tokenize(line):
        if isinstance(token, Word):
            if not words and token.literal in _RESERVED:
                raise ShellSyntaxError(
                    f"'{token.literal}': PhoneWorld's shell runs simple commands only"
                )
            words.append(token)
            needs_command = None
        elif isinstance(token, Redirect):
            redirects.append(token)
            needs_command = None
        elif token.text == "\n" and not words and not redirects:
            continue  # blank lines, and newlines after `;`, `|`, `&&` or `||`
        elif token.text == "|":
            end_command("|")
            needs_command = "|"
        else:  # ; & && || newline
            end_command(token.text)
            program.append(Pipeline(tuple(commands), run_if))
            commands = []
            run_if = token.text if token.text in ("&&", "||") else ";"
            needs_command = token.text if token.text in ("&&", "||") else None
    if needs_command is not None:
        raise ShellSyntaxError(f"unexpected end of line after '{needs_command}'")
    if words or redirects:
        end_command("end of line")
    if commands:
        program.append(Pipeline(tuple(commands), run_if))
    return program


# -- running -----------------------------------------------------------------------------------
class Sink(Protocol):
    def write(self, data: bytes) -> None: ...


class _Discard:
    def write(self, data: bytes) -> None:
        pass


class _Buffer:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data


@dataclass
class _Terminal:
    """Where unredirected output goes: chunks tagged 1 (stdout) or 2 (stderr), in order."""

    chunks: list[tuple[int, bytes]]
    fd: int

    def write(self, data: bytes) -> None:
        if data:
            self.chunks.append((self.fd, bytes(data)))


@dataclass
class Session:
    """What lasts from one command to the next within one shell: `$?`, variables, the cwd."""

    cwd: str = "/"
    status: int = 0
    variables: dict[str, str] = field(default_factory=lambda: dict(ENVIRONMENT))
    exit_requested: bool = False
    pid: int = 4242


P = TypeVar("P")


@dataclass
class Invocation(Generic[P]):
    """One simple command being run: its arguments, its input and output, and the phone."""

    name: str
    args: list[str]
    phone: P
    session: Session
    stdin: bytes
    stdout: Sink
    stderr: Sink

    def out(self, data: str | bytes) -> None:
        self.stdout.write(data.encode() if isinstance(data, str) else data)

    def err(self, data: str | bytes) -> None:
        self.stderr.write(data.encode() if isinstance(data, str) else data)

    def fail(self, message: str, code: int = 1) -> int:
        """Print `NAME: message` on stderr and return `code`."""
        self.err(f"{self.name}: {message}\n")
        return code


Command = Callable[[Invocation[P]], int]
Globber = Callable[[str, str], list[str]]
FileOpener = Callable[[str, str, bytes, bool], None]


@dataclass(frozen=True)
class ShellResult:
    chunks: tuple[tuple[int, bytes], ...]
    exit_code: int

    @property
    def stdout(self) -> bytes:
        return b"".join(data for fd, data in self.chunks if fd == 1)

    @property
    def stderr(self) -> bytes:
        return b"".join(data for fd, data in self.chunks if fd == 2)

    @property
    def output(self) -> bytes:
        """stdout and stderr interleaved, as a terminal (or a merged stream) shows them."""
        return b"".join(data for _, data in self.chunks)


class FileAccess(Protocol):
    """What redirections and globs need from the filesystem (errors: FileSystemError)."""

    def read(self, path: str) -> bytes: ...
    def write(self, path: str, data: bytes, *, append: bool = False) -> None: ...
    def glob(self, pattern: str, cwd: str = "/") -> list[str]: ...


class Shell(Generic[P]):
    """Runs command lines against a table of commands; one instance serves every device."""

    def __init__(self, commands: Mapping[str, Command[P]]) -> None:
        self.commands = commands

    def run(
        self,
        line: str,
        phone: P,
        files: FileAccess,
        *,
        stdin: bytes = b"",
        session: Session | None = None,
        on_command: Callable[[list[str]], None] | None = None,
    ) -> ShellResult:
        session = session or Session()
        session.exit_requested = False
        chunks: list[tuple[int, bytes]] = []
        run = _Run(self, phone, files, session, chunks, on_command)
        try:
            program = parse(line)
        except ShellSyntaxError as exc:
            chunks.append((2, f"{SH}: syntax error: {exc.reason}\n".encode()))
            session.status = 1
            return ShellResult(tuple(chunks), 1)
        for pipeline in program:
            if session.exit_requested:
                break
            if pipeline.run_if == "&&" and session.status != 0:
                continue
            if pipeline.run_if == "||" and session.status == 0:
                continue
            session.status = run.pipeline(pipeline, stdin)
        return ShellResult(tuple(chunks), session.status)


class _Run(Generic[P]):
    def __init__(
        self,
        shell: Shell[P],
        phone: P,
        files: FileAccess,
        session: Session,
        chunks: list[tuple[int, bytes]],
        on_command: Callable[[list[str]], None] | None,
    ) -> None:
        self.shell = shell
        self.phone = phone
        self.files = files
        self.session = session
        self.out = _Terminal(chunks, 1)
        self.err = _Terminal(chunks, 2)
        self.on_command = on_command

    def pipeline(self, pipeline: Pipeline, stdin: bytes) -> int:
        status = 0
        data = stdin
        last = len(pipeline.commands) - 1
        for index, command in enumerate(pipeline.commands):
            pipe = _Buffer() if index < last else None
            status = self.command(command, data, pipe)
            data = bytes(pipe.data) if pipe is not None else b""
        return status

    # -- expansion ---------------------------------------------------------------------------
    def _param(self, name: str) -> str:
        if name == "?":
            return str(self.session.status)
        if name == "$":
            return str(self.session.pid)
        if name == "#":
            return "0"
        if name == "0":
            return SH
        return self.session.variables.get(name, "")

    def expand(self, word: Word) -> list[str]:
        if word.globbable:
            pattern = "".join(p.text for p in word.parts)
            return self.files.glob(pattern, self.session.cwd) or [pattern]
        fields: list[str] = []
        current: str | None = None
        for part in word.parts:
            if not part.param:
                current = (current or "") + part.text
                continue
            value = self._param(part.text)
            if part.quoted:
                current = (current or "") + value
                continue
            pieces = value.split()
            if not pieces:
                continue
            if value[:1].isspace() and current is not None:
                fields.append(current)
                current = None
            for piece in pieces[:-1]:
                fields.append((current or "") + piece)
                current = None
            current = (current or "") + pieces[-1]
            if value[-1:].isspace():
                fields.append(current)
                current = None
        if current is not None:
            fields.append(current)
        return fields

    # -- one command ---------------------------------------------------------------------------
    def command(self, command: SimpleCommand, stdin: bytes, pipe: _Buffer | None) -> int:
        fds: dict[int, Sink] = {1: pipe if pipe is not None else self.out, 2: self.err}
        files: list[tuple[str, _Buffer, bool]] = []
        for redirect in command.redirects:
            try:
                stdin = self._redirect(redirect, fds, files, stdin)
            except _RedirectError as exc:
                self.err.write(f"{SH}: {exc.message}\n".encode())
                return 1
        argv: list[str] = []
        for word in command.words:
            argv.extend(self.expand(word))
        assignments = []
        while argv and (match := _ASSIGNMENT.fullmatch(argv[0])):
            assignments.append((match.group(1), match.group(2)))
            argv.pop(0)
        if not argv:
            self.session.variables.update(assignments)
            status = 0
        else:
            status = self._dispatch(argv, stdin, fds)
        for path, buffer, append in files:
            try:
                self.files.write(path, bytes(buffer.data), append=append)
            except FileSystemError as exc:
                self.err.write(f"{SH}: can't create {path}: {exc.reason}\n".encode())
                status = 1
        return status

    def _dispatch(self, argv: list[str], stdin: bytes, fds: dict[int, Sink]) -> int:
        name = argv[0]
        lookup = name
        for prefix in _COMMAND_DIRS:
            if name.startswith(prefix):
                lookup = name[len(prefix) :]
        handler = self.shell.commands.get(lookup) if "/" not in lookup else None
        if handler is None:
            fds[2].write(f"{SH}: {name}: inaccessible or not found\n".encode())
            return NOT_FOUND
        if self.on_command is not None:
            self.on_command(argv)
        invocation = Invocation(
            name=lookup,
            args=argv[1:],
            phone=self.phone,
            session=self.session,
            stdin=stdin,
            stdout=fds[1],
            stderr=fds[2],
        )
        try:
            return handler(invocation) & 0xFF
        except Exception:
            log.exception("simulated command %r failed", name)
            fds[2].write(f"{name}: internal error\n".encode())
            return 1

    def _redirect(
        self,
        redirect: Redirect,
        fds: dict[int, Sink],
        files: list[tuple[str, _Buffer, bool]],
        stdin: bytes,
    ) -> bytes:
        if redirect.op == ">&":
            assert redirect.dup is not None  # the lexer sets it for >&
            if redirect.dup not in fds:
                raise _RedirectError(f"{redirect.dup}: bad file descriptor")
            if redirect.fd in (1, 2):
                fds[redirect.fd] = fds[redirect.dup]
            return stdin
        assert redirect.target is not None  # every other redirection names a file
        targets = self.expand(redirect.target)
        if len(targets) != 1:
            raise _RedirectError(f"{''.join(p.text for p in redirect.target.parts)}: ambiguous")
        path = _absolute(targets[0], self.session.cwd)
        if redirect.op == "<":
            try:
                return self.files.read(path)
            except FileSystemError as exc:
                raise _RedirectError(f"can't open {targets[0]}: {exc.reason}") from None
        if path == "/dev/null":
            sink: Sink = _Discard()
        else:
            append = redirect.op == ">>"
            try:  # create (or truncate) the file now, as the shell does before running
                self.files.write(path, b"", append=append)
            except FileSystemError as exc:
                raise _RedirectError(f"can't create {targets[0]}: {exc.reason}") from None
            buffer = _Buffer()
            files.append((path, buffer, True))
            sink = buffer
        if redirect.op == "&>":
            fds[1] = fds[2] = sink
        elif redirect.fd in (1, 2):
            fds[redirect.fd] = sink
        return stdin


class _RedirectError(Exception):
    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def _absolute(path: str, cwd: str) -> str:
    if path.startswith("/"):
        return path
    return cwd.rstrip("/") + "/" + path
