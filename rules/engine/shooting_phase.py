"""The Shooting phase (11e 10; 10e Shooting Phase): selecting units to shoot, their weapons and
targets, and resolving their attacks.

Eligibility (`ineligibility`): on the battlefield, not yet selected this phase, with ranged
weapons; not after falling back (11e 09.07, 10e Fall Back); after an advance only where the
edition allows it (`advance_forbids_shooting`: 10e Assault, a unit that advanced shoots only its
[ASSAULT] weapons; 11e 09.06 as seeded does not forbid shooting, DIFF-04); an engaged unit only
with close-quarters shooting (11e 10.06: it did not advance and has [CLOSE-QUARTERS]/[PISTOL]
weapons or is a MONSTER/VEHICLE; 10e Pistols and Big Guns Never Tire, the same shape). An effect
`{"eligibility": "shoot_after_advance_or_fall_back"}` lifts the advance and fall-back limits.

Targets, per weapon profile (`shooting_targets.weapon_options`): an enemy unit on the battlefield
that is visible to and within range of one or more models carrying the weapon (11e 06.01, 04; 10e
Determining Visibility, Select Targets), seen through `visibility.unit_visibility` (Lone Operative
11e 24.24, hidden 13.09 included); [INDIRECT FIRE] weapons need no visibility and the target then
has the benefit of cover (11e 10.07, 24.19; 10e Indirect Fire). The weapon-level rules ([ASSAULT],
[PISTOL]/[CLOSE-QUARTERS], [BLAST]) are `attack_sequence.check_weapon_may_attack`.

Timing points other rules hook into: `unit_selected_to_shoot`, `targets_selected` (then the
stratagem window `unit_selected_to_shoot` / `enemy_unit_selected_targets`, whose continuation
resolves the attacks), `attacks_resolved`.
"""

from __future__ import annotations

from typing import Any

from rules.engine import windows
from rules.engine.attack_game import AttackGroup, group_data, resolve_attacks
from rules.engine.citations import cite, section
from rules.engine.effects import effects_on_unit
from rules.engine.events import Context
from rules.engine.facts import has_acted, has_flag, mark_acted, set_flag
from rules.engine.placement import edition_of, is_engaged
from rules.engine.refusals import Refusal
from rules.engine.selection import own_unit
from rules.engine.sequencing import continuation
from rules.engine.shooting_targets import (
    carried_ranged,
    check_target,
    close_quarters,
    turn_number,
    weapon_options,
)
from rules.engine.state import State, alive_models, on_battlefield
from rules.engine.transports import firing_deck_attacks, firing_deck_options


def _may_shoot_after_moving(state: State, unit_id: str) -> bool:
    return any(
        e["modifier"].get("eligibility") == "shoot_after_advance_or_fall_back"
        for e in effects_on_unit(state, unit_id)
    )


def _monster_or_vehicle(unit: dict[str, Any]) -> bool:
    return bool({"MONSTER", "VEHICLE"} & {k.upper() for k in unit["keywords"]})


def ineligibility(state: State, unit: dict[str, Any]) -> Refusal | None:
    """Why the unit cannot be selected to shoot now, or None when it can."""
    name = unit["name"]
    if not on_battlefield(unit):
        return Refusal(
            "not_on_battlefield",
            cite(state, "shooting_phase"),
            f"{name} is not on the battlefield.",
        )
    if has_acted(state, unit["id"]):
        return Refusal(
            "already_acted", cite(state, "once_per_phase"), f"{name} has already shot this phase."
        )
    weapons = [weapon for weapon, _ in carried_ranged(state, unit).values()]
    if not weapons:
        return Refusal(
            "no_ranged_weapons", cite(state, "shooting_phase"), f"{name} has no ranged weapons."
        )
    freed = _may_shoot_after_moving(state, unit["id"])
    if has_flag(state, unit["id"], "fell_back") and not freed:
        return Refusal(
            "fell_back", cite(state, "fall_back"), f"{name} fell back this turn and cannot shoot."
        )
    advanced = has_flag(state, unit["id"], "advanced") and not freed
    if (
        advanced
        and state["edition"]["advance_forbids_shooting"]
        and not any("assault" in " ".join(w.get("abilities", [])).lower() for w in weapons)
    ):
        return Refusal(
            "advanced",
            section(edition_of(state), "assault"),
            f"{name} advanced this turn and has no [ASSAULT] weapons, so it cannot shoot.",
        )
    if is_engaged(state, unit):
        close = any(close_quarters(w) for w in weapons) or _monster_or_vehicle(unit)
        if has_flag(state, unit["id"], "advanced") or not close:
            return Refusal(
                "engaged",
                section(edition_of(state), "close_quarters"),
                f"{name} is engaged: only a unit that did not advance and has [PISTOL] or "
                "[CLOSE-QUARTERS] weapons, or a MONSTER or VEHICLE, can shoot while engaged.",
            )
    return None


