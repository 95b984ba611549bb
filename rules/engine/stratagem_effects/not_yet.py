"""The seed stratagems without an implementation yet, each with what it waits for.

Windows never offer them (an unimplemented effect would be paid for and do nothing). The
coverage test (tests/test_stratagem_coverage.py) fails for any stratagem of the rules data that is
neither implemented nor listed here, and for any entry here that has since been implemented, so
the gap stays visible and shrinks. docs/engine.md (Stratagems) carries the same list.
"""

NEEDS_ATTACK_RESOLUTION = "needs the attack sequence resolved in the Shooting/Fight phases"
NEEDS_REROLL_HOOKS = "needs after-roll windows at each roll it lists (advance, charge, attacks)"
NEEDS_CHARGE_ROLL_MODIFIERS = "needs charge-roll modifiers read by the Charge phase"
NEEDS_HALLOWED_GROUND = "needs the Grey Knights' Hallowed Ground (wholly within) rule"
NEEDS_ORDERS = "needs Astra Militarum Orders (Voice of Command)"

NOT_IMPLEMENTED: dict[str, str] = {
    # core 11e / 10e
    "fire-overwatch-11e": NEEDS_ATTACK_RESOLUTION + " (snap shooting)",
    "fire-overwatch-10e": NEEDS_ATTACK_RESOLUTION + "; move windows in the Movement phase",
    # Boarding Actions
    "battlefield-command-boarding-actions": "needs Leader abilities as data",
    "explosive-clearance-boarding-actions": NEEDS_ATTACK_RESOLUTION + " ([BLAST] model count)",
    # Astra Militarum
    "burst-of-speed": "needs a Normal move outside the move sequence (movement owner)",
    "flexible-command": NEEDS_ORDERS,
    "inspired-command": NEEDS_ORDERS,
    "snap-to-it": NEEDS_ORDERS,
    "no-retreat": NEEDS_ORDERS,
    "purging-fire": NEEDS_ORDERS + "; an 'in range of an objective' attack condition",
    # Grey Knights
    "haloed-in-soulfire": "needs targeting restrictions read by the Shooting phase",
    "prognisticated-arrival": "needs Deep Strike set-up (reinforcements step, others' work)",
    "mists-of-deimos": "needs move windows in the Movement phase",
    "breach-shock": "needs pile-in and consolidation moves",
    "hallowed-beacon": NEEDS_HALLOWED_GROUND,
    "fires-of-covenant": NEEDS_HALLOWED_GROUND + "; set-up and move windows",
    # Imperial Agents
    "rapid-tactical-relocation": "needs set-up in a later reinforcements step",
    "displacer-field": "needs a Normal move after the attacking unit resolved its attacks",
    "exact-punishment": NEEDS_ATTACK_RESOLUTION + " (shooting out of turn)",
}
