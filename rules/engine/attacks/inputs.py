"""The game state's units as inputs of the attack sequence: the target unit's models
(`TargetUnit`, each model with its Feel No Pain and the Bodyguard/Leader part of an attached
unit it belongs to) and the `AttackContext` (the turn's flags, engagement, the phase)."""

from __future__ import annotations

from rules.engine.army.attached_units import every_model_has
from rules.engine.attacks.casualties import feel_no_pain
from rules.engine.attacks.effect_modifiers import attack_modifiers
from rules.engine.attacks.modifiers import Modifier
from rules.engine.attacks.profiles import AttackContext, TargetModel, TargetUnit
from rules.engine.battlefield.placement import edition_of, engaged_units, position_settled
from rules.engine.core.effects import characteristic, may_shoot_after_moving
from rules.engine.core.facts import MOVE_FLAGS, has_flag
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.standing_rules import ATTACK_RULES, mortal_wound_feel_no_pain
from rules.engine.core.state import State, alive_models, unit_keywords


def target_profile(
    state: State, unit: Unit, mortal_wounds: bool = False
) -> tuple[TargetUnit, list[Model]]:
    """The unit as the attack sequence sees it: its living models in the owner's order, each
    with T, Sv, W, invulnerable save (effects applied), its own Feel No Pain, CHARACTER and
    whether it is a Bodyguard model of an attached unit (11e 05.02.01). `mortal_wounds`: the
    unit is about to suffer only mortal wounds (hazard rolls), so Feel No Pain against mortal
    wounds counts."""
    models = alive_models(unit)
    against = mortal_wound_feel_no_pain(state, unit) if mortal_wounds else None
    attached = len(unit["parts"]) > 1
    keywords = frozenset(unit_keywords(state, unit))
    profile = []
    fnp_of_part: dict[int, int | None] = {}
    for model in models:
        part = unit["parts"][model["part"]]
        # Each model's own Feel No Pain (10e: a Leader's is not its Bodyguard's; R-ENG-14),
        # the same for every model of a part.
        if model["part"] not in fnp_of_part:
            own = feel_no_pain(state, unit, model)
            fnp_of_part[model["part"]] = min((v for v in (own, against) if v), default=None)
        fnp = fnp_of_part[model["part"]]
        profile.append(
            TargetModel(
                toughness=characteristic(state, unit["id"], model, "T"),
                save=characteristic(state, unit["id"], model, "Sv"),
                wounds=model["W"],
                invulnerable=characteristic(state, unit["id"], model, "invulnerable_save"),
                feel_no_pain=fnp,
                character=bool(model.get("character")),
                bodyguard=part.get("role") not in ("leader", "support"),
                wounds_left=model["wounds_left"],
                name=model["name"],
                keywords=keywords,
            )
        )
    return TargetUnit(tuple(profile), keywords, attached), models


def attack_context(
    state: State,
    attacking: Unit,
    target_id: str,
    *,
    half_range: bool = False,
    cover: bool = False,
    indirect: bool = False,
    spotted: bool = False,
    engagement: dict[str, list[str]] | None = None,
    models: tuple[str, ...] | None = None,
    shooting: bool | None = None,
    with_modifiers: bool = True,
) -> AttackContext:
    """The facts the attack sequence asks about, read from the state (flags of this turn,
    engagement, the phase) and the modifiers stratagem effects give these attacks now
    (`effect_modifiers.attack_modifiers`: asked per attacking unit and target at the
    moment of the attack, as their `only_if` conditions require). `engagement` caches
    `engaged_units` per unit id for callers that ask about many targets of one unit while
    nothing moves. `models`: the attacking models (default: every model of the unit), for the
    standing rules that hold for some models only (`standing_rules.ATTACK_RULES`). `shooting`
    says the attacks are made in (or as if it were) the attacking player's Shooting phase (Fire
    Overwatch, Exact Punishment); by default, the phase is the Shooting phase.
    `with_modifiers` False: the context without the modifiers (none asked of the rules), for a
    question that does not read them (`sequence.weapon_check_reads_modifiers`)."""
    # It only reads the state: the position is looked up once for every question it asks.
    with position_settled(state):
        engagement = {} if engagement is None else engagement

        def engaged(unit: Unit) -> list[str]:
            if unit["id"] not in engagement:
                engagement[unit["id"]] = engaged_units(state, unit)
            return engagement[unit["id"]]

        unit_id = attacking["id"]
        engaged_with = set(engaged(attacking))
        target = state["units"][target_id]
        friends_engaged = any(
            state["units"][other]["player"] == attacking["player"] for other in engaged(target)
        )
        shooting = state["phase"] == "shooting" if shooting is None else shooting
        # 11e 24.16 [HEAVY]: a move of at most 3" keeps the unit braced (R-CB-06).
        moved = any(has_flag(state, unit_id, f) for f in MOVE_FLAGS) and not has_flag(
            state, unit_id, "moved_within_3"
        )
        advanced = has_flag(state, unit_id, "advanced") and not may_shoot_after_moving(
            state, unit_id
        )
        return AttackContext(
            edition=edition_of(state),
            half_range=half_range,
            cover=cover,
            charged=has_flag(state, unit_id, "charged"),
            remained_stationary=has_flag(state, unit_id, "remained_stationary"),
            moved_more_than_3=moved,
            # Arriving from reserves and disembarking are both set-ups (11e 20.04, 18.04).
            set_up_this_turn=any(
                has_flag(state, unit_id, f) for f in ("arrived_from_reserves", "disembarked")
            ),
            shooting_phase=shooting,
            # Emperor's Will: "eligible to shoot in a turn in which it Advanced" reaches the weapon
            # check too (issue 14 defect 14).
            advanced=advanced,
            engaged=bool(engaged_with) and shooting,
            target_engaged_with_attacker=target_id in engaged_with,
            target_engaged_with_attacker_army=friends_engaged,
            indirect=indirect,
            indirect_spotted=spotted,
            modifiers=attack_modifiers(state, unit_id, target_id, models)
            + standing_modifiers(state, attacking, target, models)
            + stealth_modifiers(state, target)
            if with_modifiers
            else (),
        )


# 10e Stealth: "each time a ranged attack is made against it, subtract 1 from that attack's Hit
# roll" (11e 24.33 makes it the benefit of cover instead: `phases.shooting_targets`).
STEALTH_HIT = Modifier("hit", "add", -1, (("weapon_type", "ranged"),), "Stealth")


def has_stealth(state: State, unit: Unit) -> bool:
    """Every model of the unit has the Stealth ability (11e 24.33; 10e Stealth)."""
    return every_model_has(state, unit, "stealth")


def stealth_modifiers(state: State, target: Unit) -> tuple:
    if state["edition"]["stealth"] == "minus_one_to_hit" and has_stealth(state, target):
        return (STEALTH_HIT,)
    return ()


def standing_modifiers(
    state: State,
    attacking: Unit,
    target: Unit,
    models: tuple[str, ...] | None = None,
) -> tuple:
    """The modifiers standing rules (abilities, detachment rules, enhancements) give these
    attacks: each rule in `standing_rules.ATTACK_RULES` is asked with the attacking models."""
    if models is None:
        models = tuple(m["id"] for m in alive_models(attacking))
    found: list = []
    for rule in ATTACK_RULES:
        found.extend(rule(state, attacking, target, models))
    return tuple(found)
