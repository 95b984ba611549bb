"""Imperial Agents (seed 000 and the published datasheets): the Inquisitor's abilities, the
detachment rules, the enhancements and the datasheet abilities, each through the engine's
pipelines (`standing_rules` hooks): attack modifiers, characteristics, command points,
battle-shock and the choices offered at the start of a phase or when a unit is selected to shoot.

Which model does what (`attached_units`): an enhancement is carried by its bearer model
(`model["enhancements"]`, set at muster); wargear (Blessed Wardings, Psychic Gifts, Endurant
Shield, Tome-skull, Nuncio Aquila, Glovodan Psyber-eagle) by the model whose `wargear` names it
when the state marks one, else by the models of the part whose list entry chose it or whose
datasheet loadout gives it (rulings R-IA-02). Rules a model has ("each time an INQUISITOR model
makes an attack") hold for the attack groups whose models all have it; groups are split by part
(rulings R-IA-01).
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import (
    ability_names,
    bearers,
    carries,
    has_enhancement,
    is_leading,
    is_led_with,
    leader_ability,
    part_of,
    sheet_of,
    wargear_count,
)
from rules.engine.army.attached_units import model_has as has_ability
from rules.engine.army.unit_strength import below_half_strength
from rules.engine.attacks.casualties import allocate_mortal_wounds, lose_wounds
from rules.engine.attacks.modifiers import Modifier
from rules.engine.battlefield.objective_range import units_within_range, within_range
from rules.engine.battlefield.placement import is_engaged
from rules.engine.battlefield.sight import visible
from rules.engine.battlefield.state_distances import model_distance, unit_distance, within_of_point
from rules.engine.core import standing_rules
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import add_effect, effects_on_unit, remove_effect
from rules.engine.core.events import Context
from rules.engine.core.facts import set_flag
from rules.engine.core.hooks import RuleKind, implements
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.standing_rules import (
    AFTER_CP_GAIN,
    AFTER_STRATAGEM,
    ATTACK_RULES,
    BEFORE_FALL_BACK,
    CHARACTERISTIC_RULES,
    ENHANCEMENT_BEARERS,
    FORMATION_SELECTIONS,
    GRENADE_CHOICES,
    IGNORES_LONE_OPERATIVE,
    INGRESS_CHOICES,
    PHASE_START_CHOICES,
    REDEPLOYMENTS,
    SELECTED_TO_FIGHT,
    SHOOT_CHOICES,
    STRATAGEM_DISCOUNTS,
)
from rules.engine.core.state import (
    State,
    alive_models,
    detachment,
    on_battlefield,
    opponent,
)
from rules.engine.phases.battle_shock import (
    BATTLE_SHOCKED,
    battle_shock_roll,
    best_leadership,
    is_battle_shocked,
)
from rules.engine.phases.command_points import gain_command_points

AGENTS = "AGENTS OF THE IMPERIUM"
SEED = "seed 000"


# --- who has what -----------------------------------------------------------------------------


def model_keywords(state: State, unit: Unit, model: Model) -> set[str]:
    """The keywords of the model's own datasheet (faction keywords included), and PSYKER from
    Psychic Gifts."""
    sheet = sheet_of(state, unit, model)
    found = {k.upper() for k in sheet.get("keywords", []) + sheet.get("faction_keywords", [])}
    if "Psychic Gifts" in ability_names(sheet) and carries(state, unit, model, "psychic gifts"):
        found.add("PSYKER")
    return found


def _models(unit: Unit, ids: tuple[str, ...]) -> list[Model]:
    wanted = set(ids)
    return [m for m in unit["models"] if m["id"] in wanted]


def _all(models: list[Model], test) -> bool:
    return bool(models) and all(test(model) for model in models)


def _mod(step: str, kind: str, value: Any, source: str, **condition: Any) -> Modifier:
    return Modifier(step, kind, value, tuple(sorted(condition.items())), source)


def _within(model: Model, unit: Unit, inches: float) -> bool:
    """The model (on the battlefield) is within `inches` of the unit (on the battlefield)."""
    return (
        model.get("x") is not None
        and on_battlefield(unit)
        and any(model_distance(model, other) <= inches + 1e-9 for other in alive_models(unit))
    )


# --- Muster: the bearer carries its enhancement ------------------------------------------------


def muster_bearer(model: Model, enhancements: list[str]) -> None:
    """Formidable Resolve improves the bearer's Ld and W by 1 for the battle (seed 000 L727;
    improving Ld lowers the target, AMB-45). Its once-per-battle recovery is
    `formidable_resolve_choices`."""
    if "formidable-resolve" in enhancements:
        model["Ld"] -= 1
        model["W"] += 1
        model["wounds_left"] += 1


# --- Attacks ---------------------------------------------------------------------------------

DAEMON_HUNTERS = ("INQUISITOR", "INQUISITORIAL AGENTS", "ORDO MALLEUS")
PURGATION_FORCE = ("ADEPTUS ARBITES", "INQUISITOR", "INQUISITORIAL AGENTS", "ORDO HERETICUS")


def destroy_the_daemonic(state: State, attacking, target, models) -> list[Modifier]:
    """Destroy the Daemonic (seed 000 L684): INQUISITOR, INQUISITORIAL AGENTS and ORDO MALLEUS
    models re-roll hit rolls of 1, and wound rolls of 1 against a DAEMON unit."""
    if detachment(state, attacking["player"]) != "ordo-malleus-daemon-hunters":
        return []
    attackers = _models(attacking, models)
    if not _all(attackers, lambda m: model_keywords(state, attacking, m) & set(DAEMON_HUNTERS)):
        return []
    source = "Destroy the Daemonic"
    return [
        _mod("hit", "reroll", "ones", source),
        _mod("wound", "reroll", "ones", source, target_keyword="DAEMON"),
    ]


def root_out_heresy(state: State, attacking, target, models) -> list[Modifier]:
    """Root out Heresy (seed 000 L680): ADEPTUS ARBITES, INQUISITOR, INQUISITORIAL AGENTS and ORDO
    HERETICUS models' ranged weapons have [IGNORES COVER]; their attacks at a CHAOS unit of 5 or
    more models have [SUSTAINED HITS 1]."""
    if detachment(state, attacking["player"]) != "ordo-hereticus-purgation-force":
        return []
    attackers = _models(attacking, models)
    if not _all(attackers, lambda m: model_keywords(state, attacking, m) & set(PURGATION_FORCE)):
        return []
    source = "Root out Heresy"
    return [
        _mod("ability", "grant", "ignores cover", source, weapon_type="ranged"),
        _mod(
            "ability",
            "grant",
            "sustained hits 1",
            source,
            target_keyword="CHAOS",
            target_models_at_least=5,
        ),
    ]


def weapon_enhancements(state: State, attacking, target, models) -> list[Modifier]:
    """Universal Anathema (seed 000 L692): the bearer's melee weapons have [ANTI-INFANTRY 2+] and
    [ANTI-MONSTER 4+]. Ignis Judicium (L698): its ranged weapons have [DEVASTATING WOUNDS],
    [MELTA 1] and [PRECISION]."""
    attackers = _models(attacking, models)
    found = []
    if _all(attackers, lambda m: has_enhancement(m, "universal-anathema")):
        for ability in ("anti-infantry 2+", "anti-monster 4+"):
            found.append(
                _mod("ability", "grant", ability, "Universal Anathema", weapon_type="melee")
            )
    if _all(attackers, lambda m: has_enhancement(m, "ignis-judicium")):
        for ability in ("devastating wounds", "melta 1", "precision"):
            found.append(_mod("ability", "grant", ability, "Ignis Judicium", weapon_type="ranged"))
    return found


def witch_hunter(state: State, attacking, target, models) -> list[Modifier]:
    """Witch Hunter (seed 000 L706): while the bearer leads a unit, that unit's models re-roll
    the hit roll of attacks at a PSYKER unit (the re-roll is taken for a failed roll)."""
    if not is_led_with(state, attacking, "witch-hunter"):
        return []
    return [_mod("hit", "reroll", "any", "Witch Hunter", target_keyword="PSYKER")]


def grimoire_against_daemons(state: State, attacking, target, models) -> list[Modifier]:
    """Grimoire of True Names (Aura) (seed 000 L721): an enemy DAEMON unit within 9" of the
    bearer subtracts 1 from its hit and wound rolls. Its Ld part is `grimoire_leadership`."""
    if "DAEMON" not in _unit_keywords(state, attacking):
        return []
    for unit, model in bearers(state, "grimoire-of-true-names"):
        if (
            unit["player"] != attacking["player"]
            and on_battlefield(unit)
            and _within(model, attacking, 9.0)
        ):
            source = "Grimoire of True Names"
            return [_mod("hit", "add", -1, source), _mod("wound", "add", -1, source)]
    return []


def _unit_keywords(state: State, unit: Unit) -> set[str]:
    found: set[str] = set()
    for model in alive_models(unit) or unit["models"]:
        found |= model_keywords(state, unit, model)
    return found


BLESSED_WARDINGS = leader_ability("Blessed Wardings")
MALEFIC_WARDINGS = leader_ability("Malefic Wardings (Psychic)")


def blessed_wardings(state: State, attacking, target, models) -> list[Modifier]:
    """Blessed Wardings (seed 000 L23): while the Inquisitor leads a unit, models in that unit
    have a 6+ invulnerable save (lost when swapped for psychic gifts, L16)."""
    if is_led_with(
        state,
        target,
        BLESSED_WARDINGS,
        lambda unit, model: carries(state, unit, model, "blessed wardings"),
    ):
        return [_mod("invulnerable", "set", 6, "Blessed Wardings")]
    return []


def malefic_wardings(state: State, attacking, target, models) -> list[Modifier]:
    """Malefic Wardings (Psychic): while Coteaz leads a unit, its models have a 6+ invulnerable
    save, and 4+ against psychic attacks and attacks made by DAEMON models."""
    if not is_led_with(state, target, MALEFIC_WARDINGS):
        return []
    source = "Malefic Wardings"
    found = [
        _mod("invulnerable", "set", 6, source),
        _mod("invulnerable", "set", 4, source, weapon_ability="psychic"),
    ]
    attackers = _models(attacking, models)
    if _all(attackers, lambda m: "DAEMON" in model_keywords(state, attacking, m)):
        found.append(_mod("invulnerable", "set", 4, source))
    return found


def loyal_henchmen(state: State, attacking, target, models) -> list[Modifier]:
    """Loyal Henchmen: while an Inquisitor model leads this unit, attacks against it subtract 1
    from the wound roll."""
    henchmen = any(
        part["datasheet"] == "inquisitorial-agents" and part["role"] == "bodyguard"
        for part in target["parts"]
    )
    if henchmen and any(
        is_leading(target, m) and "INQUISITOR" in model_keywords(state, target, m)
        for m in target["models"]
    ):
        return [_mod("wound", "add", -1, "Loyal Henchmen")]
    return []


def _from_datasheet(attacking, models, slug: str) -> bool:
    return _all(_models(attacking, models), lambda m: part_of(attacking, m)["datasheet"] == slug)


def breaching_team(state: State, attacking, target, models) -> list[Modifier]:
    """Breaching Team: this unit's models re-roll wound rolls of 1, or the wound roll if the
    target is within range of an objective marker."""
    if not _from_datasheet(attacking, models, "imperial-navy-breachers"):
        return []
    on_objective = any(
        target["id"] in units_within_range(state, marker, target["player"])
        for marker in state["objectives"]
    )
    return [_mod("wound", "reroll", "any" if on_objective else "ones", "Breaching Team")]


def merciless_judgement(state: State, attacking, target, models) -> list[Modifier]:
    """Merciless Judgement: this unit's ranged attacks at a Below Half-strength unit add 1 to the
    wound roll."""
    if not _from_datasheet(attacking, models, "vigilant-squad"):
        return []
    if not below_half_strength(state, target):
        return []
    return [_mod("wound", "add", 1, "Merciless Judgement", weapon_type="ranged")]


def at_all_costs_attacks(state: State, attacking, target, models) -> list[Modifier]:
    """At all Costs (seed 000 L687): Eliminate - AGENTS OF THE IMPERIUM models of the army that
    chose the target add 1 to the hit roll; Acquire - an AGENTS OF THE IMPERIUM unit within range
    of the chosen marker has a 5+ invulnerable save. Choices: `at_all_costs_choices`."""
    found = []
    for effect in effects_on_unit(state, target["id"]):
        if effect["modifier"].get("eliminate_at_all_costs") and (
            effect["started_at"]["player"] == attacking["player"]
        ):
            attackers = _models(attacking, models)
            if _all(attackers, lambda m: AGENTS in model_keywords(state, attacking, m)):
                found.append(_mod("hit", "add", 1, "Eliminate At All Costs"))
            break
    if acquiring(state, target):
        found.append(_mod("invulnerable", "set", 5, "Acquire At All Costs"))
    return found


def acquiring(state: State, unit: Unit) -> bool:
    """An AGENTS OF THE IMPERIUM unit within range of its player's Acquire At All Costs marker."""
    for effect in state["effects"]:
        marker_id = effect["modifier"].get("acquire_at_all_costs")
        if marker_id is None or effect["selector"].get("player") != unit["player"]:
            continue
        if AGENTS not in _unit_keywords(state, unit) or not on_battlefield(unit):
            continue
        marker = next(m for m in state["objectives"] if m["id"] == marker_id)
        if any(within_range(state, model, marker) for model in alive_models(unit)):
            return True
    return False


