"""Army lists: saving a player's armies and checking them against the rules data.

The check itself is the engine's pure `rules.engine.army_rules.check_army`; this module only reads
the rules data it needs from the database and writes `Army` rows.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.army_lists.export import export_app_text
from games.army_lists.matching import match_list
from games.army_lists.names import normalise, singular_name
from games.army_lists.parsed import ParsedList
from games.army_lists.uploads import read_list
from games.models import Army, BattleSize
from games.not_enforced import not_enforced
from rules.engine import ArmyCheck, ally_faction_keywords, check_army
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
    allies = set(
        Faction.objects.filter(faction_keyword__in=ally_faction_keywords()).values_list(
            "slug", flat=True
        )
    )
    return {army.get("faction", ""), *allies, *found} - {""}


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


def _factions_named(parsed: ParsedList) -> set[str]:
    """The factions whose rules a list may need: those its header names and those of every
    datasheet (or alias) its units name; only their records are read from the database."""
    wanted = {normalise(name) for name, _line in parsed.header}
    if parsed.detachment:
        wanted.add(normalise(parsed.detachment[0]))
    found = {
        slug
        for slug, name, keyword in Faction.objects.values_list("slug", "name", "faction_keyword")
        if normalise(name) in wanted or normalise(keyword) in wanted
    }
    found |= {
        faction
        for name, faction in Detachment.objects.values_list("name", "faction__slug")
        if normalise(name) in wanted
    }
    units = {normalise(unit.name) for unit in parsed.units}
    units |= {singular_name(unit.name) for unit in parsed.units}
    for name, faction, aliases in Datasheet.objects.values_list("name", "faction__slug", "aliases"):
        if units & {normalise(name), *(normalise(alias) for alias in aliases)}:
            found.add(faction)
    allies = Faction.objects.filter(faction_keyword__in=ally_faction_keywords())
    return found | set(allies.values_list("slug", flat=True))


def import_list(
    data: bytes | str, *, filename: str = "", edition_slug: str | None = None
) -> dict[str, Any]:
    """Read a pasted list or an uploaded roster and match it to the rules data: the army (not
    saved: the player fixes it in the builder first), the report of every line not used, the
    Leaders the builder may attach, and `check_army`'s verdict. Raises `UploadRefused`."""
    parsed = read_list(data, filename)
    edition_slug = edition_slug or default_ruleset_slug()
    bundle = bundle_for(edition_slug, sorted(_factions_named(parsed)))
    matched = match_list(parsed, bundle)
    return {
        "format": parsed.format,
        "army": matched.army,
        "report": matched.report,
        "proposals": matched.proposals,
        "check": check_with_rules_not_enforced(matched.army, edition_slug=edition_slug),
    }


def check_with_rules_not_enforced(
    army: dict[str, Any], *, edition_slug: str | None = None
) -> dict[str, Any]:
    """`check` as a dict, with the army's rules the engine does not enforce (`not_enforced`)."""
    edition_slug = edition_slug or default_ruleset_slug()
    verdict = check(army, edition_slug=edition_slug).as_dict()
    verdict["not_enforced"] = not_enforced(army, rules_bundle([army], edition_slug))
    return verdict


def export_list(army: Army, edition_slug: str | None = None) -> str:
    """The army in the Warhammer 40,000 app's text format."""
    listed = army_list(army)
    return export_app_text(listed, rules_bundle([listed], edition_slug or default_ruleset_slug()))
