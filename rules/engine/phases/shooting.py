"""The Shooting phase (11e 10; 10e Shooting Phase): selecting units to shoot, their weapons and
targets, and resolving their attacks.

Eligibility (`ineligibility`): on the battlefield, not yet selected this phase, with ranged
weapons; not after falling back (11e 09.07, 10e Fall Back); after an advance only with its
[ASSAULT] weapons (`advance_forbids_shooting`, both editions: 11e 10.04-10.05 assault shooting,
10e Assault; rulings R-CB-03); an engaged unit only with close-quarters shooting (11e 10.06: it
did not advance and has [CLOSE-QUARTERS]/[PISTOL]
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
resolves the attacks), `attacks_resolved`, then the `unit_destroyed` windows of the units its
attacks destroyed.

Shooting out of turn (`shoot_out_of_turn`: Fire Overwatch, Exact Punishment) asks the unit's
controller for the same assignments (a `shoot_out_of_turn` decision) and runs the same selection,
window and attacks, "as if it were your Shooting phase" (the attack context's `shooting`).
"""

from __future__ import annotations

import math
from typing import Any

from rules.engine.army.weapons import by_own_profile, weapon_of
from rules.engine.attacks.in_game import AttackGroup, group_data, resolve_attacks
from rules.engine.battlefield.board import EPSILON
from rules.engine.battlefield.placement import edition_of, is_engaged, position_settled
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core import standing_rules, timing
from rules.engine.core.ability_choices import ask_choices
from rules.engine.core.actions import PhaseActions
from rules.engine.core.citations import cite, section
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import effects_on_unit, may_shoot_after_moving
from rules.engine.core.events import Context
from rules.engine.core.facts import has_acted, has_flag, mark_acted, set_flag
from rules.engine.core.refusals import Refusal
from rules.engine.core.selection import own_unit
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, alive_models, on_battlefield, unit_keywords, units_of
from rules.engine.phases import out_of_sequence_moves
from rules.engine.phases.shooting_targets import (
    Asked,
    carried_ranged,
    check_target,
    close_quarters,
    closest_distance,
    has_a_target,
    still_targetable,
    turn_number,
    weapon_options,
)
from rules.engine.phases.transports import firing_deck_attacks, firing_deck_options


def _may_shoot_after_moving(state: State, unit_id: str) -> bool:
    return may_shoot_after_moving(state, unit_id)


def _granted_assault(state: State, unit_id: str) -> bool:
    """An effect gives the unit's weapons [ASSAULT] (Death from the Warp: "ranged weapons
    equipped by models in your unit have the [ASSAULT] ability")."""
    for effect in effects_on_unit(state, unit_id):
        attack = effect["modifier"].get("attack") or {}
        if (
            effect["modifier"].get("as") == "attacker"
            and (attack.get("step"), attack.get("kind")) == ("ability", "grant")
            and str(attack.get("value", "")).lower() == "assault"
        ):
            return True
    return False


def _monster_or_vehicle(state: State, unit: Unit) -> bool:
    return bool({"MONSTER", "VEHICLE"} & unit_keywords(state, unit))


def ineligibility(state: State, unit: Unit) -> Refusal | None:
    """Why the unit cannot be selected to shoot now, or None when it can."""
    with position_settled(state):  # it only reads the state
        return _ineligibility(state, unit)


def _ineligibility(state: State, unit: Unit) -> Refusal | None:
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
    if (
        has_flag(state, unit["id"], "fell_back")
        and not freed
        and not standing_rules.waives(state, unit, "shoot_after_fall_back")
    ):
        return Refusal(
            "fell_back", cite(state, "fall_back"), f"{name} fell back this turn and cannot shoot."
        )
    advanced = has_flag(state, unit["id"], "advanced") and not freed
    if (
        advanced
        and state["edition"]["advance_forbids_shooting"]
        and not any("assault" in " ".join(w.get("abilities", [])).lower() for w in weapons)
        and not _granted_assault(state, unit["id"])
    ):
        return Refusal(
            "advanced",
            section(edition_of(state), "assault"),
            f"{name} advanced this turn and has no [ASSAULT] weapons, so it cannot shoot.",
        )
    if is_engaged(state, unit):
        close = any(close_quarters(w) for w in weapons) or _monster_or_vehicle(state, unit)
        if has_flag(state, unit["id"], "advanced") or not close:
            return Refusal(
                "engaged",
                section(edition_of(state), "close_quarters"),
                f"{name} is engaged: only a unit that did not advance and has [PISTOL] or "
                "[CLOSE-QUARTERS] weapons, or a MONSTER or VEHICLE, can shoot while engaged.",
            )
    return None


