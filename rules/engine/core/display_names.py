"""Names of things the engine knows by slug, registered by the rule packages that define them
(an Order's name by the Astra Militarum package), and why a decision is asked, registered by the
rule package that asks it (Teleport Assault by the Grey Knights package), for the table to show
(`tools.display`)."""

from __future__ import annotations

from collections.abc import Callable

from rules.engine.core.state import State

NAMES: dict[str, dict[str, str]] = {"orders": {}}
# Decision kind -> the words of why it is asked, {text, rule}, in the game's numbers: what the
# rule is and what answering does, for the player deciding.
REASONS: dict[str, Callable[[State], dict[str, str]]] = {}


def register(kind: str, names: dict[str, str]) -> None:
    NAMES.setdefault(kind, {}).update(names)


def explain(kind: str, words: Callable[[State], dict[str, str]]) -> None:
    REASONS[kind] = words
