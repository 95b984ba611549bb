"""The engine's Orders, unit selections and out-of-sequence moves in real Chromium.

The page decides nothing: it shows what `legal_actions` and the pending decision offer, in words
(static/js/describe.js), and sends the player's pick. Positions are set up server-side by
tests/browser/table_fixtures.py with the whole engine state, so the server plays on from them.
"""

import ast
import re

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
from tests.engine_snapshot import ENGINE, _module_strings

pytestmark = pytest.mark.browser
TIMEOUT = 15_000


@pytest.fixture
def two_players(site, new_context):
    return players_in_a_game(site, new_context, ("lucius", "ursula"))


def test_an_order_is_issued_from_the_orders_control_and_both_players_see_it(
    two_players, site_shell
):
    """Voice of Command: the Order and the unit are picked in one control (the units the Order
    can go to ringed on the board), not one button per {officer, order, unit}."""
    alice, bob = two_players["alice"], two_players["bob"]
    offered = fixture_call(site_shell, f"store_orders_game({two_players['id']})")["orders"]
    take_aim = next(o for o in offered if o["order"] == "take-aim")
    open_game(alice, two_players["url"])
    open_game(bob, two_players["url"])

    control = alice.locator("[data-orders]")
    orders = control.locator("[data-order-field=order] option")
    assert orders.count() == len({o["order"] for o in offered})
    assert "Take Aim!" in control.locator("[data-order-field=order]").inner_text()
    assert not alice.locator("text=Other actions").count()
    assert alice.locator("button[data-action=issue_order]").count() == 1
    control.locator("[data-order-field=order]").select_option("take-aim")
    unit = take_aim["unit"]
    assert control.locator("[data-order-field=unit]").input_value() == unit
    ringed = alice.locator("[data-board] .unit.eligible")
    assert ringed.count() == len({o["unit"] for o in offered if o["order"] == "take-aim"})
    assert ringed.first.get_attribute("data-unit-group") == unit
    save_screenshot(alice, "orders-control")
    control.locator("[data-action=issue_order]").click()

    name = page_view(alice)["state"]["units"][unit]["name"]
    for page in (alice, bob):
        show_tab(page, "log")
        line = page.locator("[data-log] li[data-kind=order_issued]")
        line.wait_for(state="attached", timeout=TIMEOUT)
        assert f"issues Take Aim! to {name}" in line.inner_text()
    assert not alice.locator("[data-error]").inner_text()


def test_grand_strategist_selects_a_unit_and_redeploys_it_into_strategic_reserves(
    two_players, site_shell
):
    """A `select_units` decision (Grand Strategist: up to two units) shows the units by name and
    rings them on the board; the pick is followed by the `redeploy_unit` decision, whose
    template offers Strategic Reserves beside dragging the unit."""
    alice, bob = two_players["alice"], two_players["bob"]
    stored = fixture_call(site_shell, f"store_grand_strategist_game({two_players['id']})")
    unit = next(o for o in stored["decision"]["options"] if o != "done")
    view = open_game(alice, two_players["url"])
    open_game(bob, two_players["url"])
    name = view["state"]["units"][unit]["name"]

    box = alice.locator("[data-decision=select_units]")
    assert "Grand Strategist: select a unit" in box.inner_text()
    assert box.locator("cite").inner_text() == "Grand Strategist"
    pick = box.locator(f"[data-option-unit='{unit}']")
    assert pick.inner_text() == name
    assert box.locator("[data-choice=done]").inner_text() == "Done"
    assert alice.locator(f"[data-board] [data-unit-group='{unit}'].eligible").count() == 1
    save_screenshot(alice, "select-units")
    pick.click()

    redeploy = alice.locator("[data-decision=redeploy_unit]")
    redeploy.wait_for(timeout=TIMEOUT)
    assert name in redeploy.inner_text()
    redeploy.locator("[data-choice=strategic_reserves]").click()
    for page in (alice, bob):
        show_tab(page, "log")
        line = page.locator("[data-log] li[data-kind=unit_redeployed]")
        line.wait_for(state="attached", timeout=TIMEOUT)
        assert f"{name} is redeployed into Strategic Reserves" in line.inner_text()
    alice.wait_for_function(
        f"() => strategium.view.state.units['{unit}'].location === 'strategic_reserves'",
        timeout=TIMEOUT,
    )


