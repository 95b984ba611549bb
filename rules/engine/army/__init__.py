"""Before the battle: muster, list checks, wargear, weapons, attached units, starting strength,
transport capacity.
"""
