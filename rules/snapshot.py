"""Selectors the games and the engine use to read rules data out of the database.

A game calls these once, when it is created, and freezes the result: edits in the admin change the
next game, never one under way.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from rules.engine import Edition
from rules.loader import bundle_of
from rules.models import (
    Ability,
    Datasheet,
    Detachment,
    Enhancement,
    Faction,
    Mission,
    RuleSet,
    Stratagem,
)


def edition(slug: str) -> Edition:
    """The `Edition` built from a rule set's parameters as they are in the database now."""
    return RuleSet.objects.get(slug=slug).edition()


def default_ruleset_slug() -> str:
    return RuleSet.objects.values_list("slug", flat=True).get(is_default=True)


def bundle_for(edition_slug: str, faction_slugs: Iterable[str]) -> dict[str, list[dict]]:
    """The subset bundle an army of these factions needs in a game of this edition.

    Same format as `export_rules()`: the rule set; the factions with their abilities, detachments,
    detachment stratagems, enhancements and datasheets; core abilities, core and Boarding Actions
    stratagems and missions of this edition or of both (edition null).
    """
    ruleset = RuleSet.objects.get(slug=edition_slug)
    factions = Faction.objects.filter(slug__in=list(faction_slugs))
    this_edition = Q(edition=ruleset) | Q(edition__isnull=True)
    detachments = Detachment.objects.filter(faction__in=factions)
    return bundle_of(
        {
            "rulesets": RuleSet.objects.filter(pk=ruleset.pk),
            "factions": factions,
            "abilities": Ability.objects.filter(this_edition).filter(
                Q(faction__isnull=True) | Q(faction__in=factions)
            ),
            "detachments": detachments,
            "stratagems": Stratagem.objects.filter(this_edition).filter(
                Q(detachment__isnull=True) | Q(detachment__in=detachments)
            ),
            "enhancements": Enhancement.objects.filter(detachment__in=detachments),
            "datasheets": Datasheet.objects.filter(faction__in=factions),
            "missions": Mission.objects.filter(this_edition),
        }
    )