def test_a_normal_move_out_of_sequence_is_dragged_and_the_opponent_sees_it(two_players, site_shell):
    """`normal_move` (Burst of Speed and the other "Normal move of up to X"" rules): the unit is
    dragged like a move and sent on release as the decision's answer; "No move" is offered."""
    alice, bob = two_players["alice"], two_players["bob"]
    stored = fixture_call(site_shell, f"store_normal_move_game({two_players['id']})")
    assert stored["shift"], "a 2-inch shift the server accepts"
    assert [a["choice"] for a in stored["legal"]] == ["positions", None]
    open_game(alice, two_players["url"])
    open_game(bob, two_players["url"])
    box = alice.locator("[data-decision=normal_move]")
    assert 'Normal move of up to 6"' in box.inner_text()
    assert box.locator("[data-choice=null]").inner_text() == "No move"
    assert box.locator("[data-positions-for=normal_move]").count() == 1

    unit = stored["unit"]
    first, x, y = stored["models"][0]
    dx, dy = stored["shift"]
    drag_on_table(alice, (x, y), (x + dx, y + dy))
    for page in (alice, bob):
        page.wait_for_function(
            f"""() => {{
                const m = strategium.view.state.units['{unit}'].models
                    .find((m) => m.id === '{first}');
                return Math.abs(m.x - {x + dx}) < 0.01 && Math.abs(m.y - {y + dy}) < 0.01;
            }}""",
            timeout=TIMEOUT,
        )
        show_tab(page, "log")
        line = page.locator("[data-log] li[data-kind=unit_moved]").last
        assert "(burst of speed)" in line.inner_text().lower()
    assert not alice.locator("[data-decision=normal_move]").count()
    save_screenshot(bob, "normal-move-seen")


def test_at_all_costs_is_answered_by_clicking_the_enemy_unit_and_both_players_see_it(
    two_players, site_shell
):
    """An `ability_choice` decision (At all Costs, start of the Command phase): the options in
    words ("Eliminate <unit>", "Acquire objective o1", "Pass"), the enemy units ringed on the
    board; clicking one answers the decision, and the log says what was chosen."""
    alice, bob = two_players["alice"], two_players["bob"]
    decision = fixture_call(site_shell, f"store_at_all_costs_game({two_players['id']})")["decision"]
    view = open_game(alice, two_players["url"])
    open_game(bob, two_players["url"])
    target = next(o["eliminate"] for o in decision["options"] if "eliminate" in o)
    name = view["state"]["units"][target]["name"]

    box = alice.locator("[data-decision=ability_choice]")
    assert "At All Costs: choose, or pass." in box.inner_text()
    buttons = box.locator("button").all_inner_texts()
    assert f"Eliminate {name}" in buttons
    assert "Acquire objective o1" in buttons and "Pass" in buttons
    assert not any("{" in text for text in buttons)
    ringed = alice.locator(f"[data-board] [data-unit-group='{target}'].eligible")
    assert ringed.count() == 1
    save_screenshot(alice, "ability-choice")
    ringed.locator(".model").first.click()

    for page in (alice, bob):
        show_tab(page, "log")
        line = page.locator("[data-log] li[data-kind=ability_used]")
        line.wait_for(state="attached", timeout=TIMEOUT)
        assert f"uses At All Costs: Eliminate {name}" in line.inner_text()
    assert not alice.locator("[data-decision=ability_choice]").count()


