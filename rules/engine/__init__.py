"""The rules engine: a pure Python core that knows nothing of Django.

State in, action in, new state and events out. Nothing in this package may import Django, so
that the engine can be tested, benchmarked and replayed on its own.
"""
