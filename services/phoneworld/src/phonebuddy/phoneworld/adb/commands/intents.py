"""Intent arguments as `am start` and `am broadcast` take them, and Intent.toShortString()."""

from __future__ import annotations

from dataclasses import dataclass, field

FLAG_ACTIVITY_NEW_TASK = 0x10000000
FLAG_RECEIVER_FOREGROUND = 0x400000  # `am broadcast` adds it
_EXTRA_KINDS = {
    "-e": str, "--es": str, "--ei": int, "--el": int, "--ef": float, "--ed": float,
    "--eu": str, "--ecn": str, "--ez": "bool", "--esa": "str[]", "--eia": "int[]",
    "--ela": "int[]", "--efa": "float[]", "--esal": "str[]", "--eial": "int[]",
}  # fmt: skip
_WITH_VALUE = frozenset(
    {"--user", "--receiver-permission", "--display", "--windowingMode", "--activityType",
     "-P", "--start-profiler", "--sampling", "--attach-agent", "-R", "--task", "-i"}
)  # fmt: skip


class IntentError(ValueError):
    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass
class Intent:
    action: str | None = None
    data: str | None = None
    mime_type: str | None = None
    categories: list[str] = field(default_factory=list)
    component: str | None = None
    package: str | None = None
    flags: int = 0
    extras: dict[str, object] = field(default_factory=dict)
    options: set[str] = field(default_factory=set)  # -W, -S, --activity-clear-task...
    positional: list[str] = field(default_factory=list)

    def describe(self) -> str:
        items = []
        if self.action:
            items.append(f"act={self.action}")
        if self.categories:
            items.append("cat=[" + ",".join(self.categories) + "]")
        if self.data:
            items.append(f"dat={self.data}")
        if self.mime_type:
            items.append(f"typ={self.mime_type}")
        if self.flags:
            items.append(f"flg=0x{self.flags:x}")
        if self.package:
            items.append(f"pkg={self.package}")
        if self.component:
            items.append(f"cmp={self.component}")
        if self.extras:
            items.append("(has extras)")
        return "Intent { " + " ".join(items) + " }"


def _convert(kind: object, value: str, option: str) -> object:
    try:
        if kind == "bool":
            lowered = value.lower()
            if lowered not in ("true", "false", "t", "f", "1", "0"):
                raise ValueError(value)
            return lowered in ("true", "t", "1")
        if isinstance(kind, str) and kind.endswith("[]"):
            item = {"str[]": str, "int[]": int, "float[]": float}[kind]
            return [item(v) for v in value.split(",")] if value else []
        assert callable(kind)
        return kind(value)
    except ValueError:
        raise IntentError(f"Invalid value for {option}: {value}") from None


def _hex(value: str) -> int:
    try:
        return int(value, 16)
    except ValueError:
        raise IntentError(f"Invalid value for -f: {value}") from None


def parse_intent(args: list[str]) -> Intent:
    intent = Intent()
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in _EXTRA_KINDS:
            if len(rest) < 2:
                raise IntentError(f'Argument expected after "{arg}"')
            key, value = rest.pop(0), rest.pop(0)
            intent.extras[key] = _convert(_EXTRA_KINDS[arg], value, arg)
        elif arg == "--esn":
            if not rest:
                raise IntentError('Argument expected after "--esn"')
            intent.extras[rest.pop(0)] = None
        elif arg in ("-a", "-d", "-t", "-c", "-n", "-f", "-p", "--package") or arg in _WITH_VALUE:
            if not rest:
                raise IntentError(f'Argument expected after "{arg}"')
            value = rest.pop(0)
            if arg == "-a":
                intent.action = value
            elif arg == "-d":
                intent.data = value
            elif arg == "-t":
                intent.mime_type = value
            elif arg == "-c":
                intent.categories.append(value)
            elif arg == "-n":
                intent.component = value
            elif arg in ("-p", "--package"):
                intent.package = value
            elif arg == "-f":
                intent.flags |= int(value) if value.isdigit() else _hex(value)
        elif arg.startswith("-") and len(arg) > 1:
            intent.options.add(arg)
        else:
            intent.positional.append(arg)
    return intent
