"""The seed stratagems without an implementation yet, each with what it waits for.

Windows never offer them (an unimplemented effect would be paid for and do nothing). The
coverage test (tests/test_stratagem_coverage.py) fails for any stratagem of the rules data that is
neither implemented nor listed here, and for any entry here that has since been implemented, so
the gap stays visible and shrinks. docs/engine.md (Stratagems) carries the same list.
"""

NEEDS_ORDERS = "needs Astra Militarum Orders (Voice of Command)"
NEEDS_DEEP_STRIKE = "needs Deep Strike / Teleport Assault set-up and the reinforcements_step window"

NOT_IMPLEMENTED: dict[str, str] = {
    # Boarding Actions
    "battlefield-command-boarding-actions": "needs Leader abilities as data",
    "explosive-clearance-boarding-actions": (
        "needs the rule it relaxes: [BLAST] counts and allocation limited to models visible to "
        "the attacker (not quoted in the seeds, CATALOGUE CORE-ALLOCATION 5); the engine counts "
        "and allocates to every model, so the stratagem would change nothing (rulings R-OW-12)"
    ),
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
    "mists-of-deimos": (
        "waits for the out-of-sequence Normal move being built elsewhere, to be wired on the "
        "`reactions` hook (enemy_move_started_or_ended, moment move_ended)"
    ),
    "breach-shock": "needs pile-in and consolidation moves in the Fight phase",
    # Imperial Agents
    "rapid-tactical-relocation": "needs set-up anywhere in a later reinforcements step",
    "displacer-field": "needs a Normal move after the attacking unit resolved its attacks",
}
