"""Imperial Agents: the Inquisitor's abilities, detachment rules, enhancements and datasheet
abilities.
"""
