"""The citation table of the core (`core/citations.py`) names no faction rule: each faction's
package adds the headings of its own rules (`add_sections`), so the core stays faction-neutral
and a rule is cited the same way in both rule sets."""

import ast

import pytest

from rules.engine.core.citations import SECTIONS, add_sections, section
from tests.editions import edition_for
from tests.engine_imports import MODULES


def _added_by(path) -> set[str]:
    keys = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "add_sections"
            and node.args
            and isinstance(node.args[0], ast.Dict)
        ):
            keys |= {k.value for k in node.args[0].keys if isinstance(k, ast.Constant)}
    return keys


def _core_table() -> set[str]:
    tree = ast.parse(MODULES["rules.engine.core.citations"].read_text("utf-8"))
    (table,) = [
        node.value
        for node in tree.body
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "SECTIONS"
    ]
    assert isinstance(table, ast.Dict)
    return {k.value for k in table.keys if isinstance(k, ast.Constant)}


def test_the_core_table_holds_no_faction_rule_and_every_faction_rule_is_added_by_its_faction():
    by_faction = {
        name: _added_by(path)
        for name, path in MODULES.items()
        if name.startswith("rules.engine.factions.")
    }
    added = set().union(*by_faction.values())
    assert "teleport_assault" in added and "voice_of_command" in added
    outside = {
        name: keys
        for name, path in MODULES.items()
        if not name.startswith("rules.engine.factions.") and (keys := _added_by(path))
    }
    assert outside == {}
    assert added <= set(SECTIONS)  # loaded with the engine (core/plugins.py)
    assert sorted(added & _core_table()) == []
    assert "charge_phase" in _core_table()


def test_a_faction_heading_is_cited_the_same_in_both_rule_sets_and_never_added_twice():
    for slug in ("11e", "10e"):
        assert section(edition_for(slug), "summary_execution") == "Summary Execution"
    add_sections({"summary_execution": "Summary Execution"})  # the same again: harmless
    with pytest.raises(ValueError, match="summary_execution"):
        add_sections({"summary_execution": "Summary Executions"})
