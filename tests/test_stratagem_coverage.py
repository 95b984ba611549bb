"""Every stratagem of the rules data is implemented, or listed (with its reason) as not yet.

The list is `rules.engine.stratagem_effects.not_yet.NOT_IMPLEMENTED`; docs/engine.md carries it.
"""

from rules.engine.stratagem_effects import IMPLEMENTATIONS
from rules.engine.stratagem_effects.not_yet import NOT_IMPLEMENTED
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
    from pathlib import Path

    text = "".join(p.read_text("utf-8") for p in Path(__file__).parent.glob("test_stratagems_*.py"))
    names = {
        slug: slug.rsplit("-", 1)[0] if slug[-3:] in ("11e", "10e") else slug
        for slug in IMPLEMENTATIONS
    }
    untested = sorted(
        slug
        for slug, name in names.items()
        if f"def test_{name.replace('-boarding-actions', '').replace('-', '_')}" not in text
        and f"def test_boarding_actions_{name.replace('-boarding-actions', '').replace('-', '_')}"
        not in text
    )
    assert untested == []
