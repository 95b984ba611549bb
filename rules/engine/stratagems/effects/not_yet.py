"""The seed stratagems without an implementation yet, each with what it waits for.

Windows never offer them (an unimplemented effect would be paid for and do nothing). The
coverage test (tests/test_stratagem_coverage.py) fails for any stratagem of the rules data that is
neither implemented nor listed here, and for any entry here that has since been implemented, so
the gap stays visible and shrinks. docs/engine.md (Stratagems) carries the same list.
"""

NOT_IMPLEMENTED: dict[str, str] = {
    # Boarding Actions
    "explosive-clearance-boarding-actions": (
        "needs the rule it relaxes: [BLAST] counts and allocation limited to models visible to "
        "the attacker (not quoted in the seeds, CATALOGUE CORE-ALLOCATION 5); the engine counts "
        "and allocates to every model, so the stratagem would change nothing (rulings R-OW-12)"
    ),
}
