"""Where the attack preview gets an edition's parameters: the rule set as the database has it."""

from __future__ import annotations

from rules import snapshot
from rules.engine import Edition
from rules.models import RuleSet


def edition_for(slug: str) -> Edition:
    """The `Edition` of rule set `slug`; `LookupError` when there is no such rule set."""
    try:
        return snapshot.edition(slug)
    except RuleSet.DoesNotExist:
        raise LookupError(f"no rule set {slug!r}") from None
