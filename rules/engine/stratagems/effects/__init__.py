"""Stratagem implementations, one module per group of effects. Each registers its stratagems in
`IMPLEMENTATIONS` (slug -> `Implementation`) when `core/plugins.py` loads it."""

from rules.engine.stratagems.effects.base import IMPLEMENTATIONS, Implementation, Use

__all__ = ["IMPLEMENTATIONS", "Implementation", "Use"]
