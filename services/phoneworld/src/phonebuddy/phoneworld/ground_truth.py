"""PhoneWorld's ground-truth grader: the rubric judge's model stand-in for `real` episodes on
PhoneWorld phones behind the device gateway (the local stack, `make demo`, tests). It is never a
judge of physical phones: it knows only PhoneWorld's tasks, and every answer says what it is.

It reads a grading request the way a model would — the rubric ids and the action log in the
prompt — plus the task's identity, which the judge sends as request metadata
(`phonebuddy_template_id`, `phonebuddy_seed`, `phonebuddy_language`) when its `task_metadata`
setting is on. It sets a fresh phone up for that task exactly as the gateway's SETUP_TASK
broadcast set the real one up, replays the logged actions, runs the task's verifier on the state
before and after (with the agent's final answer) and passes every rubric item if and only if the
verifier passes. A request without task metadata is a rubric request: one item, "task_done".
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.registry import UnknownTaskError, get_template
from phonebuddy.phoneworld.tasks.runner import evaluate, instantiate, start
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import (
    FINAL_ACTIONS,
    LANGUAGE_KEY,
    SEED_KEY,
    TEMPLATE_KEY,
    Action,
    InvalidActionError,
    ScreenSize,
    Verdict,
    parse_action,
)

MODEL = "phoneworld-ground-truth"
LABEL = "PhoneWorld ground truth (a stand-in judge model for PhoneWorld phones only)"
RUBRIC = {"items": [{"id": "task_done", "criterion": "The phone's state shows the task done"}]}
_STEP = re.compile(r"^Step \d+: (?P<action>.+)$", re.MULTILINE)
_ANSWER = re.compile(r"^The agent's final answer: (?P<answer>.+)$", re.MULTILINE)
_RUBRIC_ITEM = re.compile(r"^- (?P<id>[^:\n]+): ", re.MULTILINE)
_INVALID_STEP = "invalid output ("
_NAMES = {"true": True, "false": False, "null": None}


class GradingRequestError(ValueError):
    """The request is not one this grader can answer (an unknown task, an unreadable log)."""


@dataclass(frozen=True, slots=True)
class GroundTruth:
    verdict: Verdict
    replayed: int


def _literal(node: ast.expr) -> Any:
    match node:
        case ast.Constant(value=value):
            return value
        case ast.Tuple(elts=items) | ast.List(elts=items):
            return [_literal(item) for item in items]
        case ast.Dict(keys=keys, values=values) if None not in keys:
            return {_literal(k): _literal(v) for k, v in zip(keys, values, strict=True)}  # type: ignore[arg-type]
        case ast.Name(id=name) if name in _NAMES:
            return _NAMES[name]
        case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=float() | int() as value)):
            return -value
    raise GradingRequestError(f"not a literal: {ast.unparse(node)}")


def parse_action_text(text: str) -> Action:
    """The inverse of the agent harness's `action_text`: `click(540, 800)` -> Click."""
    try:
        call = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise GradingRequestError(f"unreadable action {text!r}") from exc
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise GradingRequestError(f"not an action call: {text!r}")
    name, args = call.func.id, [_literal(arg) for arg in call.args]
    fields: dict[str, Any] = {"action": name}
    fields.update({kw.arg: _literal(kw.value) for kw in call.keywords if kw.arg})
    if name in ("click", "long_press") and len(args) == 2:
        fields["coordinate"] = args
    elif name == "swipe" and len(args) == 1:
        fields["direction"] = args[0]
    elif name == "swipe" and len(args) == 2:
        fields["coordinate"], fields["coordinate2"] = args
    elif name in ("type", "key", "open", "answer") and len(args) == 1:
        fields["text"] = args[0]
    elif name == "system_button" and len(args) == 1:
        fields["button"] = args[0]
    elif name == "wait" and len(args) == 1:
        fields["time"] = args[0]
    elif name == "terminate" and len(args) == 1:
        fields["status"] = args[0]
    elif name == "call_tool" and len(args) == 2:
        fields["name"], fields["arguments"] = args
    else:
        raise GradingRequestError(f"unknown action form {text!r}")
    try:
        return parse_action(fields)
    except InvalidActionError as exc:
        raise GradingRequestError(f"invalid action {text!r}: {exc}") from exc


def prompt_text(body: dict[str, Any]) -> str:
    """Every text part of the request's user messages, in order."""
    texts: list[str] = []
    for message in body.get("messages") or []:
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts.extend(
                part["text"]
                for part in content
                if isinstance(part, dict) and isinstance(part.get("text"), str)
            )
    return "".join(texts)


def logged_actions(text: str) -> tuple[list[Action], str | None]:
    """The actions of the prompt's action log (invalid outputs did nothing) and the answer."""
    actions = [
        parse_action_text(match["action"])
        for match in _STEP.finditer(text)
        if not match["action"].startswith(_INVALID_STEP)
    ]
    answer_line = _ANSWER.search(text)
    answer = None
    if answer_line is not None:
        try:
            answer = json.loads(answer_line["answer"])
        except json.JSONDecodeError as exc:
            raise GradingRequestError("unreadable final answer") from exc
    return actions, answer if isinstance(answer, str) else None


def rubric_ids(text: str) -> list[str]:
    section = text.split("Rubric items:", 1)[-1].split("\n\n", 1)[0]
    return [match["id"].strip() for match in _RUBRIC_ITEM.finditer(section)]


def replay(
    world: World, screen: ScreenSize, template_id: str, seed: int, language: str, text: str
) -> GroundTruth:
    """The task's verdict for the logged actions, replayed on a fresh phone."""
    try:
        template = get_template(template_id)
    except UnknownTaskError as exc:
        raise GradingRequestError(str(exc)) from None
    actions, answer = logged_actions(text)
    instance = instantiate(template, world, seed, language=language)
    device = Device(world, device_id="ground-truth", screen=screen)
    before = start(device, instance)
    replayed = 0
    for action in actions:
        if action.action in FINAL_ACTIONS:
            break
        device.act(action)
        replayed += 1
    verdict = evaluate(world, template, instance.params, before, device.snapshot(), answer)
    return GroundTruth(verdict=verdict, replayed=replayed)


def answer(world: World, screen: ScreenSize, body: dict[str, Any]) -> dict[str, Any]:
    """The JSON object to answer `body` with: a rubric, or a grading of every rubric item."""
    metadata = body.get("metadata") or {}
    if TEMPLATE_KEY not in metadata:
        return RUBRIC
    try:
        seed = int(metadata.get(SEED_KEY, 0))
    except (TypeError, ValueError):
        raise GradingRequestError("metadata phonebuddy_seed is not an integer") from None
    language = str(metadata.get(LANGUAGE_KEY, "en"))
    text = prompt_text(body)
    ids = rubric_ids(text)
    if not ids:
        raise GradingRequestError("the prompt lists no rubric items")
    truth = replay(world, screen, str(metadata[TEMPLATE_KEY]), seed, language, text)
    outcome = "passes" if truth.verdict.success else "fails"
    evidence = (
        f"{LABEL}: replaying the {truth.replayed} logged actions on a fresh phone set up for the "
        f"task, its verifier {outcome}: {truth.verdict.reason or 'no reason given'}"
    )
    return {
        "results": [{"id": i, "passed": truth.verdict.success, "evidence": evidence} for i in ids]
    }
