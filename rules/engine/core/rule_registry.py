"""Which rules of the data the engine implements, declared beside the code that implements them.

Stratagems have their own registry (`stratagem_effects.IMPLEMENTATIONS`); this one covers the
other rules a player can point at: core and faction abilities (Orders included, they are faction
abilities in the data), the abilities printed on datasheets, detachment rules and enhancements.

The function (or class) that applies a rule is decorated with `@implements(kind, key)`, so the
claim sits next to the code and moves with it. `tests/test_rule_coverage.py` walks the rules data
and fails for any rule that is neither registered here nor listed in `rules_not_yet`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal, TypeVar

RuleKind = Literal["ability", "datasheet-ability", "detachment-rule", "enhancement"]
KINDS: tuple[RuleKind, ...] = ("ability", "datasheet-ability", "detachment-rule", "enhancement")

# (kind, key) -> "module.qualname" of the implementation
IMPLEMENTED: dict[tuple[str, str], str] = {}

T = TypeVar("T", bound=Callable)


def slug(name: str) -> str:
    """'Leader: other Leaders' -> 'leader-other-leaders'; apostrophes vanish ('Ancient's')."""
    name = re.sub(r"['\u2019]", "", name.lower())
    return re.sub(r"[^a-z0-9]+", "-", name).strip("-")


def datasheet_ability_key(datasheet_slug: str, ability_name: str) -> str:
    """A datasheet's own ability is keyed by its datasheet: two sheets may print the same name
    with different texts."""
    return f"{datasheet_slug}/{slug(ability_name)}"


def implements(kind: RuleKind, *keys: str) -> Callable[[T], T]:
    """Register the decorated callable as the implementation of each key (ability slug,
    'datasheet/ability', detachment slug or enhancement slug)."""
    if kind not in KINDS:
        raise ValueError(f"unknown rule kind {kind!r}")

    def register(implementation: T) -> T:
        where = f"{implementation.__module__}.{implementation.__qualname__}"
        for key in keys:
            IMPLEMENTED[(kind, key)] = where
        return implementation

    return register
