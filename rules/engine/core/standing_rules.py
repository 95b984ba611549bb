"""The hook points through which always-on rules (datasheet abilities, detachment rules,
enhancements) reach the engine's pipelines without those pipelines knowing any rule by name.

Low-level modules (effects, command points, stratagems, the start of a phase) iterate a hook;
rule modules subscribe with `hooks.implements(kind, key, at=HOOK, order=N)`. Subscribers run in
ascending `order` (`core/hooks.py`), pinned by `tests/test_engine_hook_order.py`.
"""

from __future__ import annotations

from rules.engine.core.hooks import hook, keyed_hook
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State

CHARACTERISTIC_RULES = hook(
    "characteristic",
    "(state, unit_id, model, name, value) -> value: applied after the persisting effects by "
    "`effects.characteristic` (auras and standing characteristic changes)",
)
ATTACK_RULES = hook(
    "attack_modifiers",
    "(state, attacking_unit, target_unit, attacking_model_ids) -> [Modifier]: the attack "
    "pipeline's modifiers a standing rule gives those attacks (`attacks.inputs`)",
)
AFTER_STRATAGEM = hook(
    "after_stratagem", "(ctx, use) -> None: once a stratagem is paid for, before it resolves"
)
AFTER_CP_GAIN = hook(
    "after_cp_gain", "(ctx, player, amount, source) -> None: after a player gained CP from a rule"
)
PHASE_START_CHOICES = hook(
    "phase_start_choices",
    "(state, player) -> [(rule, options)]: choices a player's rules offer at the start of the "
    "current phase (each with a pass), resolved by `RESOLVE_CHOICE[rule]`",
)
SHOOT_CHOICES = hook(
    "shoot_choices",
    "(state, unit, point) -> [(rule, options)]: the same, when the unit has been selected to "
    "shoot and its targets are chosen (`ability_choices`)",
)
RESOLVE_CHOICE = keyed_hook(
    "resolve_choice", "rule -> (ctx, player, key, choice) -> None: resolves an ability choice"
)
IGNORES_LONE_OPERATIVE = hook(
    "ignores_lone_operative",
    "(state, attacking_unit) -> bool: the unit's ranged attacks may ignore Lone Operative",
)
BEFORE_FALL_BACK = hook(
    "before_fall_back",
    "(ctx, unit) -> bool: may the unit, just selected to fall back, do so (False: it remained "
    "stationary instead; the rule has said why)",
)
SELECTED_TO_FIGHT = hook(
    "selected_to_fight",
    "(ctx, unit_id, then) -> None: rules resolved when a unit is selected to fight, each "
    "resuming `then` when done (ability_choices.selected_to_fight)",
)
FORMATION_SELECTIONS = hook(
    "formation_selections",
    "(state, player) -> (rule, limit, candidate unit ids) | None: units a player's rule lets "
    "them select in the Declare Battle Formations step, gaining `FORMATION_GRANTS[rule]`",
)
FORMATION_GRANTS = keyed_hook("formation_grants", "rule -> the ability name its units gain")
REDEPLOYMENTS = hook(
    "redeployments",
    "(state, player) -> (rule, limit, candidate unit ids) | None: units a player's rule lets "
    "them redeploy after both armies have deployed, possibly into Strategic Reserves",
)
GRENADE_CHOICES = hook(
    "grenade_choices",
    "(state, player, window, unit_id, choices so far) -> [extra choice]: more enemy units the "
    "Explosives / Grenade stratagem may throw at (each choice names the `rule` allowing it)",
)
INGRESS_CHOICES = hook(
    "ingress_choices",
    "(state, player, window, unit_id) -> [extra choice]: other ways to use Rapid Ingress on the "
    "unit; a choice may carry `cost_change` (CP) and `set_up_more_than_from_enemies` (inches)",
)
STRATAGEM_DISCOUNTS = hook(
    "stratagem_discounts",
    "(state, player, slug) -> int: the most CP a rule may take off the stratagem's cost through "
    "a choice (so a window offers it to a player who could not pay the full cost)",
)
ELIGIBILITY_WAIVERS = hook(
    "eligibility_waivers",
    "(state, unit, limit) -> bool: a standing rule lifts one of the unit's eligibility limits: "
    "`charge_after_advance` (Clarion of Haste), `shoot_after_fall_back` (Get Back in the Fight), "
    "`disembark_after_advance` (the unit is the TRANSPORT: Rapid Deployment)",
)
ROLL_BONUSES = hook(
    "roll_bonuses",
    "(state, unit, roll) -> int: a standing rule's bonus to the unit's `advance` or `charge` "
    "roll (An Urgent Duty)",
)


