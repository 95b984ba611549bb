"""The seed stratagems without an implementation yet, each with what it waits for.

Windows never offer them (an unimplemented effect would be paid for and do nothing). The
coverage test (tests/test_stratagem_coverage.py) fails for any stratagem of the rules data that is
neither implemented nor listed here, and for any entry here that has since been implemented, so
the gap stays visible and shrinks. docs/engine.md (Stratagems) carries the same list.
"""

NEEDS_ATTACK_RESOLUTION = "needs the attack sequence resolved in the Shooting/Fight phases"
NEEDS_ORDERS = "needs Astra Militarum Orders (Voice of Command)"
NEEDS_DEEP_STRIKE = "needs Deep Strike / Teleport Assault set-up and the reinforcements_step window"
NEEDS_MOVE_WINDOWS = "needs windows when an enemy unit is set up or starts/ends a move"

NOT_IMPLEMENTED: dict[str, str] = {
    # core 11e / 10e
    # Boarding Actions
    "battlefield-command-boarding-actions": "needs Leader abilities as data",
    "explosive-clearance-boarding-actions": NEEDS_ATTACK_RESOLUTION + " ([BLAST] model count)",
    # Astra Militarum
    "burst-of-speed": "needs a Normal move outside the move sequence (the movement rework)",
    "flexible-command": NEEDS_ORDERS,
    "inspired-command": NEEDS_ORDERS,
    "snap-to-it": NEEDS_ORDERS,
    "no-retreat": NEEDS_ORDERS,
    "purging-fire": NEEDS_ORDERS,
    # Grey Knights
    "haloed-in-soulfire": NEEDS_DEEP_STRIKE,
    "prognisticated-arrival": NEEDS_DEEP_STRIKE,
    "hallowed-beacon": NEEDS_DEEP_STRIKE,
    "mists-of-deimos": NEEDS_MOVE_WINDOWS + "; a Normal move out of sequence",
    "breach-shock": "needs pile-in and consolidation moves in the Fight phase",
    # Imperial Agents
    "rapid-tactical-relocation": "needs set-up anywhere in a later reinforcements step",
    "displacer-field": "needs a Normal move after the attacking unit resolved its attacks",
}
