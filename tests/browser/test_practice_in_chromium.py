"""A practice game against the computer in real Chromium (issue 19): the player starts it from
the lobby, deploys by dragging, plays a turn, and sees the computer deploy, move, shoot (its dice
in the tray) and answer a stratagem window by itself."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser.table_helpers import (
    centre_on,
    deploy_one,
    page_view,
    person,
    save_screenshot,
    screen_point,
    show_tab,
    sign_up,
)

pytestmark = pytest.mark.browser
# The computer pauses between its actions (PRACTICE_PAUSE_MS): a turn of it takes a while.
COMPUTER_TURN = 90_000
STEP = 15_000


def computer_facts(site_shell, game_id: int) -> dict:
    """What the computer did, from the game's log: its actions and the windows it answered."""
    out = site_shell(
        "import json; from games.models import GameEvent as E; "
        f"rows = list(E.objects.filter(game_id={game_id}).order_by('sequence')); "
        "acts = [r.payload['action'] for r in rows if r.kind == 'action_applied']; "
        "asked = {r.payload['decision']['id'] for r in rows if r.kind == 'decision_pending' "
        "and r.payload['decision']['kind'] == 'stratagem_window' "
        "and r.payload['decision']['player'] == 2}; "
        "print(json.dumps({'types': sorted({a['type'] for a in acts if a['player'] == 2}), "
        "'windows': len([a for a in acts if a['player'] == 2 and a['type'] == 'decide' "
        "and a['decision'] in asked])}))"
    )
    return json.loads(out.strip().splitlines()[-1])


def my_turn(page, timeout: int = COMPUTER_TURN) -> None:
    """Wait until the server gives the player something to do (the computer has acted)."""
    page.wait_for_function(
        "() => strategium.view.state && strategium.view.sent.size === 0"
        " && strategium.view.legalActions.length > 0",
        timeout=timeout,
    )


def state_version(page) -> int:
    return page.evaluate("() => strategium.view.state.version")


def after(page, version: int) -> None:
    """Wait until the server's answer to the player's action has come back with its events."""
    page.wait_for_function(
        f"() => strategium.view.state.version > {version} && strategium.view.sent.size === 0",
        timeout=STEP,
    )


def answer_or_end(page) -> str:
    """One step of the player's: pass a window, take the first offered choice of another
    decision, or end the phase."""
    passing = page.locator("[data-actions] [data-action=decide][data-choice=pass]")
    if passing.count():
        passing.first.click()
        return "pass"
    decision = page.locator("[data-actions] .decision button[data-action=decide]")
    if decision.count():
        decision.first.click()
        return "decide"
    page.click("[data-action=end_phase]")
    return "end_phase"


def test_a_player_practises_against_the_computer(site, site_shell, new_context):
    alice = new_context("alice").new_page()
    name = person("alice")
    sign_up(alice, site, name)
    site_shell(
        f"from tests.browser.flow_fixtures import store_army; print(store_army({name!r}, 1))"
    )
    alice.goto(f"{site}/games/")
    form = alice.locator("[data-practice-game]")
    form.locator("select[name=ruleset]").select_option("11e")
    first_mission = form.locator("select[name=mission] option").nth(1).get_attribute("value")
    form.locator("select[name=mission]").select_option(first_mission)
    form.locator("select[name=computer_army]").select_option("builtin:grey-knights")
    form.locator("select[name=level]").select_option("tactical")
    save_screenshot(alice, "practice-lobby")
    form.locator("button[type=submit]").click()
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", alice.url).group(1))
    assert "Computer opponent" in alice.inner_text("main")

    # Strategic reserves and deployment: the player drags each unit; the computer deploys its own.
    placed = {1: 0, 2: 0}
    while True:
        my_turn(alice)
        view = page_view(alice)
        if any(a["type"] == "declare_reserves" for a in view["legal"]):
            version = state_version(alice)
            alice.click("[data-action=declare_reserves]")
            after(alice, version)
            continue
        if not any(a["type"] == "deploy" for a in view["legal"]):
            break
        deploy_one(1, alice, placed)
    alice.wait_for_function(
        "() => Object.values(strategium.view.state.units).filter(u => u.player === 2)"
        ".every(u => u.location !== 'unplaced')",
        timeout=COMPUTER_TURN,
    )
    assert alice.locator("[data-model^='p2-']").count() > 0
    save_screenshot(alice, "practice-deployed")

    # The battle: the player plays a turn (a move, then every phase ended, windows passed), the
    # computer plays its own, until it has moved, shot and answered a stratagem window.
    moved = False
    for _ in range(400):
        facts = computer_facts(site_shell, game_id)
        if {"move", "shoot"} <= set(facts["types"]) and facts["windows"] and moved:
            break
        my_turn(alice)
        view = page_view(alice)
        moves = [a for a in view["legal"] if a["type"] == "move"]
        if not moved and moves and not alice.locator("[data-actions] .decision").count():
            unit_id = moves[0]["unit"]
            alice.click(f"[data-select-unit='{unit_id}']")
            model = next(
                m for m in view["state"]["units"][unit_id]["models"] if m["wounds_left"] > 0
            )
            centre_on(alice, model["x"], model["y"] + 1.5)
            alice.mouse.move(*screen_point(alice, model["x"], model["y"]))
            alice.mouse.down()
            alice.mouse.move(*screen_point(alice, model["x"], model["y"] + 3), steps=6)
            version = state_version(alice)
            alice.mouse.up()
            after(alice, version)
            show_tab(alice, "log")
            alice.wait_for_selector(
                "[data-log] li[data-kind=unit_moved]", state="attached", timeout=STEP
            )
            moved = True
            continue
        version = state_version(alice)
        answer_or_end(alice)
        after(alice, version)
    else:
        raise AssertionError(f"the computer did not play: {facts}")
    assert facts["windows"] > 0
    # Its shots rolled dice the player sees in the tray.
    show_tab(alice, "dice")
    alice.wait_for_selector("[data-dice-tray] .die", timeout=STEP)
    save_screenshot(alice, "practice-computer-turn", publish=True)
