"""Army lists: saving a player's armies and checking them against the rules data.

The check itself is the engine's pure `rules.engine.army_rules.check_army`; this module only reads
the rules data it needs from the database and writes `Army` rows.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Army, BattleSize
from rules.engine import AGENTS_KEYWORD, ArmyCheck, check_army
from rules.models import Datasheet, Detachment, Faction, RuleSet
from rules.snapshot import bundle_for, default_ruleset_slug

ARMY_FIELDS = ("name", "faction", "detachment", "battle_size", "units")


def army_list(army: Army) -> dict[str, Any]:
    """The army in the engine's army-list format (docs/engine.md), as a game snapshots it."""
    return {
        "id": army.pk,
        "name": army.name,
        "faction": army.faction,
        "detachment": army.detachment,
        "battle_size": army.battle_size,
        "units": army.units,
    }


def factions_for(army: dict[str, Any]) -> set[str]:
    """The factions whose records a check of this list reads: the army's own, the factions whose
    units may join it (Assigned Agents) and those of its detachment and of every datasheet it
    names (so that a record of another faction is reported as such, not as unknown)."""
    named = [unit.get("datasheet") for unit in army.get("units") or [] if isinstance(unit, dict)]
    found = set(
        Datasheet.objects.filter(slug__in=[s for s in named if isinstance(s, str)]).values_list(
            "faction__slug", flat=True
        )
    )
    detachment = army.get("detachment")
    if isinstance(detachment, str) and detachment:
        found |= set(
            Detachment.objects.filter(slug=detachment).values_list("faction__slug", flat=True)
        )
    agents = set(
        Faction.objects.filter(faction_keyword=AGENTS_KEYWORD).values_list("slug", flat=True)
    )
    return {army.get("faction", ""), *agents, *found} - {""}


def rules_bundle(army_lists: list[dict[str, Any]], edition_slug: str) -> dict[str, list[dict]]:
    factions: set[str] = set()
    for army in army_lists:
        factions |= factions_for(army)
    return bundle_for(edition_slug, sorted(factions))


def check(
    army: dict[str, Any], *, battle_size: str | None = None, edition_slug: str | None = None
) -> ArmyCheck:
    """Every problem of an army list (saved or not) for a game of this battle size and edition
    (by default the list's own battle size and the default rule set)."""
    edition_slug = edition_slug or default_ruleset_slug()
    battle_size = battle_size or army.get("battle_size") or BattleSize.INCURSION
    bundle = rules_bundle([army], edition_slug)
    support_units = RuleSet.objects.get(slug=edition_slug).edition().support_units
    return check_army(army, battle_size, bundle, support_units=support_units)


def create_army(owner, data: dict[str, Any]) -> Army:
    return Army.objects.create(owner=owner, **{k: data[k] for k in ARMY_FIELDS if k in data})


@transaction.atomic
def update_army(army: Army, data: dict[str, Any]) -> Army:
    """Armies already picked for a game are unaffected: the game keeps its own snapshot."""
    for name in ARMY_FIELDS:
        if name in data:
            setattr(army, name, data[name])
    army.save()
    return army


def delete_army(army: Army) -> None:
    army.delete()
