"""The rules of the data (other than stratagems) without an implementation yet, each with what it
waits for, and the entries that print no effect at all.

`tests/test_rule_coverage.py` fails for any ability, datasheet ability, detachment rule or
enhancement of the rules data that is neither registered in `rule_registry.IMPLEMENTED` nor listed
here, and for any entry listed here that has since been implemented: the gap stays visible and
shrinks. Keys are those of `rule_registry` (kind, key).
"""

from __future__ import annotations

# The seeds name these but lost their text (catalogue: "Text missing - GAP"); a player may still
# take them, and they do nothing in play.
NO_PRINTED_EFFECT: dict[tuple[str, str], str] = {
    ("enhancement", "blackweave-shroud"): "text missing in seed 000 (E-BLACKWEAVE-SHROUD)",
    ("enhancement", "daemon-slayer"): "text missing in seed 000 (catalogue E-DAEMON-SLAYER)",
    ("enhancement", "laud-hailer"): "text missing in seed 003 (catalogue E-LAUD-HAILER)",
}

ORDERS = "needs Astra Militarum Orders (Voice of Command)"
RESERVES = "needs Deep Strike / Teleport Assault arrivals and their windows"
MOVE_WINDOWS = "needs windows when an enemy unit is set up or ends a move"
ABILITY_EFFECTS = "needs the ability's effect wired into the attack, objective or command rules"