def test_the_fight_types_the_template_lists_are_buttons_and_the_pick_is_sent(
    two_players, site_shell
):
    """11e 12.04: the `fight` template's `fight_types` become buttons ("Fight (normal)",
    "Overrun fight"); the one clicked is sent as `fight_type` and both players read it in the
    log. (The Cadians and Terminators of the close-combat position, at the Fight step.)"""
    alice, bob = two_players["alice"], two_players["bob"]
    placed = fixture_call(site_shell, f"store_close_combat_game({two_players['id']}, step='fight')")
    mover, watcher = (alice, bob) if placed["player"] == 1 else (bob, alice)
    view = open_game(mover, two_players["url"])
    open_game(watcher, two_players["url"])
    template = next(a for a in view["legal"] if a["type"] == "fight")
    assert template["fight_types"] == ["normal"]
    mover.click(f"[data-select-unit='{template['unit']}']")
    buttons = mover.locator("[data-action=fight]")
    assert buttons.all_inner_texts() == ["Fight (normal)"]
    assert not mover.locator("[data-move-hint=fight]").count()  # no overrun: no pile-in
    # The panel previews the melee attacks at the unit it is engaged with (issue 15).
    mover.locator("[data-preview] [data-chart]").first.wait_for(timeout=TIMEOUT)
    assert "models destroyed" in mover.locator("[data-preview]").inner_text()
    buttons.first.click()
    name = view["state"]["units"][template["unit"]]["name"]
    for page in (mover, watcher):
        show_tab(page, "log")
        line = page.locator("[data-log] li[data-kind=fight_type_selected]")
        line.wait_for(state="attached", timeout=TIMEOUT)
        assert f"{name} makes a normal fight" in line.inner_text()


def test_a_destroyed_model_returns_by_dragging_its_ghost(two_players, site_shell):
    """Apothecary's Narthecium (`return_destroyed_model`): the destroyed model's ghost base
    appears beside its unit as soon as the decision arrives; dragged into coherency it is sent
    as `{model: [x, y, facing]}`, and both players see the model back."""
    alice, bob = two_players["alice"], two_players["bob"]
    stored = fixture_call(site_shell, f"store_narthecium_game({two_players['id']})")
    assert stored["spot"], "a spot the server accepts"
    open_game(bob, two_players["url"])
    open_game(alice, two_players["url"])
    box = bob.locator("[data-decision=return_destroyed_model]")
    assert "Drag the ghost of" in box.inner_text()
    # The prompt in the page's words, not the protocol's ("[x, y, facing]", "null"); the other
    # player's tracker says who decides what, in the third person.
    mine, theirs = box.inner_text(), alice.inner_text("[data-tracker]")
    assert "Return a destroyed model to" in mine, mine
    assert "may return a destroyed model to" in theirs, theirs
    for said in (mine, theirs):
        assert "null" not in said and "[x, y" not in said, said
    ghost = bob.locator(f"[data-board] .model.ghost[data-model='{stored['model']}']")
    assert ghost.count() == 1
    save_screenshot(bob, "narthecium-ghost")
    drag_on_table(bob, tuple(stored["ghost"]), tuple(stored["spot"]))
    x, y = stored["spot"]
    for page in (alice, bob):
        page.wait_for_function(
            f"""() => {{
                const m = strategium.view.state.units['{stored["unit"]}'].models
                    .find((m) => m.id === '{stored["model"]}');
                return m.wounds_left > 0 && Math.abs(m.x - {x}) < 0.05
                    && Math.abs(m.y - {y}) < 0.05;
            }}""",
            timeout=TIMEOUT,
        )
        show_tab(page, "log")
        page.locator("[data-log] li[data-kind=model_returned]").wait_for(
            state="attached", timeout=TIMEOUT
        )
    assert not bob.locator("[data-board] .model.ghost").count()