def shieldbreaker_attacks(state: State, attacking, target, models) -> list[Modifier]:
    """Shieldbreaker round: until the end of the phase, this model's exitus rifle attacks add 1
    to the wound roll and every successful wound roll is a critical wound (`shieldbreaker`)."""
    if not any(e["modifier"].get("shieldbreaker") for e in effects_on_unit(state, attacking["id"])):
        return []
    source = "Shieldbreaker"
    return [
        _mod("wound", "add", 1, source, weapon_name="exitus rifle"),
        _mod("wound", "critical_on_success", True, source, weapon_name="exitus rifle"),
    ]


# --- Characteristics -------------------------------------------------------------------------


def endurant_shield(state: State, unit_id: str, model, name: str, value):
    """Endurant Shield: the bearer has a 4+ invulnerable save (the bearer model when the state
    marks one, else the models of the unit that took it, rulings R-IA-02)."""
    if name != "invulnerable_save":
        return value
    unit = state["units"][unit_id]
    if part_of(unit, model)["datasheet"] != "imperial-navy-breachers":
        return value
    if not carries(state, unit, model, "endurant shield"):
        return value
    return 4 if value is None else min(value, 4)


def grimoire_leadership(state: State, unit_id: str, model, name: str, value):
    """Grimoire of True Names (Aura): worsen the Ld of enemy units within 9" of the bearer by 1
    (Ld is a target number: worsening raises it, AMB-45)."""
    if name != "Ld":
        return value
    unit = state["units"][unit_id]
    for bearer_unit, bearer in bearers(state, "grimoire-of-true-names"):
        if (
            bearer_unit["player"] != unit["player"]
            and on_battlefield(bearer_unit)
            and _within(bearer, unit, 9.0)
        ):
            return value + 1
    return value


