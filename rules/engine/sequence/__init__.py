"""The battle sequence over the phases, the dispatcher (`game`), set-up stages, objectives,
scoring, missions and replay.
"""
