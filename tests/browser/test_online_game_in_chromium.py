"""A whole opening of an online game in real Chromium: two players and a spectator.

Mustering -> deployment -> first turn -> a first move -> a refused move with its reason beside the
model -> a shooting attack whose dice all three see -> a stratagem prompt answered. Screenshots of
every step go to test-artifacts/.

This test speaks the game protocol of docs/protocol.md as extended by the game flow (`hello` with
`state` and `legal_actions`, `action` answered by `accepted`/`refused`, `events` broadcast with the
state), so it needs the `matches` branch (game flow), the attack sequence in the game (`combat`)
and stratagem windows (`stratagems`) merged.
"""

import json

import pytest

from tests.browser.table_helpers import (
    centre_on,
    deploy_one,
    drag_on_table,
    fixture_call,
    join_game,
    page_view,
    person,
    save_screenshot,
    screen_point,
    show_tab,
)

pytestmark = pytest.mark.browser
STEP_TIMEOUT = 15_000


def wait_for_server(page, predicate: str, timeout: int = STEP_TIMEOUT):
    """Wait until `predicate` (JS over `v` = what the page was last told) holds."""
    page.wait_for_function(
        f"() => {{ const v = strategium.view; return {predicate}; }}", timeout=timeout
    )


def acting(players: dict):
    """The seat and page of the player with legal actions now (the server says who)."""
    for seat, page in players.items():
        if page_view(page)["legal"]:
            return seat, page
    return None, None


