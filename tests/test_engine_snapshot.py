"""The engine's order and saved vocabulary are pinned: the subscribers of every hook point in the
order they run, the reactions at the set-up and move timing points, the continuation names and
decision kinds stored in saved games, the stratagem implementations
(`tests/data/snapshots/engine.json`, written by `python -m tests.engine_snapshot`).

A change of order fails here with the hook named. A continuation or decision kind that goes away
must stay loadable: it is listed in the alias table (`core/saved_games.py`) under its new name.
"""

import json

import pytest

from rules.engine.core.saved_games import CONTINUATION_ALIASES, DECISION_KIND_ALIASES
from rules.engine.core.sequencing import CONTINUATIONS
from tests.engine_snapshot import SNAPSHOT, decision_kinds, snapshot

PINNED = json.loads(SNAPSHOT.read_text("utf-8"))
NOW = snapshot()


@pytest.mark.parametrize("hook", sorted(set(PINNED["hooks"]) | set(NOW["hooks"])))
def test_the_subscribers_of_a_hook_point_run_in_the_pinned_order(hook):
    assert NOW["hooks"].get(hook) == PINNED["hooks"].get(hook), (
        f"the order of hook {hook!r} changed: write tests/data/snapshots/engine.json again "
        "(python -m tests.engine_snapshot) only if the change is meant"
    )


@pytest.mark.parametrize("point", sorted(set(PINNED["timing_points"]) | set(NOW["timing_points"])))
def test_the_subscribers_of_a_timing_point_run_in_the_pinned_order(point):
    assert NOW["timing_points"].get(point) == PINNED["timing_points"].get(point), (
        f"the order at timing point {point!r} changed"
    )


@pytest.mark.parametrize("section", ["reactions", "stratagem_implementations"])
def test_reactions_and_stratagem_implementations_are_the_pinned_ones(section):
    assert NOW[section] == PINNED[section]


def test_every_pinned_continuation_name_still_resumes_a_saved_game():
    gone = sorted(
        name
        for name in PINNED["continuations"]
        if name not in CONTINUATIONS and CONTINUATION_ALIASES.get(name) not in CONTINUATIONS
    )
    assert gone == [], f"continuations stored in saved games with no alias: {gone}"
    assert NOW["continuations"] == PINNED["continuations"]


def test_every_pinned_decision_kind_is_still_known_to_a_saved_game():
    kinds = set(decision_kinds())
    gone = sorted(
        kind
        for kind in PINNED["decision_kinds"]
        if kind not in kinds and DECISION_KIND_ALIASES.get(kind) not in kinds
    )
    assert gone == [], f"decision kinds stored in saved games with no alias: {gone}"
    assert NOW["decision_kinds"] == PINNED["decision_kinds"]