def _read_assignments(
    state: State, unit: dict[str, Any], action: dict[str, Any]
) -> list[tuple[dict[str, Any], list[str], str]]:
    rule = cite(state, "shooting_phase")
    assignments = action.get("assignments")
    if not isinstance(assignments, list) or not assignments:
        raise Refusal(
            "assignments_required",
            rule,
            'Say which weapon shoots at which target: "assignments": [{"weapon", "target"}].',
        )
    carried = carried_ranged(state, unit)
    chosen: list[tuple[dict[str, Any], list[str], str]] = []
    used: set[tuple[str, str]] = set()
    for item in assignments:
        name = item.get("weapon") if isinstance(item, dict) else None
        if name not in carried:
            raise Refusal(
                "unknown_weapon",
                rule,
                f"{unit['name']} has no ranged weapon {name!r}.",
                {"weapons": sorted(carried)},
            )
        weapon, carriers = carried[name]
        models = item.get("models")
        if models is None:
            models = [m for m in carriers if (name, m) not in used]
        elif not isinstance(models, list) or any(m not in carriers for m in models):
            raise Refusal(
                "weapon_not_carried",
                rule,
                f"Only models carrying {name} can shoot it.",
                {"models": carriers},
            )
        if not models or any((name, m) in used for m in models):
            raise Refusal(
                "weapon_assigned_twice",
                rule,
                f"Each model shoots {name} once: give each target its own models.",
            )
        used.update((name, m) for m in models)
        chosen.append((weapon, list(models), item.get("target")))
    _check_weapon_mix(state, unit, chosen)
    return chosen


def _check_weapon_mix(
    state: State, unit: dict[str, Any], chosen: list[tuple[dict[str, Any], list[str], str]]
) -> None:
    """11e 24.07 / 24.27; 10e Pistols: outside close-quarters shooting a model that is not a
    MONSTER/VEHICLE shoots its [PISTOL]/[CLOSE-QUARTERS] weapons or its other weapons, not
    both. An engaged unit that is not a MONSTER/VEHICLE shoots only those weapons."""
    if _monster_or_vehicle(unit):
        return
    engaged = is_engaged(state, unit)
    for model in alive_models(unit):
        fired = [weapon for weapon, models, _ in chosen if model["id"] in models]
        close = [w for w in fired if close_quarters(w)]
        if engaged and len(close) < len(fired):
            raise Refusal(
                "close_quarters_weapon_required",
                section(edition_of(state), "pistol"),
                "While engaged, only [PISTOL] or [CLOSE-QUARTERS] weapons can shoot.",
            )
        if close and len(close) < len(fired):
            raise Refusal(
                "close_quarters_or_other_weapons",
                section(edition_of(state), "pistol"),
                "A model shoots either its [PISTOL]/[CLOSE-QUARTERS] weapons or its other ranged "
                "weapons, not both.",
            )


