"""The tabletop in real Chromium, against the server as it is: a state the server holds is drawn
to scale, measured, zoomed and panned; the event log and dice tray read the game's log.

The games here are set up server-side by tests/browser/table_fixtures.py (self-play with the
engine), because the actions that play a game online come with the game protocol.
"""

import math

import pytest

from rules.engine.army.wargear import base_weapon_name
from tests.browser.table_helpers import (
    create_game,
    drag_on_table,
    fixture_call,
    open_game,
    page_view,
    person,
    players_in_a_game,
    save_screenshot,
    screen_point,
    show_tab,
    sign_up,
)

pytestmark = pytest.mark.browser
MM = 25.4


@pytest.fixture
def game_in_battle(site, site_shell, new_context):
    """Alice and Bob's game in player 1's Movement phase, and a spectator link."""
    game = players_in_a_game(site, new_context, ("ariadne", "boris"))
    fixture_call(site_shell, f"store_snapshot_game({game['id']})")
    game["alice"].goto(f"{site}/games/")
    save_screenshot(game["alice"], "lobby", publish=True)
    return game


def open_table(page, url: str) -> dict:
    return open_game(page, url, legal=False)


def test_the_board_draws_the_servers_state_to_scale(game_in_battle, new_context):
    alice = game_in_battle["alice"]
    view = open_table(alice, f"{game_in_battle['site']}/games/{game_in_battle['id']}/")
    state = view["state"]
    mission = state["mission"]

    assert alice.locator("[data-zone]").count() == len(mission["deployment_zones"])
    assert alice.locator("[data-terrain]").count() == len(mission["terrain"])
    assert alice.locator(".terrain.kind-ruin").count() == sum(
        1 for piece in mission["terrain"] if piece["kind"] == "ruin"
    )
    assert alice.locator("[data-objective]").count() == len(state["objectives"])
    for objective in state["objectives"]:
        marker = alice.locator(f"[data-objective='{objective['id']}']")
        assert marker.get_attribute("data-controller") == str(objective["controller"] or "")

    on_table = [
        (unit, model)
        for unit in state["units"].values()
        if unit["location"] == "battlefield"
        for model in unit["models"]
        if model["wounds_left"] > 0
    ]
    assert alice.locator("[data-board] .model").count() == len(on_table)
    unit, model = on_table[0]
    glyph = alice.locator(f"[data-model='{model['id']}']")
    assert glyph.get_attribute("transform") == f"translate({model['x']} {model['y']})"
    assert f"player-{unit['player']}" in glyph.get_attribute("class")
    if model["base"]["shape"] == "round":
        radius = float(glyph.locator("circle.base").get_attribute("r"))
        assert radius == pytest.approx(model["base"]["diameter_mm"] / MM / 2)
    label = alice.locator(f"[data-unit-label='{unit['id']}']")
    assert unit["name"] in label.text_content()

    tracker = alice.locator("[data-tracker]").inner_text()
    assert f"Round {state['battle_round']}" in tracker
    assert "CP" in tracker and "VP" in tracker

    save_screenshot(alice, "game-in-progress", publish=True)

    spectator = new_context("spectator").new_page()
    open_table(spectator, game_in_battle["watch"])
    assert spectator.locator("[data-board] .model").count() == len(on_table)
    assert "read-only" in spectator.locator("[data-actions]").inner_text()


def test_zoom_pan_and_the_free_ruler(game_in_battle):
    alice = game_in_battle["alice"]
    open_table(alice, f"{game_in_battle['site']}/games/{game_in_battle['id']}/")
    board = alice.locator("[data-board]")
    before = board.get_attribute("viewBox")
    alice.mouse.move(*screen_point(alice, 30, 22))
    alice.mouse.wheel(0, -400)
    zoomed = [float(v) for v in board.get_attribute("viewBox").split()]
    assert zoomed[2] < float(before.split()[2])  # narrower view: zoomed in

    # Drag on the empty table (away from models) pans the view.
    empty = (30, 20.5)
    drag_on_table(alice, empty, (33, 23.5))
    panned = [float(v) for v in board.get_attribute("viewBox").split()]
    # The view follows the table; a player whose zone is at the top sees the table turned half
    # round (their zone at the bottom), so the view box moves the other way.
    turned = -1 if board.get_attribute("data-flipped") == "true" else 1
    assert panned[0] == pytest.approx(zoomed[0] - 3 * turned, abs=0.2)
    assert panned[1] == pytest.approx(zoomed[1] - 3 * turned, abs=0.2)
    alice.click("[data-tool=fit]")

    alice.click("[data-tool=ruler]")
    drag_on_table(alice, (30, 18), (36, 26))
    distance = float(alice.locator("[data-ruler]").get_attribute("data-distance"))
    assert distance == pytest.approx(10.0, abs=0.05)
    assert alice.locator("[data-ruler] .ruler-label").text_content() == '10.0"'


