"""Astra Militarum: Voice of Command and Orders, detachment rules, enhancements, datasheet
abilities and Order stratagems.
"""
