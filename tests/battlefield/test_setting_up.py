"""Set-up checks (11e §03.02, §18.02-18.05, §20.04, 24.20; 10e Deep Strike, Reserves)."""

import pytest

from rules.engine.battlefield.setting_up import (
    check_deep_strike,
    check_deployment,
    check_disembark,
    check_embark,
    check_emergency_disembark,
    check_infiltrators,
    check_reserves_arrival,
)
from rules.engine.core.refusals import Refusal
from tests.battlefield.helpers import ELEVENTH, R32, TENTH, board, line, squad

ZONES = {
    "red": [[0, 0], [44, 0], [44, 12], [0, 12]],
    "blue": [[0, 48], [44, 48], [44, 60], [0, 60]],
}


def refusal_of(check, *args):
    with pytest.raises(Refusal) as error:
        check(*args)
    return error.value


def test_deployment_wholly_within_the_zone():
    bf = board(zones=ZONES)
    inside = squad("a", "red", line(10, 5, 3))
    check_deployment(bf, ELEVENTH, inside, inside, "red")
    straddling = squad("a", "red", line(10, 11, 3))
    assert refusal_of(check_deployment, bf, ELEVENTH, straddling, straddling, "red").code == (
        "outside_deployment_zone"
    )


@pytest.mark.parametrize(
    ("edition", "gap", "legal"), [(ELEVENTH, 8.5, True), (TENTH, 8.5, False), (TENTH, 9.1, True)]
)
def test_deep_strike_distance_per_edition(edition, gap, legal):
    # 10e Deep Strike: more than 9" from all enemy models; 11e: 8" (ruling R-BF-11).
    enemy = squad("e", 2, [(22, 30)])
    arriving = squad("a", 1, [(22 - 2 * R32 - gap, 30)])
    if legal:
        check_deep_strike(board(), edition, arriving, enemy + arriving)
    else:
        assert refusal_of(check_deep_strike, board(), edition, arriving, enemy + arriving).code == (
            "too_close_to_enemy"
        )


def test_ingress_near_an_edge_far_from_enemies_and_out_of_the_enemy_zone_early():
    # 11e §20.04: wholly within 6" of an edge, more than 8" from enemies, not in the opponent's
    # deployment zone before the third battle round.
    bf = board(zones=ZONES)
    enemy = squad("e", "blue", [(40, 30)])
    on_edge = squad("a", "red", line(2, 25, 3))
    check_reserves_arrival(bf, ELEVENTH, on_edge, enemy + on_edge, 2, "blue")
    straddling = squad("a", "red", line(5.9, 25, 3))
    assert refusal_of(
        check_reserves_arrival, bf, ELEVENTH, straddling, straddling, 2, "blue"
    ).code == ("not_near_edge")
    inland = squad("a", "red", line(10, 25, 3))
    assert (
        refusal_of(check_reserves_arrival, bf, ELEVENTH, inland, inland, 2, "blue").code
        == "not_near_edge"
    )
    in_their_zone = squad("a", "red", line(2, 52, 3))
    assert refusal_of(
        check_reserves_arrival, bf, ELEVENTH, in_their_zone, in_their_zone, 2, "blue"
    ).code == ("in_opponent_zone")
    check_reserves_arrival(bf, ELEVENTH, in_their_zone, in_their_zone, 3, "blue")


def test_infiltrators_keep_away_from_the_enemy_zone():
    # 11e 24.20: more than 8" from the opponent's deployment zone and all enemy units.
    bf = board(zones=ZONES)
    close = squad("a", "red", line(10, 42, 2))
    assert refusal_of(check_infiltrators, bf, ELEVENTH, close, close, "blue").code == (
        "too_close_to_deployment_zone"
    )
    check_infiltrators(bf, ELEVENTH, squad("a", "red", line(10, 30, 2)), [], "blue")


def test_embark_within_three_inches_and_disembark_wholly_within():
    # 11e §18.02 and §18.04 (combat disembark 6", may be engaged with the transport's foes).
    transport = squad(
        "t",
        1,
        [(20, 20)],
        base={"shape": "hull", "length_mm": 120, "width_mm": 70},
        keywords=("VEHICLE", "TRANSPORT"),
    )[0]
    near = squad("a", 1, line(24, 19, 2))
    check_embark(ELEVENTH, near, transport)
    assert (
        refusal_of(check_embark, ELEVENTH, squad("a", 1, [(30, 20)]), transport).code
        == "too_far_to_embark"
    )
    check_disembark(board(), ELEVENTH, near, [transport], transport)
    further = squad("a", 1, line(27, 19, 2))
    assert refusal_of(check_disembark, board(), ELEVENTH, further, [transport], transport).code == (
        "too_far_from_transport"
    )
    check_disembark(board(), ELEVENTH, further, [transport], transport, combat=True)
    assert refusal_of(
        check_disembark,
        board(),
        TENTH,
        further,
        [transport],
        transport,
        True,
    ).code == ("no_combat_disembark")
    enemy = squad("e", 2, [(30, 19)])
    assert refusal_of(
        check_disembark,
        board(),
        ELEVENTH,
        further,
        [transport] + enemy,
        transport,
        True,
    ).code == ("ends_engaged")
    check_disembark(
        board(), ELEVENTH, further, [transport] + enemy, transport, True, frozenset({"e"})
    )


def test_emergency_disembark_wholly_within_six_inches():
    # 11e §18.05: wholly within 6" of the destroyed transport.
    hull = {"shape": "hull", "length_mm": 120, "width_mm": 70}
    transport = squad("t", 1, [(20, 20)], base=hull, keywords=("VEHICLE",))[0]
    check_emergency_disembark(
        board(), ELEVENTH, squad("a", 1, line(27, 19, 2)), [transport], transport
    )
    assert (
        refusal_of(
            check_emergency_disembark,
            board(),
            TENTH,
            squad("a", 1, line(31, 19, 2)),
            [transport],
            transport,
        ).code
        == "too_far_from_transport"
    )
