"""Dice as the rules make them (01.05, 01.05.01): recorded, re-rolled at most once, automatic
successes roll nothing."""

import pytest

from rules.engine.core.decisions import take_answer
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.rolls import automatic_success, offer_reroll, reroll, roll
from rules.engine.core.sequencing import CONTINUATIONS, continuation, resume
from rules.engine.core.state import copy_state
from tests.engine_world import deployed_game


def context():
    state, _ = deployed_game("11e")
    return Context(copy_state(state))


def test_every_die_is_recorded_with_its_index_and_rule():
    ctx = context()
    start = ctx.state["dice"]["next_index"]
    record = roll(ctx, 2, "charge", "11", 1, "p1-u1")
    event = ctx.events[-1]
    assert event["type"] == "dice_rolled" and event["rule"] == "11"
    assert event["indices"] == [start, start + 1]
    assert record["total"] == sum(record["values"])
    assert ctx.state["dice"]["next_index"] == start + 2


def test_modifiers_are_capped():
    ctx = context()
    record = roll(ctx, 1, "hit", "Hit Roll", 1, modifier=-2, modifier_cap=1)
    assert record["modifier_applied"] == -1


def test_a_die_is_never_rerolled_more_than_once():
    ctx = context()
    record = roll(ctx, 2, "charge", "11", 1)
    record = reroll(ctx, record, [0], "15.02")
    with pytest.raises(Refusal) as refusal:
        reroll(ctx, record, [0], "15.02")
    assert refusal.value.code == "die_already_rerolled"
    reroll(ctx, record, [1], "15.02")


def test_an_automatic_success_rolls_no_dice():
    """01.05.01: do not roll; rules triggered by a dice result do not take effect."""
    ctx = context()
    start = ctx.state["dice"]["next_index"]
    automatic_success(ctx, "hit", "Torrent", 1, "p1-u1")
    assert ctx.state["dice"]["next_index"] == start
    assert ctx.events[-1]["type"] == "roll_automatic"


AFTER = "test_after_reroll"
if AFTER not in CONTINUATIONS:

    @continuation(AFTER)
    def _remember(ctx, data, _choice):
        ctx.state["facts"]["phase"]["test_roll"] = data["roll"]


def answer(ctx, choice):
    decision, picked = take_answer(
        ctx,
        {
            "type": "decide",
            "player": 1,
            "decision": ctx.state["pending"][-1]["id"],
            "choice": choice,
        },
    )
    resume(ctx, decision["resume"], picked)


def test_the_player_chooses_one_die_to_reroll_and_the_sequence_resumes():
    """15.02 Command Re-roll: if several dice were rolled together, re-roll one chosen die."""
    ctx = context()
    record = roll(ctx, 2, "advance", "09.06", 1)
    offer_reroll(ctx, 1, record, "15.02", {"step": AFTER})
    assert ctx.state["pending"][-1]["options"] == ["pass", [0], [1]]
    answer(ctx, [1])
    after = ctx.state["facts"]["phase"]["test_roll"]
    assert after["rerolled"] == [False, True] and after["values"][0] == record["values"][0]
    offer_reroll(ctx, 1, after, "15.02", {"step": AFTER})
    assert ctx.state["pending"][-1]["options"] == ["pass", [0]]  # never the same die twice


def test_a_charge_roll_is_rerolled_in_full_or_not_at_all():
    ctx = context()
    record = roll(ctx, 2, "charge", "11", 1)
    offer_reroll(ctx, 1, record, "15.02", {"step": AFTER}, whole_roll=True)
    assert ctx.state["pending"][-1]["options"] == ["pass", "all"]
    answer(ctx, "all")
    assert ctx.state["facts"]["phase"]["test_roll"]["rerolled"] == [True, True]
