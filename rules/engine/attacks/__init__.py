"""The vectorised attack pipeline (profiles, modifiers, dice, rolls, sequence, allocation,
resolution), casualties and the damage preview.
"""