WARGEAR_KEYWORDS = keyed_hook(
    "wargear_keywords",
    "wargear ability name -> the keywords its bearer has, so its unit has them (Psychic Gifts: "
    "PSYKER)",
)
ENHANCEMENT_BEARERS = hook(
    "enhancement_bearers",
    "(model, enhancements) -> None: at muster, what an enhancement changes on its bearer model "
    "(Formidable Resolve: Ld and W)",
)
MOVES_AFTER_ATTACKS = hook(
    "moves_after_attacks",
    "(state, attacking_unit_id) -> [offer]: Normal moves a rule offers a unit just after it "
    "resolved its attacks (`out_of_sequence_moves.after_attacks_resolved`; an offer is `{unit, "
    "max_distance, as_if_fly, source, statuses}`: Personal Teleporters)",
)
MORTAL_WOUND_FEEL_NO_PAIN = hook(
    "mortal_wound_feel_no_pain",
    "(state, unit) -> int | None: a Feel No Pain the unit has against mortal wounds only "
    "(Truesilver Aegis); the best one counts",
)
MODEL_DESTROYED = hook(
    "model_destroyed",
    "(ctx, unit, model) -> None: rules set off when a model is destroyed (`attacks.casualties`), "
    'each queueing its work in `state["aftermath"]`, resolved once the rule that destroyed the '
    "model has finished (emergency disembark and Deadly Demise, `phases.transports`)",
)
MODELS_DESTROYED_BY_ATTACKS = hook(
    "models_destroyed_by_attacks",
    "(ctx, attacking_unit, attacking_model_ids, destroyed_models) -> None: after an attack "
    "group's wounds destroyed models (Inspiring Exemplar)",
)
EMBARK_WAIVERS = hook(
    "embark_waivers",
    "(state, unit, model, transport_capacity) -> bool: a rule lets the model embark within a "
    "TRANSPORT its keywords would not allow (Authority of the Inquisition)",
)
EMBARKED_DECLARED = hook(
    "embarked_declared",
    "(ctx, player) -> None: once a player's units starting embarked are declared (Declare Battle "
    "Formations; Assigned Agents)",
)
BATTLE_SHOCKED_OC = hook(
    "battle_shocked_oc",
    "(unit, oc) -> int | None: the OC a battle-shocked model of the unit has instead of 0 (Death "
    "Mask of Ollanius); the first that answers counts",
)
HOLDING_ABILITIES = keyed_hook(
    "holding_abilities",
    "ability name -> release condition (`sequence.objectives`): at the end of your Command phase "
    "a marker you control that a unit with the ability is within range of stays yours until the "
    "condition releases it (Sanctifying Ritual, Shock Troops)",
)
BATTLE_SHOCK_REROLLS = hook(
    "battle_shock_rerolls",
    "(state, unit) -> rule name | None: a rule that re-rolls the unit's failed battle-shock test "
    "(Political Overwatch); the first that answers counts",
)
ADVANCE_ROLL_REPLACEMENTS = hook(
    "advance_roll_replacements",
    "(ctx, unit) -> rule name | None: a rule that replaces the unit's Advance roll, applying "
    "what replaces it (Teleport Shunt); the first that answers counts",
)
ARRIVAL_METHODS = keyed_hook(
    "arrival_methods",
    "arrival method -> (inches, as): a rule's way to set a unit up from reserves anywhere more "
    'than that far from every enemy model, and `as`: "ability" when it is an arrival using an '
    'ability like Deep Strike (Teleport Assault), "stratagem" when it counts as one made using '
    "the Deep Strike or Teleport Assault abilities (Prognisticated Arrival, Hallowed Beacon; "
    "R-GK-02), None otherwise (Rapid Tactical Relocation)",
)
ARRIVAL_RESTRICTIONS = keyed_hook(
    "arrival_restrictions",
    "arrival method -> (state, unit, rule) -> None: refuses (raises Refusal) a unit just set up "
    "by that method where the method's rule does not allow it (Hallowed Beacon)",
)
ARRIVAL_ALLOWED_AREAS = keyed_hook(
    "arrival_allowed_areas",
    "arrival method -> (state, player) -> shapely geometry: the area the method's rule lets a "
    "unit be set up in, drawn with the arrival areas (Hallowed Beacon: the army's Hallowed "
    "Ground); the check stays the method's ARRIVAL_RESTRICTIONS",
)
DECISION_TEMPLATES = keyed_hook(
    "decision_templates",
    "decision kind -> (state, decision) -> {field: value}: what a position decision's template "
    "carries besides its options, measured when the legal actions are asked and never kept in "
    "the state (the `stratagem_arrival` decision's `areas`)",
)
PHASE_ACTIONS = keyed_hook(
    "phase_actions",
    "action type -> (phase, handler(ctx, action)): actions a rule adds to a phase (Voice of "
    "Command's `issue_order`)",
)
LEGAL_ACTIONS = hook(
    "legal_actions",
    "(state, player) -> [action]: the legal actions a rule adds in the current phase, after the "
    "phase's own",
)
ARMY_AREAS = keyed_hook(
    "army_areas",
    "area name -> (state, unit) -> bool: is the unit wholly within that area of its own army "
    "(`hallowed_ground`); effects and stratagems name areas as data",
)