def test_a_flying_unit_takes_to_the_skies_when_the_player_ticks_it(two_players, site_shell):
    """11e 21.03: only a template with `can_take_to_the_skies` shows "Take to the skies"; ticked,
    the move ring is `fly_move_penalty` shorter and the dragged move carries
    `take_to_the_skies: true`."""
    alice = two_players["alice"]
    stored = fixture_call(site_shell, f"store_flying_game({two_players['id']})")
    template = stored["template"]
    assert template["can_take_to_the_skies"] and stored["shift"]
    open_game(alice, two_players["url"])
    alice.click(f"[data-select-unit='{stored['unit']}']")
    toggle = alice.locator(f"[data-take-to-the-skies='{stored['unit']}']")
    toggle.check()
    assert f'Take to the skies ({template["fly_move_penalty"]:g}" less)' in alice.inner_text(
        "[data-actions]"
    )

    first, x, y = stored["models"][0]
    dx, dy = stored["shift"]
    centre_on(alice, x, y)
    alice.mouse.move(*screen_point(alice, x, y))
    alice.mouse.down()
    alice.mouse.move(*screen_point(alice, x + dx, y + dy), steps=6)
    ring = alice.locator("[data-rings=move] circle").first
    radius = float(ring.get_attribute("r")) if ring.count() else None
    alice.mouse.up()
    alice.wait_for_function(
        f"""() => {{
            const m = strategium.view.state.units['{stored["unit"]}'].models
                .find((m) => m.id === '{first}');
            return Math.abs(m.x - {x + dx}) < 0.01 && Math.abs(m.y - {y + dy}) < 0.01;
        }}""",
        timeout=TIMEOUT,
    )
    assert radius == pytest.approx(template["max_distance"] - template["fly_move_penalty"])
    action = fixture_call(site_shell, f"last_action({two_players['id']})")
    assert action["type"] == "move" and action["take_to_the_skies"] is True


def test_a_model_dragged_over_a_ruin_ends_on_its_upper_floor_at_the_height_set(
    two_players, site_shell
):
    """11e 13.06: a model over terrain with a height gets a Height field; the height set is the
    fourth value of its position, sent with the move, and both players see it up there."""
    alice, bob = two_players["alice"], two_players["bob"]
    stored = fixture_call(site_shell, f"store_climbing_game({two_players['id']})")
    assert stored["climb"], "a climb the server accepts"
    model, x, y, z = stored["climb"]
    sx, sy = stored["start"][model]
    open_game(alice, two_players["url"])
    open_game(bob, two_players["url"])
    alice.click(f"[data-select-unit='{stored['unit']}']")
    alice.click("[data-tool=single-model]")
    drag_on_table(alice, (sx, sy), (x, y))
    height = alice.locator(f"[data-height='{model}']")
    assert height.get_attribute("max") == f"{stored['height']:g}"
    height.fill(f"{z:g}")
    height.dispatch_event("change")
    alice.click("[data-action=confirm-positions]")
    for page in (alice, bob):
        page.wait_for_function(
            f"""() => {{
                const m = strategium.view.state.units['{stored["unit"]}'].models
                    .find((m) => m.id === '{model}');
                return Math.abs(m.y - {y}) < 0.01 && m.z === {z};
            }}""",
            timeout=TIMEOUT,
        )
    assert bob.locator(f"[data-model='{model}'] .height").text_content() == f'↑{z:g}"'
    save_screenshot(bob, "model-on-an-upper-floor")


