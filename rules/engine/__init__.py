"""The rules engine: a pure Python core that knows nothing of Django.

State in, action in, new state and events out. Nothing in this package may import Django, so
that the engine can be tested, benchmarked and replayed on its own. This module is the engine's
public face: `games/` and the rules-data app (`rules/`) import from here and nowhere else
(`tests/test_engine_layers.py`). Importing it loads every rule package (`core/plugins.py`).
"""

from rules.engine.army.list_checks import (
    POINTS_LIMITS,
    ArmyCheck,
    allied_as,
    ally_faction_keywords,
    check_army,
    unit_points,
)
from rules.engine.army.wargear import (
    WargearTextError,
    choices_offered,
    composition_names,
    default_loadouts,
    equip,
    normal_name,
    resolve_item,
)
from rules.engine.army.wargear import options as wargear_options
from rules.engine.attacks.damage_preview import parse_spec, preview
from rules.engine.attacks.profiles import AttackInputError
from rules.engine.core import plugins
from rules.engine.core.citations import cite
from rules.engine.core.dice import derive_die, new_seed, seed_commitment
from rules.engine.core.editions import Edition, EditionError, parameter_choices
from rules.engine.core.hooks import IMPLEMENTED, datasheet_ability_key
from rules.engine.core.notation import (
    KNOWN_ABILITIES,
    DiceExpression,
    NotationError,
    WeaponAbility,
    format_weapon_abilities,
    parse_dice,
    parse_weapon_abilities,
)
from rules.engine.core.refusals import Refusal
from rules.engine.core.rules_not_yet import NO_PRINTED_EFFECT
from rules.engine.core.state import FROZEN_KEYS, public_state, public_state_dice, state_hash
from rules.engine.core.timing import STRATAGEM_TRIGGERS
from rules.engine.phases.attack_preview import fight_preview, shooting_preview, unavailable_targets
from rules.engine.sequence.dry_run import dry_run
from rules.engine.sequence.game import (
    acting_player,
    apply,
    legal_actions,
    new_game,
    pending_window,
)
from rules.engine.sequence.position import new_position
from rules.engine.sequence.replay import ReplayMismatch, replay
from rules.engine.tools.display import display
from rules.engine.tools.selfplay import SelfplayError, build_armies, selfplay
from rules.engine.tools.tactical import opponent_action

plugins.load()

__all__ = [
    # a game
    "new_game",
    "new_position",
    "apply",
    "legal_actions",
    "acting_player",
    "pending_window",
    "Refusal",
    "public_state",
    "public_state_dice",
    "FROZEN_KEYS",
    "state_hash",
    "cite",
    "new_seed",
    "seed_commitment",
    "derive_die",
    "replay",
    "ReplayMismatch",
    # the table (issue 15): names and texts to show, the referee asked before acting, previews
    "display",
    "dry_run",
    "shooting_preview",
    "fight_preview",
    "unavailable_targets",
    # rules data and armies
    "STRATAGEM_TRIGGERS",
    "Edition",
    "EditionError",
    "parameter_choices",
    "DiceExpression",
    "KNOWN_ABILITIES",
    "NotationError",
    "WeaponAbility",
    "format_weapon_abilities",
    "parse_dice",
    "parse_weapon_abilities",
    "WargearTextError",
    "choices_offered",
    "ally_faction_keywords",
    "ArmyCheck",
    "check_army",
    # army lists of other tools (games/army_lists) and the rules not enforced
    "POINTS_LIMITS",
    "allied_as",
    "unit_points",
    "composition_names",
    "default_loadouts",
    "equip",
    "normal_name",
    "resolve_item",
    "wargear_options",
    "IMPLEMENTED",
    "NO_PRINTED_EFFECT",
    "datasheet_ability_key",
    # tools
    "preview",
    "parse_spec",
    "AttackInputError",
    "selfplay",
    "SelfplayError",
    # the computer opponent of practice games (games/practice.py)
    "build_armies",
    "opponent_action",
]