ALLIES = keyed_hook(
    "allies",
    "faction keyword -> points label: a rule lets units with that faction keyword into an army "
    "of another faction, each priced by its datasheet's points entry with that label (Assigned "
    "Agents: AGENTS OF THE IMPERIUM, 'Assigned Agent'; SD-22)",
)
LIST_CHECKS = hook(
    "list_checks",
    "(check, army_list) -> None: a rule's checks of a whole army list (`army.list_checks`), "
    "after the core ones and before the points are totalled; problems are reported in this "
    "order (Shadow Assignment, Assigned Agents)",
)
MUSTER_ENTRIES = hook(
    "muster_entries",
    "(entry, datasheet) -> entry: a rule applied to each army-list entry before its "
    "unit is mustered (`army.muster`); may refuse (Shadow Assignment: never the Warlord, its "
    "replacement datasheet fielded instead)",
)
SAVED_MODIFIER_WORDS = keyed_hook(
    "saved_modifier_words",
    "old effect-modifier word (`only_if.word` for a word of its `only_if`) -> (modifier) -> "
    "modifier: a word games saved by an earlier engine may hold and no rule reads any more, "
    "rewritten when the state is loaded (`saved_games.upgrade`; Hallowed Ground's "
    "`in_hallowed_ground`)",
)


def in_army_area(state: State, area: str, unit: Unit) -> bool:
    """Is the unit wholly within its army's `area` (False where no rule defines the area)?"""
    return area in ARMY_AREAS and ARMY_AREAS[area](state, unit)


def mortal_wound_feel_no_pain(state: State, unit: Unit) -> int | None:
    """The best Feel No Pain against mortal wounds the standing rules give the unit."""
    found = [v for rule in MORTAL_WOUND_FEEL_NO_PAIN if (v := rule(state, unit)) is not None]
    return min(found) if found else None


def waives(state: State, unit: Unit, limit: str) -> bool:
    """Does a standing rule lift `limit` for the unit now (`ELIGIBILITY_WAIVERS`)?"""
    return any(rule(state, unit, limit) for rule in ELIGIBILITY_WAIVERS)


def roll_bonus(state: State, unit: Unit, roll: str) -> int:
    """The standing rules' bonus to the unit's `roll` (`ROLL_BONUSES`)."""
    return sum(rule(state, unit, roll) for rule in ROLL_BONUSES)