def acquire_characteristics(state: State, unit_id: str, model, name: str, value):
    """Acquire At All Costs: improve Ld and OC by 1 within range of the marker (11e OC '-' of a
    battle-shocked unit is never raised, AMB-44: objectives.py reads it before the OC)."""
    if name not in ("Ld", "OC"):
        return value
    if not any("acquire_at_all_costs" in e["modifier"] for e in state["effects"]):
        return value
    if not acquiring(state, state["units"][unit_id]):
        return value
    return value - 1 if name == "Ld" else value + 1


# --- Command points --------------------------------------------------------------------------


def power_of_the_rosette(ctx: Context, use) -> None:
    """Power of the Rosette (seed 000 L21): each time you target this model's unit with a
    stratagem, roll one D6: on a 3+ you gain 1CP (the edition's per-round cap on CP gained from
    rules applies, command_points.py). Only the TARGET counts (AMB-46)."""
    unit = ctx.state["units"].get(use.target) if use.target else None
    if unit is None or unit["player"] != use.player:
        return
    if not any(has_ability(ctx.state, unit, m, "Power of the Rosette") for m in alive_models(unit)):
        return
    record = roll(ctx, 1, "power_of_the_rosette", "Power of the Rosette", use.player, unit["id"])
    if record["total"] >= 3:
        gain_command_points(ctx, use.player, 1, "Power of the Rosette")


