"""`phonebuddy policy make-tiny --vocabulary-from`: the tiny model pruned to a dataset's tokens,
the same checkpoint as the library call."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from phonebuddy.policy.cli import app
from phonebuddy.policy_model import prune_vocabulary
from phonebuddy.policy_model.vocabulary import VOCABULARY_FILE

TEXTS = [
    "给张三发消息说你好，然后打开设置。",
    "Open the Settings app, then turn on Wi-Fi.",
    "3:45 PM",
]


def test_make_tiny_cli_prunes_to_a_jsonl_file(tiny_seed0, tmp_path) -> None:
    data = tmp_path / "data.jsonl"
    rows = [{"index": 0, "text": TEXTS[0]}, {"messages": [{"content": TEXTS[1]}]}, TEXTS[2]]
    data.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    result = CliRunner().invoke(
        app, ["make-tiny", str(tmp_path / "cli"), "--vocabulary-from", str(data)]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "cli" / VOCABULARY_FILE).read_text())
    assert f"{summary['kept']} of 248320" in result.output
    # The same texts give the same checkpoint as the library call (make_tiny is seeded).
    pruned = prune_vocabulary(tiny_seed0, TEXTS, tmp_path / "lib")
    for name in ("tokenizer.json", "model.safetensors", VOCABULARY_FILE):
        assert (tmp_path / "cli" / name).read_bytes() == (pruned / name).read_bytes(), name
