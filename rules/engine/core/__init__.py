"""Machinery with no rule text: state, context, dice, rolls, decisions, continuations, effects,
facts, editions, citations, notation, refusals, hooks.
"""
