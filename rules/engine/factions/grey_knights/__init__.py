"""Grey Knights: detachment rules, datasheet abilities, Teleport Assault, Hallowed Ground."""
