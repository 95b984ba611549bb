"""Every stratagem of the rules data is implemented, or listed (with its reason) as not yet.

The list is `rules.engine.stratagems.effects.not_yet.NOT_IMPLEMENTED`; docs/engine.md carries it.
"""

import re
from pathlib import Path

from rules.engine.stratagems.effects import IMPLEMENTATIONS
from rules.engine.stratagems.effects.not_yet import NOT_IMPLEMENTED
from tests.stratagem_world import STRATAGEMS


def test_every_stratagem_in_the_rules_data_is_implemented_or_listed_as_not_yet():
    missing = sorted(
        s["slug"]
        for s in STRATAGEMS
        if s["slug"] not in IMPLEMENTATIONS and s["slug"] not in NOT_IMPLEMENTED
    )
    assert missing == [], f"stratagems with no implementation and not listed: {missing}"


def test_the_not_yet_list_holds_only_unimplemented_stratagems_of_the_data():
    slugs = {s["slug"] for s in STRATAGEMS}
    assert sorted(set(NOT_IMPLEMENTED) & set(IMPLEMENTATIONS)) == []
    assert sorted(set(NOT_IMPLEMENTED) - slugs) == []
    assert sorted(set(IMPLEMENTATIONS) - slugs) == []


def test_every_implemented_stratagem_has_a_scenario_test_named_after_it():
    """A test function whose name holds the stratagem's name (without its edition suffix)."""
    text = "".join(p.read_text("utf-8") for p in Path(__file__).parent.glob("test_stratagems_*.py"))
    tests = re.findall(r"def (test_\w+)\(", text)
    untested = []
    for slug in IMPLEMENTATIONS:
        name = re.sub(r"-(11e|10e|boarding-actions)$", "", slug).replace("-", "_")
        if not any(name in test for test in tests):
            untested.append(slug)
    assert sorted(untested) == []