def spy_network(ctx: Context, player: int, amount: int, source: str) -> None:
    """Spy Network: each time your opponent gains CP as the result of an ability (every gain but
    the Command phase's Core CP, rulings R-IA-03), roll one D6: on a 2+ you gain 1CP."""
    spy = opponent(player)
    coteaz = [
        unit
        for unit in ctx.state["units"].values()
        if unit["player"] == spy
        and any(has_ability(ctx.state, unit, m, "Spy Network") for m in alive_models(unit))
    ]
    if not coteaz:
        return
    record = roll(ctx, 1, "spy_network", "Spy Network", spy, coteaz[0]["id"])
    if record["total"] >= 2:
        gain_command_points(ctx, spy, 1, "Spy Network")


# --- Choices at the start of a phase ---------------------------------------------------------


def _used(state: State, key: str) -> int:
    return state.get("abilities_used", []).count(key)


def _record_use(state: State, key: str) -> None:
    state.setdefault("abilities_used", []).append(key)


def at_all_costs_choices(state: State, player: int) -> list[tuple[str, list[Any]]]:
    """At the start of your Command phase: one enemy unit on the battlefield to Eliminate, or
    one objective marker to Acquire (or neither)."""
    if state["phase"] != "command" or state["active_player"] != player:
        return []
    if detachment(state, player) != "imperialis-fleet":
        return []
    options: list[Any] = [
        {"eliminate": unit["id"]}
        for _, unit in sorted(state["units"].items())
        if unit["player"] != player and on_battlefield(unit)
    ]
    options += [{"acquire": marker["id"]} for marker in state["objectives"]]
    return [("at-all-costs", options)] if options else []


def resolve_at_all_costs(ctx: Context, player: int, rule: str, choice: dict[str, Any]) -> None:
    if "eliminate" in choice:
        add_effect(
            ctx,
            "at-all-costs",
            {"unit": choice["eliminate"]},
            {"eliminate_at_all_costs": True},
            "start_of_next_command_phase",
            player,
        )
    else:
        add_effect(
            ctx,
            "at-all-costs",
            {"player": player},
            {"acquire_at_all_costs": choice["acquire"]},
            "start_of_next_command_phase",
            player,
        )


def glovodan_choices(state: State, player: int) -> list[tuple[str, list[Any]]]:
    """Glovodan Psyber-eagle: in your Command phase (offered at its start, rulings R-IA-04),
    one enemy unit within 18" of the bearer cannot have the Benefit of Cover until the start of
    your next Command phase."""
    if state["phase"] != "command" or state["active_player"] != player:
        return []
    found = []
    for unit in _own(state, player):
        for model in alive_models(unit):
            if not (
                has_ability(state, unit, model, "Glovodan Psyber-eagle")
                and carries(state, unit, model, "glovodan psyber-eagle")
            ):
                continue
            targets = [
                enemy["id"] for enemy in _enemies(state, player) if _within(model, enemy, 18.0)
            ]
            if targets:
                found.append((f"glovodan-psyber-eagle:{unit['id']}", targets))
    return found


def resolve_glovodan(ctx: Context, player: int, rule: str, choice: str) -> None:
    add_effect(
        ctx,
        "glovodan-psyber-eagle",
        {"unit": choice},
        {
            "attack": {"step": "cover", "kind": "deny", "value": None, "condition": {}},
            "as": "defender",
            "against": None,
        },
        "start_of_next_command_phase",
        player,
    )


def _own(state: State, player: int) -> list[Unit]:
    return [
        u for _, u in sorted(state["units"].items()) if u["player"] == player and on_battlefield(u)
    ]


def _enemies(state: State, player: int) -> list[Unit]:
    return _own(state, opponent(player))


def tome_skull_choices(state: State, player: int) -> list[tuple[str, list[Any]]]:
    """Tome-skull: once per battle per Tome-skull, at the start of any phase, one friendly
    battle-shocked AGENTS OF THE IMPERIUM unit within 6" stops being battle-shocked, or one enemy
    unit within 6" takes a Battle-shock test."""
    found = []
    for unit in _own(state, player):
        key = f"tome-skull:{unit['id']}"
        if _used(state, key) >= wargear_count(unit, "tome-skull"):
            continue
        if not any(has_ability(state, unit, m, "Tome-skull") for m in alive_models(unit)):
            continue
        options = [
            {"rally": friend["id"]}
            for friend in _own(state, player)
            if is_battle_shocked(state, friend["id"])
            and AGENTS in _unit_keywords(state, friend)
            and unit_distance(unit, friend) <= 6.0
        ] + [
            {"test": enemy["id"]}
            for enemy in _enemies(state, player)
            if unit_distance(unit, enemy) <= 6.0
        ]
        if options:
            found.append((key, options))
    return found


