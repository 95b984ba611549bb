"""The seed stratagems without an implementation yet, each with what it waits for.

Windows never offer them (an unimplemented effect would be paid for and do nothing). The
coverage test (tests/test_stratagem_coverage.py) fails for any stratagem of the rules data that is
neither implemented nor listed here, and for any entry here that has since been implemented, so
the gap stays visible and shrinks. docs/engine.md (Stratagems) carries the same list.
"""

NEEDS_ATTACK_RESOLUTION = "needs the attack sequence resolved in the Shooting/Fight phases"
NEEDS_MOVE_WINDOWS = "needs windows when an enemy unit is set up or starts/ends a move"

NOT_IMPLEMENTED: dict[str, str] = {
    # core 11e / 10e
    "fire-overwatch-11e": NEEDS_ATTACK_RESOLUTION + " (snap shooting: hits only on 6s)",
    "fire-overwatch-10e": NEEDS_ATTACK_RESOLUTION + "; " + NEEDS_MOVE_WINDOWS,
    # Boarding Actions
    "explosive-clearance-boarding-actions": NEEDS_ATTACK_RESOLUTION + " ([BLAST] model count)",
    # Grey Knights
    "mists-of-deimos": NEEDS_MOVE_WINDOWS + "; a Normal move out of sequence",
    "fires-of-covenant": NEEDS_MOVE_WINDOWS,
    # Imperial Agents
    "exact-punishment": NEEDS_ATTACK_RESOLUTION + " (shooting out of turn); unit_destroyed window",
}
