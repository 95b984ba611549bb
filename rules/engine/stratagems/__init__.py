"""Stratagems: cost, limits and use, windows, and the effects of core and Boarding Actions
stratagems.
"""
