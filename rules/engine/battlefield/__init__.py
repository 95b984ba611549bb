"""Geometry on placements: bases, terrain, areas, measuring, visibility, sweeping, coherency, move
and set-up validation.
"""
