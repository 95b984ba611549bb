"""Close combat moves and turning models in real Chromium, against the server's engine.

11e Fight phase (12.02-12.08): the fighting unit is selected and its models dragged (the whole
unit, or one model) with the 3" ring of the move, engagement range and each model's distance
drawn; on release or "Confirm move" the `pile_in` / `consolidate` action `legal_actions` offers
is sent; a refused move snaps back with the server's reason. Rotation is free (11e 03.01): a model
turned by its handle or the [ and ] keys keeps its facing in the move it is sent with, and every
watcher sees it. The positions are set up server-side by tests/browser/table_fixtures.py.
"""

import pytest

from tests.browser.table_helpers import (
    centre_on,
    drag_on_table,
    fixture_call,
    open_game,
    page_view,
    players_in_a_game,
    save_screenshot,
    screen_point,
    show_tab,
)

pytestmark = pytest.mark.browser
TIMEOUT = 15_000


@pytest.fixture
def two_players(site, new_context):
    return players_in_a_game(site, new_context, ("hector", "ajax"))


def model_at(page, unit_id: str, model_id: str, x: float, y: float) -> None:
    """Wait until the page was told that the model stands at (x, y)."""
    page.wait_for_function(
        f"""() => {{
            const m = strategium.view.state.units['{unit_id}'].models
                .find((m) => m.id === '{model_id}');
            return Math.abs(m.x - {x}) < 0.01 && Math.abs(m.y - {y}) < 0.01;
        }}""",
        timeout=TIMEOUT,
    )


def body_rotation(page, model_id: str) -> float:
    transform = page.locator(f"[data-board] .model[data-model='{model_id}'] > g").first
    return float(transform.get_attribute("transform").removeprefix("rotate(").rstrip(")"))


def test_pile_in_by_dragging_a_refused_move_snaps_back_and_one_model_piles_in(
    two_players, site_shell, new_context
):
    site, alice, bob = two_players["site"], two_players["alice"], two_players["bob"]
    placed = fixture_call(site_shell, f"store_close_combat_game({two_players['id']})")
    assert placed["player"] == 1
    unit = placed["unit"]
    view = open_game(alice, f"{site}/games/{two_players['id']}/")
    template = next(a for a in view["legal"] if a["type"] == "pile_in")
    assert template["unit"] == unit and template["max_distance"] == 3
    open_game(bob, f"{site}/games/{two_players['id']}/")
    spectator = new_context("spectator").new_page()
    open_game(spectator, two_players["watch"])

    # Zoomed in on the combat (pointer positions below follow the view).
    alice.evaluate(
        "([x, y]) => strategium.panZoom.zoomAt(x, y, 2.2)", list(screen_point(alice, 39, 23))
    )
    alice.click(f"[data-select-unit='{unit}']")
    assert alice.locator("[data-move-hint=pile_in]").count() == 1
    assert alice.locator("[data-action=end_step]").inner_text() == "End pile-in moves"

    # The whole unit dragged 1" away from the enemy: while dragging, the 3" ring of the pile-in
    # move, engagement range and each model's distance; on release the server refuses.
    first, x, y = placed["models"][0]
    centre_on(alice, x, y)
    alice.mouse.move(*screen_point(alice, x, y))
    alice.mouse.down()
    alice.mouse.move(*screen_point(alice, x, y - 1), steps=5)
    rings = alice.locator("[data-rings=move] circle")
    assert rings.count() == len(placed["models"])
    assert float(rings.first.get_attribute("r")) == pytest.approx(3)
    enemies = [
        m
        for u in view["state"]["units"].values()
        if u["player"] == 2 and u["location"] == "battlefield"
        for m in u["models"]
        if m["wounds_left"] > 0
    ]
    assert alice.locator("[data-rings=engagement] circle").count() == len(enemies)
    distance = alice.locator(f"[data-model-distance='{first}'] .ruler-label")
    assert distance.text_content() == '1.0"'
    save_screenshot(alice, "pile-in-dragging")
    alice.mouse.up()
    note = alice.locator("[data-note]")
    note.wait_for(timeout=TIMEOUT)
    # The first model started engaged with the Terminators: 12.03 "must still be engaged".
    assert note.get_attribute("data-note") == "left_engagement"
    assert "12.03" in alice.inner_text("[data-error]")
    glyph = alice.locator(f"[data-model='{first}']")
    glyph_at = glyph.get_attribute("transform").removeprefix("translate(").rstrip(")").split()
    assert [float(v) for v in glyph_at] == [x, y]  # snapped back
    save_screenshot(alice, "pile-in-refused", publish=True)

    # One model piles in half an inch towards the Terminators, then the move is confirmed.
    alice.click("[data-tool=single-model]")
    drag_on_table(alice, (x, y), (x, y + 0.5))
    assert alice.locator("[data-model-distance]").count() == 1
    alice.click("[data-action=confirm-positions]")
    for page in (alice, bob, spectator):
        model_at(page, unit, first, x, y + 0.5)
        show_tab(page, "log")
        page.wait_for_selector(
            "[data-log] li[data-kind=unit_moved]", state="attached", timeout=TIMEOUT
        )
    others = placed["models"][1:]
    moved_state = page_view(bob)["state"]["units"][unit]["models"]
    assert all(
        (m["x"], m["y"]) == (ox, oy)
        for m in moved_state
        for mid, ox, oy in others
        if m["id"] == mid
    )
    # The unit has piled in: the server offers it no second pile-in move.
    alice.wait_for_function(
        "() => !strategium.view.legalActions.some((a) => a.type === 'pile_in')", timeout=TIMEOUT
    )