def test_selecting_a_unit_shows_its_weapon_and_charge_ranges(game_in_battle):
    alice = game_in_battle["alice"]
    view = open_table(alice, f"{game_in_battle['site']}/games/{game_in_battle['id']}/")
    state = view["state"]
    unit = next(
        u
        for u in state["units"].values()
        if u["player"] == 1
        and u["location"] == "battlefield"
        and u["models"][0]["base"]["shape"] == "round"  # not a TRANSPORT's hull
    )
    model = next(m for m in unit["models"] if m["wounds_left"] > 0)
    alice.click(f"[data-model='{model['id']}']")
    assert "selected" in alice.locator(f"[data-unit-group='{unit['id']}']").get_attribute("class")

    alice.click("[data-tool=weapon-ranges]")
    # The rings show the weapons the unit's models carry (their `weapons`, R-WG-02).
    longest = max(
        w["range"]
        for m in unit["models"]
        if m["wounds_left"]
        for w in state["datasheets"][unit["parts"][m["part"]]["datasheet"]]["weapons"]
        if w["type"] == "ranged" and base_weapon_name(w["name"]) in m["weapons"]
    )
    radius = model["base"]["diameter_mm"] / MM / 2
    circles = alice.locator("[data-rings=weapons] .weapon-range circle")
    assert float(circles.first.get_attribute("r")) == pytest.approx(longest + radius)
    half = alice.locator("[data-rings=weapons] .half-range circle").first
    assert float(half.get_attribute("r")) == pytest.approx(longest / 2 + radius)

    alice.click("[data-tool=charge-range]")
    charge = alice.locator("[data-rings=charge] circle").first
    assert float(charge.get_attribute("r")) == pytest.approx(
        state["edition"]["charge_range"] + radius
    )
    save_screenshot(alice, "ranges-of-a-selected-unit", publish=True)


def test_battle_shocked_and_engaged_units_are_marked(site, site_shell, new_context):
    alice = new_context("alice").new_page()
    sign_up(alice, site, person("ione"))
    game_id, _, watch = create_game(alice)
    marked = fixture_call(site_shell, f"store_snapshot_game({game_id}, marks=True)")
    open_table(alice, f"{site}/games/{game_id}/")
    shocked = alice.locator(f"[data-unit-group='{marked['shocked']}']")
    assert "battle-shocked" in shocked.get_attribute("class")
    assert (
        "battle-shocked" in alice.locator(f"[data-unit-label='{marked['shocked']}']").text_content()
    )
    for unit_id in marked["engaged"]:
        assert "engaged" in alice.locator(f"[data-unit-group='{unit_id}']").get_attribute("class")
    engaged = alice.locator(".unit.engaged")
    assert engaged.count() == len(marked["engaged"])
    save_screenshot(alice, "battle-shocked-and-engaged")


def test_the_log_and_dice_tray_replay_the_games_events(site, site_shell, new_context):
    alice = new_context("alice").new_page()
    sign_up(alice, site, person("clio"))
    game_id, invite, watch = create_game(alice)
    stored = fixture_call(site_shell, f"store_event_log({game_id})")
    alice.goto(f"{site}/games/{game_id}/")
    show_tab(alice, "dice")
    alice.wait_for_selector("[data-dice-tray] .die")
    # The history is read from the event log in pages (static/js/history.js): wait for all.
    alice.wait_for_selector("[data-game][data-history-loading=false]")
    rolls = alice.locator("[data-dice-tray] .dice-row")
    assert rolls.count() == stored["rows"]
    first_roll = alice.locator("[data-dice-tray] .roll header").first.inner_text()
    assert "first turn roll off" in first_roll.lower()
    assert "Determine First Turn" in first_roll

    show_tab(alice, "log")
    log = alice.locator("[data-log] li[data-kind]")
    assert log.first.get_attribute("data-kind") == "game_created"  # the log goes to the start
    cited = alice.locator("[data-log] li:has(cite)")
    assert cited.count() > 0
    assert alice.locator("[data-log] li[data-kind=battle_ended]").count() == 1
    log_box = alice.locator("[data-log]")
    assert log_box.evaluate("list => list.scrollHeight > list.clientHeight")

    spectator = new_context("spectator").new_page()
    spectator.goto(watch)
    show_tab(spectator, "dice")
    spectator.wait_for_selector("[data-dice-tray] .die")
    spectator.wait_for_selector("[data-game][data-history-loading=false]")
    assert spectator.locator("[data-dice-tray] .dice-row").count() == stored["rows"]
    assert math.isfinite(stored["events"])


