"""One module per core chapter: the Command, Movement, Shooting, Charge and Fight phases,
transports, battle-shock and command points.
"""