NOT_IMPLEMENTED: dict[tuple[str, str], str] = {
    # Astra Militarum
    ("ability", "voice-of-command"): ORDERS,
    ("ability", "move-move-move"): ORDERS,
    ("ability", "fix-bayonets"): ORDERS,
    ("ability", "take-aim"): ORDERS,
    ("ability", "first-rank-fire-second-rank-fire"): ORDERS,
    ("ability", "take-cover"): ORDERS,
    ("ability", "duty-and-honour"): ORDERS,
    ("ability", "on-my-signal"): ORDERS,
    ("ability", "target-weak-spot"): ORDERS,
    ("detachment-rule", "armoured-infantry"): ORDERS,
    ("detachment-rule", "grizzled-company"): ORDERS,
    ("detachment-rule", "siege-regiment"): ABILITY_EFFECTS,
    ("enhancement", "death-mask-of-ollanius"): ABILITY_EFFECTS,
    ("enhancement", "grand-strategist-combined-arms"): ORDERS,
    ("enhancement", "reactive-command"): MOVE_WINDOWS,
    ("enhancement", "drill-commander"): ABILITY_EFFECTS,
    ("enhancement", "stalwarts-honours"): ORDERS,
    ("enhancement", "aquilan-eye"): ORDERS,
    ("enhancement", "grand-strategist-armoured-infantry"): "needs redeployment after deployment",
    ("datasheet-ability", "death-rider-commissar/summary-execution"): ABILITY_EFFECTS,
    ("datasheet-ability", "death-rider-commissar/political-overwatch"): ABILITY_EFFECTS,
    ("datasheet-ability", "death-rider-commissar/orders"): ORDERS,
    ("datasheet-ability", "death-rider-commissar/leader-other-leaders"): "two Leaders in one unit",
    ("datasheet-ability", "cadian-castellan/senior-officer"): ABILITY_EFFECTS,
    ("datasheet-ability", "cadian-castellan/get-back-in-the-fight"): ABILITY_EFFECTS,
    ("datasheet-ability", "cadian-castellan/orders"): ORDERS,
    ("datasheet-ability", "cadian-shock-troops/shock-troops"): ABILITY_EFFECTS,
    ("datasheet-ability", "cadian-shock-troops/vox-caster"): ABILITY_EFFECTS,
    ("datasheet-ability", "chimera/mobile-command-vehicle"): ORDERS,
    ("datasheet-ability", "death-riders/screening-line"): MOVE_WINDOWS,
    ("datasheet-ability", "leman-russ-battle-tank/armoured-spearhead"): ABILITY_EFFECTS,
    ("datasheet-ability", "leman-russ-battle-tank/damaged-1-4-wounds-remaining"): ABILITY_EFFECTS,
    # Grey Knights
    ("ability", "teleport-assault"): RESERVES,
    ("detachment-rule", "teleport-strike-force"): RESERVES,
    ("detachment-rule", "void-purge-force"): ABILITY_EFFECTS,
    ("datasheet-ability", "strike-squad/sanctifying-ritual-psychic"): ABILITY_EFFECTS,
    ("datasheet-ability", "brother-captain/hammerhand-psychic"): ABILITY_EFFECTS,
    ("datasheet-ability", "brother-captain/eye-of-judgement-psychic"): ABILITY_EFFECTS,
    ("datasheet-ability", "brotherhood-champion/clarion-of-haste-psychic"): ABILITY_EFFECTS,
    ("datasheet-ability", "brotherhood-champion/inspiring-exemplar"): ABILITY_EFFECTS,
    ("datasheet-ability", "brotherhood-terminator-squad/force-edge-psychic"): ABILITY_EFFECTS,
    ("datasheet-ability", "brotherhood-terminator-squad/ancients-banner"): ABILITY_EFFECTS,
    ("datasheet-ability", "brotherhood-terminator-squad/apothecarys-narthecium"): ABILITY_EFFECTS,
    ("datasheet-ability", "interceptor-squad/personal-teleporters"): "a Normal move after shooting",
    ("datasheet-ability", "rhino/truesilver-aegis-aura"): ABILITY_EFFECTS,
    # Imperial Agents
    ("detachment-rule", "ordo-malleus-daemon-hunters"): ABILITY_EFFECTS,
    ("detachment-rule", "ordo-hereticus-purgation-force"): ABILITY_EFFECTS,
    ("detachment-rule", "imperialis-fleet"): ABILITY_EFFECTS,
    ("enhancement", "universal-anathema"): ABILITY_EFFECTS,
    ("enhancement", "ignis-judicium"): ABILITY_EFFECTS,
    ("enhancement", "liber-heresius"): "needs redeployment after deployment",
    ("enhancement", "witch-hunter"): ABILITY_EFFECTS,
    ("enhancement", "no-escape"): ABILITY_EFFECTS,
    ("enhancement", "grimoire-of-true-names"): ABILITY_EFFECTS,
    ("enhancement", "gift-of-the-prescient"): ABILITY_EFFECTS,
    ("enhancement", "formidable-resolve"): ABILITY_EFFECTS,
    ("enhancement", "digital-weapons"): ABILITY_EFFECTS,
    ("enhancement", "clandestine-operation"): ABILITY_EFFECTS,
    ("datasheet-ability", "inquisitor/power-of-the-rosette"): ABILITY_EFFECTS,
    ("datasheet-ability", "inquisitor/blessed-wardings"): ABILITY_EFFECTS,
    ("datasheet-ability", "inquisitor/psychic-gifts"): ABILITY_EFFECTS,
    ("datasheet-ability", "imperial-navy-breachers/breaching-team"): ABILITY_EFFECTS,
    ("datasheet-ability", "imperial-navy-breachers/gheistskull"): ABILITY_EFFECTS,
    ("datasheet-ability", "imperial-navy-breachers/cat-unit"): ABILITY_EFFECTS,
    ("datasheet-ability", "imperial-navy-breachers/endurant-shield"): ABILITY_EFFECTS,
    ("datasheet-ability", "inquisitor-coteaz/malefic-wardings-psychic"): ABILITY_EFFECTS,
    ("datasheet-ability", "inquisitor-coteaz/spy-network"): ABILITY_EFFECTS,
    ("datasheet-ability", "inquisitor-coteaz/glovodan-psyber-eagle"): ABILITY_EFFECTS,
    ("datasheet-ability", "inquisitorial-agents/loyal-henchmen"): ABILITY_EFFECTS,
    ("datasheet-ability", "inquisitorial-agents/tome-skull"): ABILITY_EFFECTS,
    ("datasheet-ability", "inquisitorial-agents/inquisitorial-henchmen"): "needs the army rule",
    ("datasheet-ability", "vigilant-squad/merciless-judgement"): ABILITY_EFFECTS,
    ("datasheet-ability", "vigilant-squad/nuncio-aquila-aura"): ABILITY_EFFECTS,
    ("datasheet-ability", "vindicare-assassin/deadshot"): ABILITY_EFFECTS,
    ("datasheet-ability", "vindicare-assassin/shieldbreaker"): ABILITY_EFFECTS,
    ("datasheet-ability", "vindicare-assassin/shadow-assignment"): "needs the army rule",
}