def _read_assignments(
    state: State, unit: Unit, action: dict[str, Any]
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
    _check_one_profile(state, chosen)
    return chosen


def _check_one_profile(state: State, chosen: list[tuple[dict[str, Any], list[str], str]]) -> None:
    """A weapon with several profiles ("Plasma gun – standard" / "– supercharge") fires one of
    them per model each time it shoots (CATALOGUE CORE-WEAPON-PROFILES 2, AMB-38; R-WG-06)."""
    fired: dict[tuple[str, str], str] = {}
    for weapon, models, _ in chosen:
        name = weapon["name"]
        for model in models:
            first = fired.setdefault((model, weapon_of(name)), name)
            if first != name:
                raise Refusal(
                    "one_profile_per_weapon",
                    cite(state, "weapon_profiles"),
                    f"{model} fires one profile of its {weapon_of(name)}: {first} or {name}.",
                )


def _check_weapon_mix(
    state: State, unit: Unit, chosen: list[tuple[dict[str, Any], list[str], str]]
) -> None:
    """11e 24.07 / 24.27; 10e Pistols: outside close-quarters shooting a model that is not a
    MONSTER/VEHICLE shoots its [PISTOL]/[CLOSE-QUARTERS] weapons or its other weapons, not
    both. An engaged unit that is not a MONSTER/VEHICLE shoots only those weapons."""
    if _monster_or_vehicle(state, unit):
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
    with position_settled(state):  # the checks only read the state
        refusal = ineligibility(state, unit)
        if refusal is not None:
            raise refusal
        groups, lenders = _attack_groups(state, unit, action)
    _shoot_with(ctx, unit, groups, None, lenders)


def _attack_groups(
    state: State, unit: Unit, action: dict[str, Any]
) -> tuple[list[AttackGroup], list[str]]:
    """The assignments read and checked (Select Targets), as attack groups split by half range,
    and the embarked units lending their weapons through a Firing Deck."""
    groups: list[AttackGroup] = []
    asked = Asked()
    deck, lenders = firing_deck_attacks(state, unit, action.get("firing_deck"))
    for weapon, models, target_id in _read_assignments(state, unit, action) + deck:
        check = check_target(state, unit, weapon, models, target_id, asked)
        if check.refusal is not None:
            raise check.refusal
        near = [m for m in check.shooters if m in check.half_range]
        far = [m for m in check.shooters if m not in check.half_range]
        for members, half in ((near, True), (far, False)):
            groups.extend(
                AttackGroup(
                    profile,
                    tuple(bearers),
                    target_id,
                    half,
                    check.cover,
                    check.indirect,
                    check.spotted,
                    check.cover_models,
                )
                for profile, bearers in by_own_profile(
                    state, unit, "ranged", weapon["name"], members, weapon
                )
            )
    return groups, lenders


def _shoot_with(
    ctx: Context,
    unit: Unit,
    groups: list[AttackGroup],
    then: dict[str, Any] | None,
    lenders: list[str] | tuple[str, ...] = (),
) -> None:
    """The unit is selected to shoot with these groups: the timing points, the window after
    target selection, the attacks, then `then` (None in the Shooting phase itself)."""
    unit_selected_to_shoot(ctx, unit)
    for lender in lenders:
        mark_acted(ctx, lender)
    if lenders:
        rule = cite(ctx.state, "firing_deck")
        ctx.emit("firing_deck", unit=unit["id"], units=list(lenders), rule=rule)
    targets_selected(ctx, unit, groups)
    # Abilities used when the unit is selected to shoot (CAT Unit, Shieldbreaker) come first.
    ask_choices(
        ctx,
        {
            "kind": "selected_to_shoot",
            "unit": unit["id"],
            "weapons": sorted({group.weapon["name"] for group in groups}),
        },
        {
            "step": "shooting_window",
            "unit": unit["id"],
            "groups": [group_data(group) for group in groups],
            "then": then,
        },
    )


@continuation("shooting_window")
def _shooting_window(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    # The stratagem window of this timing point comes before any attack, so an effect used in it
    # (Go to Ground, Hyperstimms, ...) applies to these attacks: they are the window's `then`.
    about = {"unit": data["unit"], "targets": sorted({group["target"] for group in data["groups"]})}
    # "When an enemy unit selects your unit as a target" first, then the selection's own window.
    timing.stratagem_window(
        ctx, "unit_targeted", about, {"step": "targeted_window_closed", "data": data}
    )


@continuation("targeted_window_closed")
def _targeted_window_closed(ctx: Context, closed: dict[str, Any], _choice: Any) -> None:
    data = closed["data"]
    timing.stratagem_window(
        ctx,
        ["unit_selected_to_shoot", "enemy_unit_selected_targets"],
        {"unit": data["unit"], "targets": sorted({group["target"] for group in data["groups"]})},
        then={
            "step": "shooting_attacks",
            "unit": data["unit"],
            "groups": data["groups"],
            "then": data.get("then"),
        },
    )


@continuation("shooting_attacks")
def _shooting_attacks(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    """The window after target selection has closed: resolve the attacks (of the models that
    may still target their unit: Orbital Oversight used in the window, rulings R-ST-21)."""
    groups = still_targetable(ctx.state, data["unit"], data["groups"])
    standing = {
        target: [m["id"] for m in alive_models(ctx.state["units"][target])]
        for target in sorted({group.target for group in groups})
    }
    then = {
        "step": "shooting_attacks_resolved",
        "unit": data["unit"],
        "then": data.get("then"),
        "standing": standing,
    }
    resolve_attacks(ctx, data["unit"], groups, "shooting", then)


@continuation("shooting_attacks_resolved")
def _shooting_attacks_resolved(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    attacks_resolved(ctx, ctx.state["units"][data["unit"]], data["lost"])
    # "Just after a unit is destroyed as the result of an enemy unit's attacks" (Exact
    # Punishment): the windows open once the attacking unit has shot (rulings R-OW-06).
    destroyed = [
        {"unit": unit_id, "fallen": models}
        for unit_id, models in data.get("standing", {}).items()
        if models and not alive_models(ctx.state["units"][unit_id])
    ] + _parts_destroyed(ctx.state, data.get("standing", {}))
    then = {"step": "moves_after_attacks", "unit": data["unit"], "then": data.get("then")}
    # "Just after an enemy unit has shot", then the windows of the units its attacks destroyed.
    after_shot = {"step": "shot_window_closed", "destroyed": destroyed, "then": then}
    timing.stratagem_window(ctx, "enemy_unit_shot", {"unit": data["unit"]}, after_shot)


def _parts_destroyed(state: State, standing: dict[str, list[str]]) -> list[dict[str, Any]]:
    """10e Attached Units (`attached_part_destruction_triggers`): the Leader or Bodyguard part of
    a unit that still stands is a unit destroyed for "when a unit is destroyed" rules (rulings
    R-ENG-12); `part` names it."""
    if not state["edition"]["attached_part_destruction_triggers"]:
        return []
    found = []
    for unit_id, models in standing.items():
        unit = state["units"][unit_id]
        if not alive_models(unit) or len(unit["parts"]) < 2:
            continue
        alive = {m["id"] for m in alive_models(unit)}
        for index, part in enumerate(unit["parts"]):
            fallen = [m["id"] for m in unit["models"] if m["part"] == index and m["id"] in models]
            if fallen and not alive & {m["id"] for m in unit["models"] if m["part"] == index}:
                found.append({"unit": unit_id, "fallen": fallen, "part": part["key"]})
    return found


@continuation("shot_window_closed")
def _shot_window_closed(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    attacker = data["then"]["unit"]
    timing.units_destroyed_by_attacks(ctx, data["destroyed"], attacker, data["then"])


@continuation("moves_after_attacks")
def _moves_after_attacks(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    # Normal moves waiting for this unit's attacks (Displacer Field, Personal Teleporters).
    out_of_sequence_moves.after_attacks_resolved(ctx, data["unit"], data["then"])


# --- shooting out of turn -----------------------------------------------------------------

OUT_OF_TURN_KIND = "shoot_out_of_turn"


def out_of_turn_targets(
    state: State, unit: Unit, allowed: list[str] | None, within: float | None
) -> list[dict[str, Any]]:
    """The unit's weapon options (`weapon_options`) narrowed to the targets a rule allows: the
    units in `allowed` (None: any), within `within` inches of the unit (None: any range)."""
    return weapon_options(state, unit, _out_of_turn_among(state, unit, allowed, within))


def _out_of_turn_among(
    state: State, unit: Unit, allowed: list[str] | None, within: float | None
) -> list[str]:
    return [
        other["id"]
        for other in state["units"].values()
        if other["player"] != unit["player"]
        and (allowed is None or other["id"] in allowed)
        and (within is None or unit_distance(unit, other) <= within + EPSILON)
    ]


def can_shoot_out_of_turn(
    state: State, unit: Unit, allowed: list[str] | None, within: float | None = None
) -> bool:
    """Would the unit be eligible to shoot if it were its Shooting phase, with one weapon that
    has one of the allowed targets?"""
    with position_settled(state):  # it only reads the state: one position for every question
        if ineligibility(state, unit) is not None:
            return False
        return has_a_target(state, unit, _out_of_turn_among(state, unit, allowed, within))


def shoot_out_of_turn(
    ctx: Context,
    unit_id: str,
    rule: str,
    then: dict[str, Any] | None,
    allowed: list[str] | None = None,
    within: float | None = None,
    single_target: bool = False,
) -> None:
    """A rule lets the unit shoot as if it were its Shooting phase (Fire Overwatch, Exact
    Punishment): its controller answers a `shoot_out_of_turn` decision with `assignments` (as
    the `shoot` action) or null (it does not shoot). The attacks are the Shooting phase's own
    (selection, the window after target selection, the attack sequence); then `then`."""
    state = ctx.state
    unit = state["units"][unit_id]
    options = out_of_turn_targets(state, unit, allowed, within)
    if ineligibility(state, unit) is not None or not any(o["targets"] for o in options):
        ctx.emit("shooting_out_of_turn_impossible", unit=unit_id, rule=rule)
        carry_on(ctx, then)
        return
    push_decision(
        ctx,
        unit["player"],
        OUT_OF_TURN_KIND,
        {
            "unit": unit_id,
            "weapons": options,
            "single_target": single_target,
            # What the browser offers as "shoot this unit": the default assignment at each target.
            "default_assignments_by_target": {
                target: default_assignments(
                    state,
                    unit,
                    [{**o, "targets": [target]} for o in options if target in o["targets"]],
                )
                for target in sorted({t for o in options for t in o["targets"]})
            },
        },
        {
            "step": "shot_out_of_turn",
            "unit": unit_id,
            "allowed": allowed,
            "within": within,
            "single_target": single_target,
            "rule": rule,
            "then": then,
        },
        rule,
        f"Shoot with {unit['name']} ({'one target' if single_target else 'its targets'}), "
        "or null to hold fire.",
    )


@continuation("shot_out_of_turn")
def _shot_out_of_turn(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    state = ctx.state
    unit = state["units"][data["unit"]]
    if choice is None:
        ctx.emit("shooting_out_of_turn_declined", unit=unit["id"])
        carry_on(ctx, data["then"])
        return
    if not isinstance(choice, dict):
        raise Refusal(
            "assignments_required",
            data["rule"],
            'Answer with {"assignments": [{"weapon", "target"}]} or null.',
        )
    groups, _lenders = _attack_groups(state, unit, choice)
    targets = {group.target for group in groups}
    allowed = out_of_turn_targets(state, unit, data["allowed"], data["within"])
    reachable = {t for option in allowed for t in option["targets"]}
    if not targets <= reachable or (data["single_target"] and len(targets) > 1):
        raise Refusal(
            "target_not_allowed",
            data["rule"],
            f"{unit['name']} may only shoot "
            + ("one of " if data["single_target"] else "")
            + f"these units now: {', '.join(sorted(reachable))}.",
        )
    _shoot_with(ctx, unit, groups, data["then"])


def unit_selected_to_shoot(ctx: Context, unit: Unit) -> None:
    """Timing point: the unit has been selected to shoot."""
    mark_acted(ctx, unit["id"])
    set_flag(ctx, unit["id"], "shot")
    unit["shot_in_turn"] = turn_number(ctx.state)
    ctx.emit("unit_selected_to_shoot", unit=unit["id"])


def targets_selected(ctx: Context, unit: Unit, groups: list[AttackGroup]) -> None:
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
                "cover_models": list(group.cover_models),
                "indirect": group.indirect,
            }
            for group in groups
        ],
    )


def attacks_resolved(ctx: Context, unit: Unit, lost: dict[str, int]) -> None:
    """Timing point: the unit's attacks (and its hazard rolls) are resolved."""
    ctx.emit("attacks_resolved", unit=unit["id"], wounds_lost=lost)


def shoot_template(state: State, unit: Unit) -> dict[str, Any] | None:
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
        "default_assignments": default_assignments(state, unit, options),
    }
    deck = firing_deck_options(state, unit)
    if deck is not None:
        template["firing_deck_options"] = deck
    return template


def default_assignments(
    state: State, unit: Unit, options: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The weapon -> target assignment a player starts from (the `shoot` template's
    `default_assignments`; the browser shows it for editing): every weapon at the enemy unit the
    most of the unit's weapons can shoot (the closest on a tie), or else at the closest target it
    can shoot. The weapon mix is the one `_check_weapon_mix` accepts (11e 24.07, 24.27; 10e
    Pistols): a model that is not a MONSTER or VEHICLE fires its [PISTOL]/[CLOSE-QUARTERS]
    weapons only when it fires no other weapon, and only those while its unit is engaged. A
    weapon with several profiles fires its first (R-WG-06: one profile per weapon)."""
    firsts: dict[str, dict[str, Any]] = {}
    for option in options:
        firsts.setdefault(option.get("weapon_of") or option["weapon"], option)
    options = list(firsts.values())
    targets = sorted({t for option in options for t in option["targets"]})
    distance = {t: closest_distance(state, unit, t) for t in targets}
    reach = {t: sum(t in option["targets"] for option in options) for t in targets}
    focus = min(targets, key=lambda t: (-reach[t], distance[t], t))

    def aim(option: dict[str, Any], models: list[str]) -> dict[str, Any]:
        target = (
            focus
            if focus in option["targets"]
            else min(option["targets"], key=lambda t: distance.get(t, math.inf))
        )
        return {"weapon": option["weapon"], "models": models, "target": target}

    if _monster_or_vehicle(state, unit):
        return [aim(option, option["models"]) for option in options]
    close = [option for option in options if option["close_quarters"]]
    if is_engaged(state, unit):
        return [aim(option, option["models"]) for option in close]
    others = [aim(option, option["models"]) for option in options if not option["close_quarters"]]
    busy = {model for assignment in others for model in assignment["models"]}
    idle = [
        aim(option, [m for m in option["models"] if m not in busy])
        for option in close
        if any(m not in busy for m in option["models"])
    ]
    return others + idle


# --- the phase's actions (core/actions.py) ------------------------------------------------------


def legal_actions(state: State, player: int) -> list[dict[str, Any]]:
    """A `shoot` template for each of the player's units eligible to shoot with a target."""
    found = []
    for unit in units_of(state, player):
        if ineligibility(state, unit) is None:
            template = shoot_template(state, unit)
            if template is not None:
                found.append(template)
    return found


PHASE = PhaseActions("shooting", {"shoot": shoot}, legal_actions)