def resolve_tome_skull(ctx: Context, player: int, rule: str, choice: dict[str, Any]) -> None:
    _record_use(ctx.state, rule)
    if "rally" in choice:
        rally(ctx, choice["rally"], "Tome-skull")
    else:
        battle_shock_roll(ctx, ctx.state["units"][choice["test"]], "Tome-skull")


def rally(ctx: Context, unit_id: str, source: str) -> None:
    """The unit is no longer battle-shocked."""
    for effect in effects_on_unit(ctx.state, unit_id):
        if effect["modifier"].get("status") == BATTLE_SHOCKED:
            remove_effect(ctx, effect["id"], source)


def formidable_resolve_choices(state: State, player: int) -> list[tuple[str, list[Any]]]:
    """Formidable Resolve: once per battle, at the start of any phase, one friendly
    battle-shocked unit within 12" of the bearer is no longer battle-shocked."""
    found = []
    for unit, model in bearers(state, "formidable-resolve"):
        key = f"formidable-resolve:{unit['id']}"
        if unit["player"] != player or _used(state, key) or not on_battlefield(unit):
            continue
        options = [
            friend["id"]
            for friend in _own(state, player)
            if is_battle_shocked(state, friend["id"]) and _within(model, friend, 12.0)
        ]
        if options:
            found.append((key, options))
    return found


def resolve_formidable_resolve(ctx: Context, player: int, rule: str, choice: str) -> None:
    _record_use(ctx.state, rule)
    rally(ctx, choice, "Formidable Resolve")


def nuncio_aquila_choices(state: State, player: int) -> list[tuple[str, list[Any]]]:
    """Nuncio Aquila (Aura): once per battle, at the start of any Command phase, one objective
    marker within 6" of the bearer: every enemy unit (excluding MONSTERS and VEHICLES) within
    range of it takes a Battle-shock test; each marker once per turn."""
    if state["phase"] != "command":
        return []
    found = []
    done = state["facts"]["turn"].get("nuncio_aquila_markers", [])
    for unit in _own(state, player):
        key = f"nuncio-aquila:{unit['id']}"
        if _used(state, key):
            continue
        carriers = [
            m
            for m in alive_models(unit)
            if has_ability(state, unit, m, "Nuncio Aquila (Aura)")
            and carries(state, unit, m, "nuncio aquila")
        ]
        markers = [
            marker["id"]
            for marker in state["objectives"]
            if marker["id"] not in done
            and any(_near_marker(state, m, marker, 6.0) for m in carriers)
        ]
        if markers:
            found.append((key, markers))
    return found


def _near_marker(state: State, model, marker, inches: float) -> bool:
    if model.get("x") is None:
        return False
    radius = state["edition"]["objective_marker_diameter_mm"] / 2 / 25.4
    return within_of_point(model, marker["x"], marker["y"], inches, radius)


def resolve_nuncio_aquila(ctx: Context, player: int, rule: str, choice: str) -> None:
    state = ctx.state
    _record_use(state, rule)
    state["facts"]["turn"].setdefault("nuncio_aquila_markers", []).append(choice)
    marker = next(m for m in state["objectives"] if m["id"] == choice)
    for unit_id in units_within_range(state, marker, opponent(player)):
        unit = state["units"][unit_id]
        if {"MONSTER", "VEHICLE"} & _unit_keywords(state, unit):
            continue
        battle_shock_roll(ctx, unit, "Nuncio Aquila")


standing_rules.RESOLVE_CHOICE.add("at-all-costs", resolve_at_all_costs)
standing_rules.RESOLVE_CHOICE.add("glovodan-psyber-eagle", resolve_glovodan)
standing_rules.RESOLVE_CHOICE.add("tome-skull", resolve_tome_skull)
standing_rules.RESOLVE_CHOICE.add("formidable-resolve", resolve_formidable_resolve)
standing_rules.RESOLVE_CHOICE.add("nuncio-aquila", resolve_nuncio_aquila)


# --- Choices when a unit is selected to shoot ------------------------------------------------


def _once_per_battle_ability(state: State, unit: Unit, name: str, key: str) -> bool:
    return not _used(state, key) and any(
        has_ability(state, unit, m, name) for m in alive_models(unit)
    )


def cat_unit_choices(state: State, unit: Unit, point) -> list[tuple[str, list[Any]]]:
    """CAT Unit: once per battle, when this unit is selected to shoot, its ranged weapons gain
    [IGNORES COVER] until the end of the phase."""
    key = f"cat-unit:{unit['id']}"
    return [(key, ["use"])] if _once_per_battle_ability(state, unit, "CAT Unit", key) else []


def resolve_cat_unit(ctx: Context, player: int, rule: str, choice: str) -> None:
    _record_use(ctx.state, rule)
    unit_id = rule.split(":")[1]
    grant = {
        "step": "ability",
        "kind": "grant",
        "value": "ignores cover",
        "condition": {"weapon_type": "ranged"},
    }
    add_effect(
        ctx,
        "cat-unit",
        {"unit": unit_id},
        {"attack": grant, "as": "attacker", "against": None},
        "end_of_phase",
        player,
    )