def shoot(ctx: Context, action: dict[str, Any]) -> None:
    """Select a unit to shoot with its weapon -> target assignments, and resolve the attacks."""
    state = ctx.state
    unit = own_unit(ctx, action, cite(state, "shooting_phase"))
    refusal = ineligibility(state, unit)
    if refusal is not None:
        raise refusal
    groups: list[AttackGroup] = []
    engagement: dict[str, list[str]] = {}
    sights: dict[str, Any] = {}
    deck, lenders = firing_deck_attacks(state, unit, action.get("firing_deck"))
    for weapon, models, target_id in _read_assignments(state, unit, action) + deck:
        check = check_target(state, unit, weapon, models, target_id, engagement, sights)
        if check.refusal is not None:
            raise check.refusal
        near = [m for m in check.shooters if m in check.half_range]
        far = [m for m in check.shooters if m not in check.half_range]
        for members, half in ((near, True), (far, False)):
            if members:
                groups.append(
                    AttackGroup(
                        weapon,
                        tuple(members),
                        target_id,
                        half,
                        check.cover,
                        check.indirect,
                        check.spotted,
                    )
                )
    unit_selected_to_shoot(ctx, unit)
    for lender in lenders:
        mark_acted(ctx, lender)
    if deck:
        ctx.emit("firing_deck", unit=unit["id"], units=lenders, rule=cite(state, "firing_deck"))
    targets_selected(ctx, unit, groups)
    # The stratagem window of this timing point comes before any attack, so an effect used in it
    # (Go to Ground, Hyperstimms, ...) applies to these attacks: they are the window's `then`.
    windows.open_window(
        ctx,
        ["unit_selected_to_shoot", "enemy_unit_selected_targets"],
        {"unit": unit["id"], "targets": sorted({group.target for group in groups})},
        then={
            "step": "shooting_attacks",
            "unit": unit["id"],
            "groups": [group_data(group) for group in groups],
        },
    )


@continuation("shooting_attacks")
def _shooting_attacks(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    """The window after target selection has closed: resolve the attacks."""
    groups = [AttackGroup.from_data(group) for group in data["groups"]]
    then = {"step": "shooting_attacks_resolved", "unit": data["unit"]}
    resolve_attacks(ctx, data["unit"], groups, "shooting", then)


@continuation("shooting_attacks_resolved")
def _shooting_attacks_resolved(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    attacks_resolved(ctx, ctx.state["units"][data["unit"]], data["lost"])


def unit_selected_to_shoot(ctx: Context, unit: dict[str, Any]) -> None:
    """Timing point: the unit has been selected to shoot."""
    mark_acted(ctx, unit["id"])
    set_flag(ctx, unit["id"], "shot")
    unit["shot_in_turn"] = turn_number(ctx.state)
    ctx.emit("unit_selected_to_shoot", unit=unit["id"])


def targets_selected(ctx: Context, unit: dict[str, Any], groups: list[AttackGroup]) -> None:
    """Timing point: every weapon's target is chosen, before any attack is made."""
    ctx.emit(
        "targets_selected",
        unit=unit["id"],
        attacks=[
            {
                "weapon": group.weapon["name"],
                "models": list(group.models),
                "target": group.target,
                "half_range": group.half_range,
                "cover": group.cover,
                "indirect": group.indirect,
            }
            for group in groups
        ],
    )


def attacks_resolved(ctx: Context, unit: dict[str, Any], lost: dict[str, int]) -> None:
    """Timing point: the unit's attacks (and its hazard rolls) are resolved."""
    ctx.emit("attacks_resolved", unit=unit["id"], wounds_lost=lost)


def shoot_template(state: State, unit: dict[str, Any]) -> dict[str, Any] | None:
    """The `shoot` action template for `legal_actions`, or None when no weapon has a target."""
    options = [o for o in weapon_options(state, unit) if o["targets"]]
    if not options:
        return None
    template = {
        "type": "shoot",
        "player": unit["player"],
        "unit": unit["id"],
        "assignments": "required",
        "weapons": options,
    }
    deck = firing_deck_options(state, unit)
    if deck is not None:
        template["firing_deck_options"] = deck
    return template
