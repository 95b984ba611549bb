"""Target conditions stratagems share: whose unit, which keywords, what it did this phase."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine.battlefield.placement import is_engaged, position_settled
from rules.engine.core.facts import has_acted, has_flag
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, on_battlefield, unit_keywords, units_of

UnitTest = Callable[[State, Unit, dict[str, Any]], bool]


def has_keywords(*required: str) -> UnitTest:
    """Every keyword of `required`, each a whole keyword (`"ASTRA MILITARUM"`, `"OFFICER"`)."""
    wanted = {word.upper() for word in required}

    def test(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
        return wanted <= unit_keywords(state, unit)

    return test


def has_any_keyword(*options: tuple[str, ...] | str) -> UnitTest:
    """One of `options` (each a keyword, or a tuple of keywords all needed)."""
    tests = [has_keywords(*((o,) if isinstance(o, str) else o)) for o in options]

    def test(state: State, unit: Unit, window: dict[str, Any]) -> bool:
        return any(t(state, unit, window) for t in tests)

    return test


def lacks_keyword(word: str) -> UnitTest:
    def test(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
        return word.upper() not in unit_keywords(state, unit)

    return test


def not_selected_this_phase(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    return not has_acted(state, unit["id"])


def unengaged(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    return not is_engaged(state, unit)


def flag(name: str) -> UnitTest:
    def test(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
        return has_flag(state, unit["id"], name)

    return test


def selected_as_target(_state: State, unit: Unit, window: dict[str, Any]) -> bool:
    """The unit is one of the targets the trigger's (enemy) unit selected."""
    return unit["id"] in window.get("targets", [])


def is_trigger_unit(_state: State, unit: Unit, window: dict[str, Any]) -> bool:
    """The unit the trigger is about ("that unit")."""
    return unit["id"] == window.get("unit")


class OwnUnits:
    """A `targets` function: the player's units passing every test (on the battlefield unless
    `on_table` is false). Each unit's tests look at that unit alone, so whether one unit is a
    target (`holds`) is asked of it alone: a stratagem's use checks its one target without
    listing them all again (Fire Overwatch's list asks every unit's targets, sight included)."""

    def __init__(self, tests: tuple[UnitTest, ...], on_table: bool) -> None:
        self.tests, self.on_table = tests, on_table

    def _passes(self, state: State, unit: Unit, window: dict[str, Any]) -> bool:
        return (on_battlefield(unit) or not self.on_table) and all(
            t(state, unit, window) for t in self.tests
        )

    def __call__(self, state: State, player: int, window: dict[str, Any]) -> list[str]:
        with position_settled(state):  # the tests only read the state: one position for all
            return [
                unit["id"] for unit in units_of(state, player) if self._passes(state, unit, window)
            ]

    def holds(self, state: State, player: int, window: dict[str, Any], target: Any) -> bool:
        """Whether `target` (a unit id) is among `self(state, player, window)`."""
        unit = state["units"].get(target) if isinstance(target, str) else None
        if unit is None or unit["player"] != player:
            return False
        with position_settled(state):
            return self._passes(state, unit, window)


def own_units(*tests: UnitTest, on_table: bool = True) -> OwnUnits:
    """A `targets` function: the player's units passing every test."""
    return OwnUnits(tests, on_table)


def any_of(*tests: UnitTest) -> UnitTest:
    def test(state: State, unit: Unit, window: dict[str, Any]) -> bool:
        return any(t(state, unit, window) for t in tests)

    return test