def shieldbreaker_choices(state: State, unit: Unit, point) -> list[tuple[str, list]]:
    """Shieldbreaker: once per battle, when selecting targets for the exitus rifle."""
    key = f"shieldbreaker:{unit['id']}"
    rifle = any(name.lower().startswith("exitus rifle") for name in point.get("weapons", []))
    if rifle and _once_per_battle_ability(state, unit, "Shieldbreaker", key):
        return [(key, ["use"])]
    return []


def resolve_shieldbreaker(ctx: Context, player: int, rule: str, choice: str) -> None:
    _record_use(ctx.state, rule)
    add_effect(
        ctx,
        "shieldbreaker",
        {"unit": rule.split(":")[1]},
        {"shieldbreaker": True},
        "end_of_phase",
        player,
    )


standing_rules.RESOLVE_CHOICE.add("cat-unit", resolve_cat_unit)
standing_rules.RESOLVE_CHOICE.add("shieldbreaker", resolve_shieldbreaker)


def ignores_lone_operative(state: State, attacking: Unit) -> bool:
    """Deadshot: this model's ranged attacks may ignore the Lone Operative ability when
    selecting targets (a Vindicare is a unit of one model)."""
    return any(has_ability(state, attacking, m, "Deadshot") for m in alive_models(attacking))


# --- Falling back and fighting -----------------------------------------------------------------


def no_escape(ctx: Context, unit: Unit) -> bool:
    """No Escape (Aura) (seed 000 L718): an enemy unit within 6" of the bearer that is selected to
    Fall Back first takes a Leadership test (2D6 >= its best Ld); if it fails, it Remains
    Stationary this phase instead: it makes no move of any kind (AMB-49)."""
    state = ctx.state
    near = [
        bearer
        for bearer_unit, bearer in bearers(state, "no-escape")
        if bearer_unit["player"] != unit["player"]
        and on_battlefield(bearer_unit)
        and _within(bearer, unit, 6.0)
    ]
    if not near:
        return True
    needed = best_leadership(state, unit)
    record = roll(ctx, 2, "leadership_test", "No Escape", unit["player"], unit["id"])
    passed = record["total"] >= needed
    ctx.emit(
        "leadership_tested",
        unit=unit["id"],
        roll=record["roll"],
        total=record["total"],
        leadership=needed,
        passed=passed,
        rule="No Escape",
    )
    if passed:
        return True
    set_flag(ctx, unit["id"], "remained_stationary")
    ctx.emit("unit_remained_stationary", unit=unit["id"], rule="No Escape")
    return False


def digital_weapons(ctx: Context, unit_id: str, then: dict[str, Any]) -> None:
    """Digital Weapons (seed 000 L730): each time the bearer is selected to fight, roll three D6:
    for each 4+ one enemy unit within Engagement Range of the bearer suffers 1 mortal wound,
    allocated as if it had [PRECISION]: the bearer's player picks the unit and may put it on a
    CHARACTER model of it that the bearer sees (rulings R-IA-08)."""
    state = ctx.state
    unit = state["units"][unit_id]
    bearer = next((m for m in alive_models(unit) if has_enhancement(m, "digital-weapons")), None)
    if bearer is None:
        resume(ctx, then)
        return
    record = roll(ctx, 3, "digital_weapons", "Digital Weapons", unit["player"], unit_id)
    hits = sum(1 for value in record["values"] if value >= 4)
    resume(
        ctx,
        {"step": "digital_weapons_next", "unit": unit_id, "left": hits, "then": then},
    )


def _digital_weapons_options(state: State, unit: Unit) -> list[dict[str, Any]]:
    bearer = next((m for m in alive_models(unit) if has_enhancement(m, "digital-weapons")), None)
    if bearer is None:
        return []
    engagement = state["edition"]["engagement_range_horizontal"]
    options = []
    for enemy in _enemies(state, unit["player"]):
        if not _within(bearer, enemy, engagement):
            continue
        options.append({"unit": enemy["id"], "model": None})
        options += [
            {"unit": enemy["id"], "model": m["id"]}
            for m in alive_models(enemy)
            if m["character"] and _sees_model(state, unit, bearer, enemy, m)
        ]
    return options


def _sees_model(
    state: State,
    unit: Unit,
    bearer: Model,
    enemy: Unit,
    model: Model,
) -> bool:
    """[PRECISION] only reaches a CHARACTER model "visible to one or more of the attacking
    models" (11e 24.28; 10e Precision "visible to the attacking model"): for Digital Weapons the
    attacking model is the bearer (rulings R-IA-08)."""
    seen: Unit = {**enemy, "models": [model]}
    return visible(state, unit, seen, {bearer["id"]})


@continuation("digital_weapons_next")
def _digital_weapons_next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    options = _digital_weapons_options(ctx.state, unit) if data["left"] > 0 else []
    if not options:
        resume(ctx, data["then"])
        return
    push_decision(
        ctx,
        unit["player"],
        "digital_weapons_target",
        options,
        {**data, "step": "digital_weapons_target", "left": data["left"] - 1},
        "Digital Weapons",
        "Digital Weapons: which enemy unit suffers 1 mortal wound (and, with [PRECISION], on "
        "which CHARACTER model, or none)?",
    )


