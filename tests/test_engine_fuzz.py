"""Any action at all: either accepted (the version grows by one) or refused with a code, a rule
and a message, the state unchanged; never a crash."""

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.core.refusals import Refusal
from rules.engine.core.state import canonical_json
from rules.engine.sequence.game import apply, new_game
from tests.engine_world import SEED, deployed_game, end_phase, play, setup

TYPES = [
    "declare_reserves",
    "deploy",
    "end_phase",
    "remain_stationary",
    "move",
    "advance",
    "fall_back",
    "arrive",
    "shoot",
    "declare_charge",
    "fight",
    "decide",
    "teleport",
]


@cache
def states():
    """A few positions: set-up, the Movement phase, and a pending advance move."""
    opening, _ = new_game(setup("11e"), SEED)
    battle, _ = deployed_game("10e")
    movement, _ = end_phase(battle)
    advancing, _ = play(movement, {"type": "advance", "player": 1, "unit": "p1-u2"})
    return [opening, movement, advancing]


numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-100, 100))
positions = st.one_of(
    st.none(),
    st.text(max_size=3),
    st.dictionaries(
        st.sampled_from([f"p1-u2-m{i}" for i in range(1, 7)] + ["p2-u1-m1", "zz"]),
        st.one_of(st.lists(numbers, min_size=0, max_size=4), st.none()),
        max_size=6,
    ),
)
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES), "player": st.sampled_from([1, 2, 0, "1", None])},
    optional={
        "unit": st.sampled_from(["p1-u1", "p1-u2", "p2-u1", "nope", None, 7]),
        "units": st.one_of(
            st.lists(st.sampled_from(["p1-u1", "p1-u2", "p2-u1", "x"])), st.integers()
        ),
        "positions": positions,
        "targets": st.one_of(
            st.lists(st.sampled_from(["p1-u1", "p2-u1", "p2-u2", "x"])),
            st.none(),
            st.text(max_size=2),
        ),
        "decision": st.sampled_from(["d1", "d2", "d3", None, 5]),
        "choice": st.one_of(st.none(), st.sampled_from(["first", "all", "pass"]), positions),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 2), action=actions)
def test_an_action_is_accepted_or_refused_without_changing_the_state(index, action):
    state = states()[index]
    before = canonical_json(state)
    try:
        new_state, events = apply(state, action)
    except Refusal as refusal:
        assert refusal.code and refusal.rule and refusal.message
    else:
        assert new_state["version"] == state["version"] + 1
        assert events[0]["type"] == "action_applied"
        canonical_json(new_state)
    assert canonical_json(state) == before
