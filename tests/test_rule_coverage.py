"""Every ability, datasheet ability, detachment rule and enhancement of the rules data is
implemented, or listed (with its reason) as not yet or as printing no effect.

Implementations declare themselves with `hooks.implements`; the lists are in
`rules.engine.rules_not_yet`. docs/engine.md (Rule coverage) explains both.
"""

import importlib
import pkgutil
import re
from pathlib import Path

import rules.engine
from rules.engine.core.hooks import IMPLEMENTED, slug
from rules.engine.core.rules_not_yet import NO_PRINTED_EFFECT, NOT_IMPLEMENTED
from tests.rule_coverage_world import rule_keys


def _import_the_whole_engine() -> None:
    """Registration happens on import: load every engine module so none is missed."""
    for module in pkgutil.walk_packages(rules.engine.__path__, "rules.engine."):
        importlib.import_module(module.name)


_import_the_whole_engine()
KEYS = rule_keys()


def test_every_rule_in_the_rules_data_is_implemented_or_listed():
    missing = sorted(
        key
        for key in KEYS
        if key not in IMPLEMENTED and key not in NOT_IMPLEMENTED and key not in NO_PRINTED_EFFECT
    )
    assert missing == [], f"rules with no implementation and not listed: {missing}"


def test_the_lists_hold_only_unimplemented_rules_of_the_data():
    listed = set(NOT_IMPLEMENTED) | set(NO_PRINTED_EFFECT)
    assert sorted(listed & set(IMPLEMENTED)) == []
    assert sorted(listed - set(KEYS)) == []
    assert sorted(set(IMPLEMENTED) - set(KEYS)) == []
    assert sorted(set(NOT_IMPLEMENTED) & set(NO_PRINTED_EFFECT)) == []


def test_entries_printing_no_effect_really_have_no_text():
    assert [key for key in NO_PRINTED_EFFECT if (KEYS[key].get("text") or "").strip()] == []


def test_every_implemented_rule_has_a_scenario_test_named_after_it():
    """A test function whose name holds the rule's name: 'feel-no-pain' -> 'feel_no_pain';
    'inquisitor/power-of-the-rosette' -> 'power_of_the_rosette'; the edition suffix is dropped; a
    detachment rule may be named after its detachment or after the rule ('hallowed_ground')."""
    text = "".join(p.read_text("utf-8") for p in Path(__file__).parent.rglob("test_*.py"))
    tests = re.findall(r"def (test_\w+)\(", text)
    untested = []
    for kind, key in IMPLEMENTED:
        names = [re.sub(r"-(11e|10e)$", "", key.split("/")[-1])]
        if kind == "detachment-rule":
            names += [slug(rule["name"]) for rule in KEYS[(kind, key)]["rules"]]
        names = [name.replace("-", "_") for name in names]
        if not any(name in test for test in tests for name in names):
            untested.append((kind, key))
    assert sorted(untested) == []