@continuation("digital_weapons_target")
def _digital_weapons_target(ctx: Context, data: dict[str, Any], choice: dict[str, Any]) -> None:
    enemy = ctx.state["units"][choice["unit"]]
    following = {**data, "step": "digital_weapons_next"}
    if choice["model"] is None:
        allocate_mortal_wounds(ctx, enemy["id"], 1, "Digital Weapons", following)
        return
    model = next(m for m in enemy["models"] if m["id"] == choice["model"])
    lose_wounds(ctx, enemy, model, 1, "Digital Weapons")
    resume(ctx, following)


# --- Before the battle -------------------------------------------------------------------------


def _army_bearer(state: State, player: int, enhancement: str) -> bool:
    return any(unit["player"] == player for unit, _ in bearers(state, enhancement))


def clandestine_operation(state: State, player: int):
    """Clandestine Operation (seed 000 L735): at the start of the Declare Battle Formations step,
    up to three AGENTS OF THE IMPERIUM INFANTRY units of your army (not GREY KNIGHTS TERMINATOR
    SQUAD units) gain Infiltrators. Asked once the player has declared their reserves (this
    engine's Declare Battle Formations step, rulings R-IA-09)."""
    if not _army_bearer(state, player, "clandestine-operation"):
        return None
    candidates = [
        unit["id"]
        for _, unit in sorted(state["units"].items())
        if unit["player"] == player
        and {AGENTS, "INFANTRY"} <= _unit_keywords(state, unit)
        and "GREY KNIGHTS TERMINATOR SQUAD" not in _unit_keywords(state, unit)
    ]
    return ("Clandestine Operation", 3, candidates) if candidates else None


def liber_heresius(state: State, player: int):
    """Liber Heresius (seed 000 L701): after both players have deployed, up to three AGENTS OF
    THE IMPERIUM units of your army are redeployed, into Strategic Reserves if you wish whatever
    the number already there."""
    if not _army_bearer(state, player, "liber-heresius"):
        return None
    candidates = [
        unit["id"] for unit in _own(state, player) if AGENTS in _unit_keywords(state, unit)
    ]
    return ("Liber Heresius", 3, candidates) if candidates else None


standing_rules.FORMATION_GRANTS.add("Clandestine Operation", "Infiltrators")


# --- Stratagems --------------------------------------------------------------------------------

GHEISTSKULL_REACH = 18.0


def gheistskull_choices(state: State, player: int, window, unit_id: str, found: list) -> list:
    """Gheistskull: once per battle, when this unit is the target of the Grenade (10e) /
    Explosives (11e) stratagem, it can throw at an enemy unit visible to and within 18" of this
    unit that is not within Engagement Range of any unit of your army, instead of one within 8"
    (the choice names `"rule": "Gheistskull"`; rulings R-IA-14)."""
    unit = state["units"][unit_id]
    key = f"gheistskull:{unit_id}"
    if not _once_per_battle_ability(state, unit, "Gheistskull", key):
        return []
    near = {choice["enemy"] for choice in found}
    model = alive_models(unit)[0]["id"]
    return [
        {"enemy": enemy["id"], "model": model, "rule": "Gheistskull"}
        for enemy in _enemies(state, player)
        if enemy["id"] not in near
        and not is_engaged(state, enemy)
        and unit_distance(unit, enemy) <= GHEISTSKULL_REACH
        and visible(state, unit, enemy)
    ]


def gheistskull_used(ctx: Context, use) -> None:
    if use.extra.get("rule") == "Gheistskull":
        _record_use(ctx.state, f"gheistskull:{use.target}")


GIFT = "Gift of the Prescient"
GIFT_DISTANCE = 6.0
RAPID_INGRESS = ("rapid-ingress-11e", "rapid-ingress-10e")
TERMINATORS = "GREY KNIGHTS TERMINATOR SQUAD"


def _gift_ready(state: State, player: int) -> bool:
    """A bearer of the player's on the battlefield, and the gift not yet used."""
    # The player's units on the table first: every window's offers ask it (Rapid Ingress's
    # discount), and `bearers` looks at every model of both armies.
    return not _used(state, f"gift-of-the-prescient:{player}") and any(
        unit["player"] == player
        and on_battlefield(unit)
        and any(has_enhancement(model, "gift-of-the-prescient") for model in alive_models(unit))
        for unit in state["units"].values()
    )


def gift_of_the_prescient(state: State, player: int, window, unit_id: str) -> list[dict]:
    """Gift of the Prescient (seed 000 L724): once per battle, if the bearer is on the
    battlefield, Rapid Ingress for 0CP; it must target a GREY KNIGHTS TERMINATOR SQUAD unit of
    yours, which can then be set up anywhere more than 6" from all enemy units."""
    unit = state["units"][unit_id]
    if not _gift_ready(state, player) or TERMINATORS not in _unit_keywords(state, unit):
        return []
    slug = next(slug for slug in RAPID_INGRESS if slug in state["stratagems"])
    cost = state["stratagems"][slug]["cp_cost"]
    return [{"rule": GIFT, "cost_change": -cost, "set_up_more_than_from_enemies": GIFT_DISTANCE}]


def gift_discount(state: State, player: int, slug: str) -> int:
    if slug in RAPID_INGRESS and _gift_ready(state, player):
        return state["stratagems"][slug]["cp_cost"]
    return 0


