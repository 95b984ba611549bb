"""Every decision kind the engine can push has its options in words in the browser.

The kinds are collected from the engine's source by the engine snapshot's scan
(`tests.engine_snapshot.decision_kinds`: each `push_decision(ctx, player, KIND, ...)` call, its
kind a string or a string constant of its module or imported from another engine module), so a
new kind without an entry in `static/js/describe.js`'s `DECISION_WORDS` fails here instead of
reaching players as raw JSON.
"""

import re
from pathlib import Path

from tests.engine_snapshot import decision_kinds

ROOT = Path(__file__).resolve().parents[2]
DESCRIBE = ROOT / "static" / "js" / "describe.js"


def labelled_kinds() -> set[str]:
    text = DESCRIBE.read_text()
    block = text[text.index("export const DECISION_WORDS = {") :]
    block = block[: block.index("\n};")]
    return set(re.findall(r"^  ([a-z_]+):", block, flags=re.MULTILINE))


def test_the_scan_finds_the_engine_decisions():
    kinds = decision_kinds()
    for kind in (
        "issue_order",
        "select_units",
        "ability_choice",
        "normal_move",
        "redeploy_unit",
        "stratagem_arrival",
    ):
        assert kind in kinds


def test_every_decision_kind_the_engine_pushes_has_words_in_describe_js():
    missing = sorted(set(decision_kinds()) - labelled_kinds())
    assert not missing, f"decision kinds without words in static/js/describe.js: {missing}"