def test_the_dice_tray_marks_an_attacks_hits_criticals_and_rerolls(site, site_shell, new_context):
    """The engine's dice-tray records of a real attack (docs/attacks.md) as the tray shows them."""
    alice = new_context("alice").new_page()
    sign_up(alice, site, person("dione"))
    game_id, _, watch = create_game(alice)
    records = fixture_call(site_shell, f"store_attack_records({game_id})")["records"]
    hits = next(r for r in records if r["step"] == "hit_roll")
    spectator = new_context("spectator").new_page()
    spectator.goto(watch)
    show_tab(spectator, "dice")
    tray = spectator.locator("[data-dice-tray] [data-step=hit_roll]")
    tray.locator(".die").first.wait_for()
    assert tray.locator(".die").count() == len(hits["dice"])
    assert tray.locator(".die.critical").count() == hits["criticals"]
    assert tray.locator(".die.rerolled").count() == len(hits["rerolled"])
    assert tray.locator(".die.fail").count() == sum(1 for d in hits["dice"] if d < hits["target"])
    assert hits["summary"] in tray.inner_text()
    assert hits["rule"] in tray.locator("cite").inner_text()
    for step in ("wound_roll", "save_roll", "damage"):
        record = next(r for r in records if r["step"] == step)
        shown = spectator.locator(f"[data-dice-tray] [data-step={step}]")
        assert record["summary"] in shown.inner_text()
    save_screenshot(spectator, "dice-tray-attack", publish=True)


PINCH = """([x, y, spread]) => {
    const board = document.querySelector("[data-board]");
    const fire = (type, id, px) => board.dispatchEvent(new PointerEvent(type, {
        pointerId: id, pointerType: "touch", isPrimary: id === 1, clientX: px, clientY: y,
        bubbles: true, cancelable: true}));
    fire("pointerdown", 1, x - 20);
    fire("pointerdown", 2, x + 20);
    fire("pointermove", 1, x - 20 - spread);
    fire("pointermove", 2, x + 20 + spread);
    fire("pointerup", 1, x - 20 - spread);
    fire("pointerup", 2, x + 20 + spread);
}"""


def test_on_a_tablet_the_table_fills_the_screen_and_pinches(game_in_battle, new_context):
    tablet = new_context("tablet", viewport={"width": 820, "height": 1180}, has_touch=True)
    page = tablet.new_page()
    page.goto(game_in_battle["watch"])
    page.wait_for_selector("[data-board] .model")
    board = page.locator("[data-board]").bounding_box()
    actions = page.locator("[data-actions]").bounding_box()
    assert board["width"] > 700  # the board takes the width; the panel goes below it
    assert actions["y"] >= board["y"] + board["height"]

    before = float(page.locator("[data-board]").get_attribute("viewBox").split()[2])
    x, y = screen_point(page, 30, 20.5)
    page.evaluate(PINCH, [x, y, 60])
    after = float(page.locator("[data-board]").get_attribute("viewBox").split()[2])
    assert after < before * 0.8  # fingers apart: zoomed in

    page.tap("[data-tool=fit]")
    state = page_view(page)["state"]
    unit = next(u for u in state["units"].values() if u["location"] == "battlefield")
    model = next(m for m in unit["models"] if m["wounds_left"] > 0)
    page.tap(f"[data-model='{model['id']}']")
    assert unit["name"] in page.locator("[data-selection]").inner_text()
    save_screenshot(page, "tablet-spectator")


def test_at_the_end_the_winner_and_victory_points_are_shown(site, site_shell, new_context):
    alice = new_context("alice").new_page()
    sign_up(alice, site, person("pheme"))
    game_id, _, watch = create_game(alice)
    # Self-play game 2 ends with a winner and units still on the battlefield to draw.
    fixture_call(site_shell, f"store_snapshot_game({game_id}, stop=f.battle_over, number=2)")
    spectator = new_context("spectator").new_page()
    view = open_table(spectator, watch)
    state = view["state"]
    assert state["stage"] == "ended"
    result = spectator.locator("[data-tracker] [data-result]")
    vp = f"{state['players']['1']['vp']}–{state['players']['2']['vp']} VP"
    assert vp in result.inner_text()
    if state["winner"]:
        # Seat 1 is alice's (named with her seat), nobody joined seat 2 ("Player 2").
        winner = state["winner"]
        who = f"(P{winner})" if winner == 1 else f"Player {winner}"
        assert f"{who} wins" in result.inner_text()
    else:
        assert "draw" in result.inner_text()