def gift_used(ctx: Context, use) -> None:
    if use.extra.get("rule") == GIFT:
        _record_use(ctx.state, f"gift-of-the-prescient:{use.player}")


@implements("datasheet-ability", "inquisitor/psychic-gifts")
def psychic_gifts() -> frozenset[str]:
    """Psychic Gifts (seed 000 L24): the bearer has the PSYKER keyword, so its unit is a PSYKER
    unit for every rule that checks it (`WARGEAR_KEYWORDS`, read at muster)."""
    return frozenset({"PSYKER"})


standing_rules.WARGEAR_KEYWORDS.add("Psychic Gifts", psychic_gifts())


# Where this package's rules plug in, one row each, registered in this order (a rule claimed twice
# is named by its first row): (hook point, order at that point, function, rule kind, the rules of
# the data it implements; EN enhancement, DR detachment rule, DS datasheet ability).
EN: RuleKind = "enhancement"
DR: RuleKind = "detachment-rule"
DS: RuleKind = "datasheet-ability"
HOOKED: tuple[tuple[Any, ...], ...] = (
    (ENHANCEMENT_BEARERS, 10, muster_bearer, EN, "formidable-resolve"),
    (ATTACK_RULES, 20, destroy_the_daemonic, DR, "ordo-malleus-daemon-hunters"),
    (ATTACK_RULES, 30, root_out_heresy, DR, "ordo-hereticus-purgation-force"),
    (ATTACK_RULES, 40, weapon_enhancements, EN, "universal-anathema", "ignis-judicium"),
    (ATTACK_RULES, 50, witch_hunter, EN, "witch-hunter"),
    (ATTACK_RULES, 60, grimoire_against_daemons, EN, "grimoire-of-true-names"),
    (ATTACK_RULES, 70, blessed_wardings, DS, "inquisitor/blessed-wardings"),
    (ATTACK_RULES, 80, malefic_wardings, DS, "inquisitor-coteaz/malefic-wardings-psychic"),
    (ATTACK_RULES, 90, loyal_henchmen, DS, "inquisitorial-agents/loyal-henchmen"),
    (ATTACK_RULES, 100, breaching_team, DS, "imperial-navy-breachers/breaching-team"),
    (ATTACK_RULES, 110, merciless_judgement, DS, "vigilant-squad/merciless-judgement"),
    (ATTACK_RULES, 120, at_all_costs_attacks, DR, "imperialis-fleet"),
    (ATTACK_RULES, 130, shieldbreaker_attacks, DS, "vindicare-assassin/shieldbreaker"),
    (CHARACTERISTIC_RULES, 20, endurant_shield, DS, "imperial-navy-breachers/endurant-shield"),
    (CHARACTERISTIC_RULES, 30, grimoire_leadership, EN, "grimoire-of-true-names"),
    (CHARACTERISTIC_RULES, 40, acquire_characteristics, DR, "imperialis-fleet"),
    (AFTER_STRATAGEM, 10, power_of_the_rosette, DS, "inquisitor/power-of-the-rosette"),
    (AFTER_CP_GAIN, 10, spy_network, DS, "inquisitor-coteaz/spy-network"),
    (PHASE_START_CHOICES, 10, at_all_costs_choices, DR, "imperialis-fleet"),
    (PHASE_START_CHOICES, 20, glovodan_choices, DS, "inquisitor-coteaz/glovodan-psyber-eagle"),
    (PHASE_START_CHOICES, 30, tome_skull_choices, DS, "inquisitorial-agents/tome-skull"),
    (PHASE_START_CHOICES, 40, formidable_resolve_choices, EN, "formidable-resolve"),
    (PHASE_START_CHOICES, 50, nuncio_aquila_choices, DS, "vigilant-squad/nuncio-aquila-aura"),
    (SHOOT_CHOICES, 10, cat_unit_choices, DS, "imperial-navy-breachers/cat-unit"),
    (SHOOT_CHOICES, 20, shieldbreaker_choices, DS, "vindicare-assassin/shieldbreaker"),
    (IGNORES_LONE_OPERATIVE, 10, ignores_lone_operative, DS, "vindicare-assassin/deadshot"),
    (BEFORE_FALL_BACK, 10, no_escape, EN, "no-escape"),
    (SELECTED_TO_FIGHT, 10, digital_weapons, EN, "digital-weapons"),
    (FORMATION_SELECTIONS, 10, clandestine_operation, EN, "clandestine-operation"),
    (REDEPLOYMENTS, 10, liber_heresius, EN, "liber-heresius"),
    (GRENADE_CHOICES, 10, gheistskull_choices, DS, "imperial-navy-breachers/gheistskull"),
    (AFTER_STRATAGEM, 20, gheistskull_used, DS, "imperial-navy-breachers/gheistskull"),
    (INGRESS_CHOICES, 10, gift_of_the_prescient, EN, "gift-of-the-prescient"),
    (STRATAGEM_DISCOUNTS, 10, gift_discount, EN, "gift-of-the-prescient"),
    (AFTER_STRATAGEM, 30, gift_used, EN, "gift-of-the-prescient"),
)
for _point, _order, _function, _kind, *_rules in HOOKED:
    implements(_kind, *_rules, at=_point, order=_order)(_function)