def test_a_unit_removed_by_teleport_assault_is_off_the_battlefield_in_the_roster(
    two_players, site_shell
):
    """Teleport Assault removes a unit to set it up again later: it leaves the board, and the
    roster says where it is and how it comes back (both players)."""
    stored = fixture_call(site_shell, f"store_teleport_assault_game({two_players['id']})")
    assert stored["decision"] == "teleport_assault"
    for page in (two_players["alice"], two_players["bob"]):
        open_game(page, two_players["url"], legal=False)
        show_tab(page, "roster")
        line = page.locator(f"[data-roster] [data-roster-unit='{stored['unit']}']")
        assert "off the battlefield (Teleport Assault)" in line.inner_text()
        assert not page.locator(f"[data-board] .model[data-unit='{stored['unit']}']").count()
    # A unit of one model, in the roster and on its card: "1 model", no half-strength of 0.5.
    bob = two_players["bob"]
    units = page_view(bob)["state"]["units"].values()
    single = next(u for u in units if len(u["models"]) == 1 and u["location"] == "battlefield")
    line = bob.locator(f"[data-roster] [data-roster-unit='{single['id']}']")
    assert "1 model ·" in line.inner_text(), line.inner_text()
    line.click()
    card = bob.locator("[data-datacard]")
    card.wait_for(timeout=TIMEOUT)
    summary = card.locator(".summary").inner_text()
    assert "· 1 model," in summary and "0.5 models" not in summary, summary
    save_screenshot(bob, "teleport-assault-roster")
    # On a phone the page keeps to the screen's width: the tracker's phases wrap.
    bob.set_viewport_size({"width": 390, "height": 844})
    bob.wait_for_timeout(300)
    scroll, screen = bob.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert scroll <= screen, (scroll, screen)


def _prompt_text(node) -> str | None:
    """A prompt's words as written in the engine source, each formatted value as "X"."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _prompt_text(node.left), _prompt_text(node.right)
        return None if left is None or right is None else left + right
    return None


def engine_prompts() -> list[tuple[str, str]]:
    """(kind, prompt) of every `push_decision` call whose kind and prompt the source spells out."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        constants = _module_strings(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or len(node.args) < 7:
                continue
            if getattr(node.func, "id", getattr(node.func, "attr", None)) != "push_decision":
                continue
            kind = node.args[2]
            kind = kind.value if isinstance(kind, ast.Constant) else constants.get(kind.id, "")
            prompt = _prompt_text(node.args[6])
            if prompt is not None:
                found.append((kind, prompt))
    return found


def test_no_decision_prompt_shows_the_protocols_words(site, new_context):
    """Engine prompts tell programs how to answer ("(or decline with null)", "[x, y, facing]");
    the page says each in its own words (`describe.decisionPrompt`), declining being a button."""
    prompts = engine_prompts()
    assert any("null" in prompt for _, prompt in prompts)  # the scan sees what it is about
    page = new_context("reader").new_page()
    page.goto(f"{site}/")
    shown = page.evaluate(
        """async (prompts) => {
            const describe = await import('/static/js/describe.js');
            const state = { units: { u: { name: 'X', player: 1 } } };
            return prompts.map(([kind, prompt]) => describe.decisionPrompt(
                { kind, prompt, options: { unit: 'u' } }, state));
        }""",
        [[kind, prompt] for kind, prompt in prompts if kind != "stratagem_window"],
    )
    said = [text for text in shown if re.search(r"\bnull\b|\[x, y|\{\"", text)]
    assert said == [], said


def log_in_page(site, new_context, events: list[dict], state: dict) -> dict:
    """What the game log (static/js/log.js) shows for `events` read with today's `state`, alice
    and bob playing: its whole text, and each entry's headline row with the lines left showing
    under it."""
    page = new_context("reader").new_page()
    page.goto(f"{site}/")
    return page.evaluate(
        """async ([events, state]) => {
            const describe = await import('/static/js/describe.js');
            const { GameLog } = await import('/static/js/log.js');
            describe.setPlayerNames({ 1: 'alice', 2: 'bob' });
            const list = document.createElement('ol');
            new GameLog(list).add(events, state);
            const entries = [...list.querySelectorAll('li.entry')].map((item) => ({
                head: item.querySelector('.headline-row').textContent,
                lines: [...item.querySelectorAll('ol > li')].filter((l) => !l.hidden)
                    .map((l) => l.textContent),
            }));
            return { text: list.textContent, entries };
        }""",
        [events, state],
    )