def wait_for_someone_to_act(players: dict, timeout: int = STEP_TIMEOUT):
    for page in players.values():
        page.wait_for_function(
            "() => strategium.view.state && strategium.view.sent.size === 0", timeout=timeout
        )
    for _ in range(timeout // 250):
        seat, page = acting(players)
        if page is not None:
            return seat, page
        players[1].wait_for_timeout(250)
    raise AssertionError("nobody may act")


def muster(page, army_name: str) -> None:
    """Pick the saved army for this game (before the engine state exists)."""
    form = page.locator("[data-muster]")
    assert form.count(), "the game page has no army choice: this test needs the matches branch"
    form.locator("select").select_option(label=army_name)
    form.locator("button[type=submit], button[data-action=muster]").first.click()


def unit_centre(state: dict, unit_id: str) -> tuple[float, float]:
    models = [m for m in state["units"][unit_id]["models"] if m["wounds_left"] > 0]
    return (
        sum(m["x"] for m in models) / len(models),
        sum(m["y"] for m in models) / len(models),
    )


def answer_decisions(players: dict, seen: list, until: str, limit: int = 40) -> None:
    """Answer every pending decision the server puts to a player (first option offered) until the
    JS condition `until` holds for the acting player's view."""
    for _ in range(limit):
        seat, page = wait_for_someone_to_act(players)
        if page.evaluate(f"() => {{ const v = strategium.view; return {until}; }}"):
            return
        decision = page.locator("[data-actions] .decision")
        if decision.count() == 0:
            return
        seen.append(decision.get_attribute("data-decision"))
        save_screenshot(page, f"online-game-decision-{len(seen)}")
        answers = decision.locator("button[data-action=decide]")
        assert answers.count(), f"a {seen[-1]} decision with no answer to click: {page_view(page)}"
        answers.first.click()
        page.wait_for_function("() => strategium.view.sent.size === 0", timeout=STEP_TIMEOUT)
    raise AssertionError(f"decisions never ended: {seen}")


def test_two_players_and_a_spectator_play_the_opening(site, site_shell, new_context):
    alice, bob = new_context("alice").new_page(), new_context("bob").new_page()
    alice_name, bob_name = person("alice"), person("bob")
    game = join_game(alice, bob, site, (alice_name, bob_name))
    game_id, watch = game["id"], game["watch"]
    spectator = new_context("spectator").new_page()
    spectator.goto(watch)
    players = {1: alice, 2: bob}
    everyone = [alice, bob, spectator]

    # Mustering: each player picks a saved army for this game.
    # Detachments whose stratagems answer "an enemy unit has selected its targets" in the
    # Shooting phase (Additional Armour, Truesilver Armour): whoever shoots, a window opens.
    detachments = {"astra-militarum": "grizzled-company", "grey-knights": "teleport-strike-force"}
    armies = fixture_call(
        site_shell,
        f"store_saved_armies({[alice_name, bob_name]!r}, detachments={detachments!r})",
    )
    for page, name in ((alice, alice_name), (bob, bob_name)):
        page.goto(f"{site}/games/{game_id}/")
        save_screenshot(page, f"online-game-mustering-{name}")
        muster(page, armies[name]["name"])
    for page in everyone:
        wait_for_server(page, "v.state !== null")
    save_screenshot(alice, "online-game-mustered", publish=False)

    # Strategic reserves: nobody keeps units back.
    while True:
        seat, page = wait_for_someone_to_act(players)
        if page_view(page)["state"]["stage"] != "declare_reserves":
            break
        page.click("[data-action=declare_reserves]")
        page.wait_for_function("() => strategium.view.sent.size === 0", timeout=STEP_TIMEOUT)

    # Deployment: alternate, dragging each unit's formation into place.
    placed = {1: 0, 2: 0}
    while True:
        seat, page = wait_for_someone_to_act(players)
        if not any(a["type"] == "deploy" for a in page_view(page)["legal"]):
            break
        deploy_one(seat, page, placed)
    for page in everyone:
        wait_for_server(page, "v.state.stage !== 'deployment'")
    save_screenshot(spectator, "online-game-deployed")

    # First turn: the roll-off winner chooses; then to the first Movement phase.
    decisions = []
    answer_decisions(players, decisions, until="v.state.stage === 'battle'")
    seat, page = wait_for_someone_to_act(players)
    # Until the first Movement phase, with no decision (e.g. a stratagem window) left open.
    while (
        page_view(page)["state"]["phase"] != "movement"
        or page.locator("[data-actions] .decision").count()
    ):
        if page.locator("[data-actions] .decision").count():
            answer_decisions(players, decisions, until="!v.state.pending.length")
        else:
            page.click("[data-action=end_phase]")
            page.wait_for_function("() => strategium.view.sent.size === 0", timeout=STEP_TIMEOUT)
        seat, page = wait_for_someone_to_act(players)
    # Start-of-phase stratagem windows (Order the Advance, ...) are answered first.
    answer_decisions(players, decisions, until="!v.state.pending.length")
    seat, page = wait_for_someone_to_act(players)
    mover, mover_seat = page, seat

    # A first move: drag the whole unit 3" towards the enemy; all three see it move.
    view = page_view(mover)
    moves = [a for a in view["legal"] if a["type"] == "move"]
    assert moves, view["legal"]
    unit_id = moves[0]["unit"]
    mover.click(f"[data-select-unit='{unit_id}']")
    state = view["state"]
    model = next(m for m in state["units"][unit_id]["models"] if m["wounds_left"] > 0)
    forward = 3 if mover_seat == 1 else -3
    centre_on(mover, model["x"], model["y"] + forward / 2)
    mover.mouse.move(*screen_point(mover, model["x"], model["y"]))
    mover.mouse.down()
    mover.mouse.move(*screen_point(mover, model["x"], model["y"] + forward), steps=6)
    # While dragging: each model's distance, the maximum move and engagement range are drawn.
    assert mover.locator("[data-model-distance]").count() > 0
    assert mover.locator("[data-rings=move] circle").count() > 0
    assert mover.locator("[data-rings=engagement]").count() == 1
    save_screenshot(mover, "online-game-dragging")
    mover.mouse.up()
    for page in everyone:
        show_tab(page, "log")
        page.wait_for_selector(
            "[data-log] li[data-kind=unit_moved]", state="attached", timeout=STEP_TIMEOUT
        )
        wait_for_server(
            page,
            f"Math.abs(v.state.units['{unit_id}'].models.find(m => m.id === '{model['id']}').y"
            f" - {model['y'] + forward}) < 0.01",
        )

    # A refused move: 20" is too far; the models snap back and the reason shows beside them.
    view = page_view(mover)
    moves = [a for a in view["legal"] if a["type"] == "move"]
    assert moves, "a second unit to move"
    other = moves[0]["unit"]
    mover.click(f"[data-select-unit='{other}']")
    other_model = next(m for m in view["state"]["units"][other]["models"] if m["wounds_left"] > 0)
    drag_on_table(
        mover,
        (other_model["x"], other_model["y"]),
        (other_model["x"], other_model["y"] + (20 if mover_seat == 1 else -20)),
    )
    note = mover.locator("[data-note]")
    note.wait_for(timeout=STEP_TIMEOUT)
    assert note.get_attribute("data-note")  # the refusal's code
    assert mover.locator("[data-error]").inner_text()
    glyph = mover.locator(f"[data-model='{other_model['id']}']")
    assert glyph.get_attribute("transform") == f"translate({other_model['x']} {other_model['y']})"
    save_screenshot(mover, "online-game-refused-move", publish=True)

    # To the Shooting phase, and a shooting attack at the nearest visible enemy.
    # Stratagem windows at the end and start of phases are answered by whoever is asked.
    mover.click("[data-action=end_phase]")
    mover.wait_for_function("() => strategium.view.sent.size === 0", timeout=STEP_TIMEOUT)
    answer_decisions(players, decisions, until="!v.state.pending.length")
    wait_for_server(mover, "v.state.phase === 'shooting' && !v.state.pending.length")
    shots = [a for a in page_view(mover)["legal"] if a["type"] == "shoot"]
    assert shots, "a unit with a target in range"
    shooter = shots[0]["unit"]
    mover.click(f"[data-select-unit='{shooter}']")
    # The panel shows the engine's default assignment, one row per weapon, and sends it as it is.
    for assignment in shots[0]["default_assignments"]:
        weapon = json.dumps(assignment["weapon"], ensure_ascii=False)  # a CSS string
        row = mover.locator(f"[data-targets-for=shoot] select[data-assignment={weapon}]")
        assert row.input_value() == assignment["target"]
    mover.click("[data-targets-for=shoot] button[data-action=shoot]")
    mover.wait_for_function("() => strategium.view.sent.size === 0", timeout=STEP_TIMEOUT)
    show_tab(mover, "log")
    mover.wait_for_selector(
        "[data-log] li[data-kind=targets_selected]", state="attached", timeout=STEP_TIMEOUT
    )

    # Stratagem windows and re-rolls along the way are answered by whoever is asked.
    answer_decisions(
        players, decisions, until="v.state.phase !== 'shooting' || !v.state.pending.length"
    )
    assert any("stratagem" in (kind or "") for kind in decisions), decisions

    for page in everyone:
        show_tab(page, "dice")
        page.wait_for_selector("[data-dice-tray] [data-step=hit_roll] .die", timeout=STEP_TIMEOUT)
    trays = [page.locator("[data-dice-tray]").inner_text() for page in everyone]
    assert trays[0] == trays[1] == trays[2]  # everyone saw the same dice
    for name, page in zip(("alice", "bob", "spectator"), everyone, strict=True):
        save_screenshot(page, f"online-game-shooting-{name}", publish=name == "spectator")
