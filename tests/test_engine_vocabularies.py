"""Vocabularies are checked, so a rule that names something no other part knows fails at once:

- a stratagem window opened with a trigger outside the stratagem trigger vocabulary raises, and
  every trigger of the vocabulary is opened somewhere (a stratagem using one that is never opened
  would silently never be offered);
- an effect whose modifier (or its `only_if`) names a kind no rule reads raises when it is
  created, and every kind of the vocabulary is read somewhere.
"""

import ast

import pytest

from rules import vocabulary
from rules.engine.core import reactions
from rules.engine.core.effects import MODIFIER_KINDS, ONLY_IF_KINDS, add_effect
from rules.engine.core.events import Context
from rules.engine.core.timing import STRATAGEM_TRIGGERS, WINDOW_TRIGGERS, stratagem_window
from rules.engine.stratagems.windows import INITIATIVE_TRIGGERS, open_window
from tests.engine_imports import MODULES
from tests.engine_world import SEED, default_armies, setup

WINDOW_OPENERS = {"stratagem_window", "open_window"}


def _trees():
    return [ast.parse(path.read_text("utf-8")) for path in MODULES.values()]


def _literal_strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [s for item in node.elts for s in _literal_strings(item)]
    return []


def opened_triggers() -> set[str]:
    opened = set(reactions.WINDOW_TRIGGERS.values()) | set(INITIATIVE_TRIGGERS)
    for tree in _trees():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) in WINDOW_OPENERS
                and len(node.args) > 1
            ):
                opened.update(_literal_strings(node.args[1]))
    return opened


def test_the_rules_data_reads_the_engines_trigger_vocabulary():
    """One list (core/timing.py), read by the rules data's vocabulary through the public face."""
    assert vocabulary.STRATAGEM_TRIGGERS is STRATAGEM_TRIGGERS
    assert set(STRATAGEM_TRIGGERS) == WINDOW_TRIGGERS


# Triggers no timing point opens yet, each with why; the list only shrinks.
NOT_OPENED_YET: set[str] = set()


def test_every_trigger_of_the_vocabulary_is_opened_somewhere():
    assert sorted(WINDOW_TRIGGERS - opened_triggers()) == sorted(NOT_OPENED_YET)


def test_a_window_opened_with_a_trigger_outside_the_vocabulary_fails_loudly():
    from rules.engine import new_game

    state, _ = new_game(setup("11e", default_armies()), SEED)
    for opener in (stratagem_window, open_window):
        with pytest.raises(ValueError, match="enemy_unit_sneezed"):
            opener(Context(state), "enemy_unit_sneezed", {}, None)


def test_an_effect_whose_modifier_no_rule_reads_fails_when_it_is_created():
    from rules.engine import new_game

    state, _ = new_game(setup("11e", default_armies()), SEED)
    with pytest.raises(ValueError, match="sneeze_roll"):
        add_effect(Context(state), "test", {"unit": "p1-u1"}, {"sneeze_roll": 1}, "end_of_turn", 1)
    sneezing = {"attack": {}, "as": "attacker", "only_if": {"target_sneezed": True}}
    with pytest.raises(ValueError, match="only_if.target_sneezed"):
        add_effect(Context(state), "test", {"unit": "p1-u1"}, sneezing, "end_of_turn", 1)


def _constants(tree: ast.Module) -> dict[str, ast.AST]:
    return {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }


def _keys(node: ast.AST, constants: dict[str, ast.AST]) -> list[str]:
    """The strings a read names: a literal, a module constant holding one, or the keys of a
    module constant dict compared whole (`modifier == AUTOMATIC_PASS`)."""
    if isinstance(node, ast.Name) and node.id in constants:
        node = constants[node.id]
        if isinstance(node, ast.Dict):
            return [k.value for k in node.keys if isinstance(k, ast.Constant)]
    return _literal_strings(node)


def test_every_modifier_kind_of_the_vocabulary_is_read_by_a_rule():
    """Read: subscripted (`modifier["add"]`), fetched (`.get("add")`), tested (`"add" in`) or
    compared whole with a constant, somewhere in the engine."""
    read = set()
    for path in MODULES.values():
        tree = ast.parse(path.read_text("utf-8"))
        constants = _constants(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript):
                read.update(_keys(node.slice, constants))
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "get":
                read.update(_keys(node.args[0], constants) if node.args else [])
            elif isinstance(node, ast.Compare):
                read.update(_keys(node.left, constants))
                for right in node.comparators:
                    read.update(_keys(right, constants))
    assert sorted(set(MODIFIER_KINDS) - read) == []
    assert sorted(set(ONLY_IF_KINDS) - read) == []