def test_a_unit_that_fought_consolidates_one_model_by_dragging(two_players, site_shell):
    """With seed 3 the Terminators' attacks leave the Cadians' Castellan alone, engaged with
    them; after both units fought, the Castellan consolidates half an inch towards the nearest
    Terminator (11e 12.07-12.08), and the other player sees it."""
    site, alice, bob = two_players["site"], two_players["alice"], two_players["bob"]
    placed = fixture_call(
        site_shell, f"store_close_combat_game({two_players['id']}, step='consolidate')"
    )
    assert placed["half_inch_closer"], "a consolidation move the server accepts"
    mover, watcher = (alice, bob) if placed["player"] == 1 else (bob, alice)
    model, x, y = placed["half_inch_closer"]
    start = next(m for m in placed["models"] if m[0] == model)
    view = open_game(mover, f"{site}/games/{two_players['id']}/")
    template = next(a for a in view["legal"] if a["type"] == "consolidate")
    open_game(watcher, f"{site}/games/{two_players['id']}/")
    unit = template["unit"]
    mover.click(f"[data-select-unit='{unit}']")
    assert mover.locator("[data-move-hint=consolidate]").count() == 1
    assert mover.locator("[data-action=end_step]").inner_text() == "End consolidation moves"
    mover.click("[data-tool=single-model]")
    drag_on_table(mover, (start[1], start[2]), (x, y))
    distance = mover.locator(f"[data-model-distance='{model}'] .ruler-label")
    assert distance.text_content() == '0.5"'
    mover.click("[data-action=confirm-positions]")
    for page in (mover, watcher):
        model_at(page, unit, model, x, y)
    assert not mover.locator("[data-note]").count()
    save_screenshot(watcher, "consolidated")


