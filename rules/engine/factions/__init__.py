"""Faction rules, one package per faction, each reaching the engine through hooks and timing
points.
"""
