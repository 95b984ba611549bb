"""The missions a new game may be played on, from the rules data, with a thumbnail of each layout
(battlefield, deployment zones, terrain footprints, objective markers) for the lobby's form."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from games.models import BattleSize
from rules.models import Mission


def _points(polygon: list[list[float]]) -> str:
    return " ".join(f"{x},{y}" for x, y, *_ in polygon)


def thumbnail(layout: dict[str, Any]) -> dict[str, Any]:
    """The layout as SVG shapes in inches (the template scales the viewBox)."""
    field = layout.get("battlefield") or {}
    return {
        "width": field.get("width", 60),
        "depth": field.get("depth", 44),
        "zones": [
            {"player": player, "points": _points(polygon)}
            for player, polygon in sorted((layout.get("deployment_zones") or {}).items())
        ],
        "terrain": [
            {"kind": piece.get("kind", ""), "points": _points(piece.get("footprint") or [])}
            for piece in layout.get("terrain") or []
        ],
        "objectives": [
            {"x": marker["x"], "y": marker["y"]} for marker in layout.get("objective_markers") or []
        ],
    }


def available(ruleset_slug: str | None = None) -> list[dict[str, Any]]:
    """Every mission (of any rule set, or of `ruleset_slug` and those of no rule set), by battle
    size then name, with its name and thumbnail."""
    missions = Mission.objects.select_related("edition")
    if ruleset_slug:
        missions = missions.filter(Q(edition__isnull=True) | Q(edition__slug=ruleset_slug))
    return [
        {
            "slug": mission.slug,
            "name": mission.name,
            "battle_size": mission.battle_size,
            "edition": mission.edition.slug if mission.edition else None,
            "thumbnail": thumbnail(mission.layout),
        }
        for mission in missions.order_by("battle_size", "name")
    ]


def size_label(battle_size: str) -> str:
    """A battle size as players read it ("Incursion (1000 points)"); a mission's layout may name
    a size the lobby does not offer, which is shown as written."""
    return dict(BattleSize.choices).get(battle_size, battle_size)


def fits(mission_slug: str, battle_size: str, ruleset_slug: str) -> str | None:
    """Why this mission cannot be played at this battle size and rule set, or None."""
    mission = Mission.objects.select_related("edition").filter(slug=mission_slug).first()
    if mission is None:
        return f"There is no mission {mission_slug!r}."
    if mission.battle_size and mission.battle_size != battle_size:
        return (
            f"{mission.name} is played at {size_label(mission.battle_size)}, "
            f"not {size_label(battle_size)}."
        )
    if mission.edition is not None and mission.edition.slug != ruleset_slug:
        return f"{mission.name} belongs to another rule set."
    return None