def test_a_vehicle_turned_by_keys_and_its_handle_is_seen_turned_by_both_players(
    two_players, site_shell
):
    site, alice, bob = two_players["site"], two_players["alice"], two_players["bob"]
    chimera = fixture_call(site_shell, f"store_vehicle_to_turn({two_players['id']})")
    unit, model = chimera["unit"], chimera["model"]
    open_game(alice, f"{site}/games/{two_players['id']}/")
    open_game(bob, f"{site}/games/{two_players['id']}/")
    assert alice.locator(f"[data-model='{model}'] rect.base").count() == 1  # a hull, not a disc

    alice.click(f"[data-select-unit='{unit}']")
    handle = alice.locator(f"[data-turn='{model}']")
    assert handle.get_attribute("data-facing") == "0"
    centre_on(alice, chimera["x"], chimera["y"])
    for _ in range(6):
        alice.keyboard.press("]")
    assert body_rotation(alice, model) == pytest.approx(90)
    assert handle.get_attribute("data-facing") == "90"

    # The handle now points down the table; dragged round a quarter turn, the hull faces 180°.
    box = alice.locator(f"[data-turn='{model}'] circle").bounding_box()
    alice.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    alice.mouse.down()
    reach = 3.5
    alice.mouse.move(*screen_point(alice, chimera["x"] - reach * 0.7, chimera["y"] + reach * 0.7))
    alice.mouse.move(*screen_point(alice, chimera["x"] - reach, chimera["y"]), steps=4)
    alice.mouse.up()
    assert body_rotation(alice, model) == pytest.approx(180, abs=2)
    save_screenshot(alice, "vehicle-turned")

    alice.click("[data-action=confirm-positions]")
    for page in (alice, bob):
        page.wait_for_function(
            f"""() => {{
                const m = strategium.view.state.units['{unit}'].models[0];
                return Math.abs(m.facing - 180) < 2;
            }}""",
            timeout=TIMEOUT,
        )
    assert body_rotation(bob, model) == pytest.approx(180, abs=2)
    state = page_view(bob)["state"]["units"][unit]["models"][0]
    assert (state["x"], state["y"]) == (chimera["x"], chimera["y"])  # turned, not moved


def test_each_rider_chooses_its_melee_weapon_and_the_preview_follows(two_players, site_shell):
    """11e 04.01, 24.11: every Death Rider carries a frag lance and a power sabre and fights with
    one of them (plus its steed's claws). The fight panel starts from the engine's default (the
    lance), lists the choice per rider, previews the attacks as chosen and sends them."""
    site, bob = two_players["site"], two_players["bob"]
    scene = fixture_call(site_shell, f"store_melee_choice_game({two_players['id']})")
    open_game(bob, f"{site}/games/{two_players['id']}/")
    bob.click(f"[data-select-unit='{scene['unit']}']")
    editor = bob.locator(f"[data-melee-for='{scene['unit']}']")
    editor.wait_for(timeout=TIMEOUT)
    choices = editor.locator("select[data-melee-model]")
    assert choices.count() == len(scene["choices"]) == 5
    assert {choices.nth(i).input_value() for i in range(5)} == {"Frag lance"}
    assert "Ridemaster:" in editor.inner_text()
    fight = bob.locator("button[data-action=fight]").first.bounding_box()
    panel = bob.locator("[data-actions]").bounding_box()
    assert fight["y"] + fight["height"] <= panel["y"] + panel["height"]  # in sight
    target = f"[data-preview] [data-preview-target='{scene['enemy']}']"
    bob.wait_for_selector(target, timeout=TIMEOUT)
    lances = bob.locator(target).inner_text()
    assert (
        editor.locator("[data-melee-weapon='Frag lance']")
        .inner_text()
        .startswith("Frag lance ×5 at Strike Squad")
    )

    for rider in (0, 1):
        editor.locator("select[data-melee-model]").nth(rider).select_option("Power sabre")
    assert "Power sabre ×2" in editor.locator("[data-melee-weapon='Power sabre']").inner_text()
    assert "Frag lance ×3" in editor.locator("[data-melee-weapon='Frag lance']").inner_text()
    bob.wait_for_function(
        f"""(before) => {{
            const shown = document.querySelector("{target}");
            return shown && shown.innerText !== before;
        }}""",
        arg=lances,
        timeout=TIMEOUT,
    )
    save_screenshot(bob, "fight-panel-weapon-choice", publish=True)

    bob.click("button[data-action=fight]")
    bob.wait_for_function("() => strategium.view.sent.size === 0", timeout=TIMEOUT)
    sent = fixture_call(site_shell, f"last_action({two_players['id']})")
    weapons = {row["weapon"]: len(row["models"]) for row in sent["assignments"]}
    assert weapons["Power sabre"] == 2 and weapons["Frag lance"] == 3