def test_a_past_windows_moment_in_the_log_names_the_turn_and_phase_it_came_in(site, new_context):
    """The log of a past turn is read with today's state: a window opened at the start of alice's
    Command phase is still said to be hers, and in that phase, when it is bob's Fight phase now."""
    window = {
        "kind": "stratagem_window",
        "player": 2,
        "prompt": "",
        "resume": {"triggers": ["phase_start"], "about": {}},
        "options": [],
    }
    events = [
        {"sequence": 1, "kind": "phase_started", "player": 1, "phase": "command"},
        {"sequence": 2, "kind": "decision_pending", "decision": window},
    ]
    today = {"active_player": 2, "phase": "fight", "units": {}}
    text = log_in_page(site, new_context, events, today)["text"]
    assert "The Command phase begins (alice's turn)" in text, text


SHOOTING = {"active_player": 1, "phase": "shooting", "units": {}}


def test_a_log_entry_names_its_player_once(site, new_context):
    """An entry starts with the player's name ("bob: "); its headline does not say it again."""
    events = [
        {
            "sequence": 1,
            "kind": "action_applied",
            "action": {"type": "decide", "player": 2, "choice": "done"},
        },
        {"sequence": 2, "kind": "decision_made", "player": 2, "choice": "done"},
    ]
    heads = [e["head"] for e in log_in_page(site, new_context, events, SHOOTING)["entries"]]
    assert heads and all(head.count("bob") == 1 for head in heads), heads


@pytest.mark.parametrize(
    ("phase", "words"),
    [("charge", "None of your units can declare a charge now."), ("command", None)],
)
def test_a_phase_the_player_can_only_end_says_no_unit_acts(site, new_context, phase, words):
    """When ending the phase is all the referee offers (no unit in range of a charge, nothing
    left to shoot), the panel says so beside the End button instead of showing it alone."""
    page = new_context("reader").new_page()
    page.goto(f"{site}/")
    said = page.evaluate(
        """async (phase) => {
            const { ActionPanel } = await import('/static/js/action_panel.js');
            const box = document.createElement('div');
            const panel = new ActionPanel(box, { send() {}, sendThen() {}, select() {},
                place() {}, confirmPlacement() {}, cancelPlacement() {},
                prefs: { skies: new Set(), order: {} }, changed() {} });
            const state = { stage: 'battle', phase, active_player: 1, pending: [], units: {} };
            panel.render({ state, legalActions: [{ type: 'end_phase', player: 1 }], seat: 1 });
            const note = box.querySelector('[data-nothing-to-do]');
            return [note ? note.textContent : null, box.querySelector('[data-action=end_phase]')
                ? 'end' : null];
        }""",
        phase,
    )
    assert said == [words, "end"]


def test_the_opponents_pass_goes_under_an_action_not_in_its_headline(site, new_context):
    """alice re-rolls a die; bob passes the window that follows: the entry is alice's, and bob's
    pass is a line under it, not its headline ("alice: bob passes")."""
    events = [
        {
            "sequence": 1,
            "kind": "action_applied",
            "action": {"type": "decide", "player": 1, "choice": 0},
        },
        {"sequence": 2, "kind": "dice_rerolled", "purpose": "hit_roll", "values": [5], "total": 5},
        {
            "sequence": 3,
            "kind": "action_applied",
            "action": {"type": "decide", "player": 2, "choice": "pass"},
        },
        {"sequence": 4, "kind": "decision_made", "player": 2, "choice": "pass"},
    ]
    entry = log_in_page(site, new_context, events, SHOOTING)["entries"][0]
    head, lines = entry["head"], entry["lines"]
    assert head.startswith("1.alice: ") and "bob passes" not in head, head
    assert "bob passes" in lines, lines
