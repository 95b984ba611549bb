"""What got in a new player's way on a first practice game (playtest of 2026-12-05), in real
Chromium: the practice form without an army, the log and dice tray opening at their oldest entry,
protocol values and odd capitals in the words, a refusal left about another unit, and the datacard
covering the board each time a drag ends."""

import json
import re

import pytest

from tests.browser.table_helpers import (
    drag_on_table,
    fixture_call,
    join_game,
    open_game,
    page_view,
    person,
    players_in_a_game,
    save_screenshot,
    show_tab,
    sign_up,
)
from tests.browser.test_game_flow_in_chromium import flow, started_game
from tests.engine_snapshot import decision_kinds

pytestmark = pytest.mark.browser
TIMEOUT = 15_000


def test_the_practice_form_says_to_build_an_army_first(site, new_context):
    page = new_context("newcomer").new_page()
    sign_up(page, site, person("newcomer"))
    form = page.locator("[data-practice-game]")
    assert form.locator("button[type=submit]").is_disabled()
    hint = form.locator("[data-no-army]")
    assert hint.is_visible()
    assert "build or import an army" in hint.inner_text()
    hint.locator("a").click()
    page.wait_for_url(re.compile(r"/armies/$"))


def test_the_log_and_dice_tray_open_at_their_newest_entry(laptop_players, site_shell):
    game = laptop_players["id"]
    fixture_call(site_shell, f"store_shooting_scene({game})")
    out = site_shell(
        "import json; from tests.browser import flow_fixtures as f; "
        f"v = f.play_on({game}, events=0, attack=True)['version']; "
        f"print(json.dumps(f.play_on({game}, events=v + 250)))"
    )
    version = json.loads(out.strip().splitlines()[-1])["version"]
    alice = laptop_players["alice"]
    open_game(alice, laptop_players["url"])
    alice.wait_for_function(
        f"() => Number(document.querySelector('[data-game]').dataset.historyShown) >= {version}",
        timeout=60_000,
    )
    at_end = (
        "(s) => { const l = document.querySelector(s);"
        " return [l.scrollTop + l.clientHeight, l.scrollHeight]; }"
    )
    for tab, selector in (("log", "[data-log]"), ("dice", "[data-dice-tray]")):
        show_tab(alice, tab)
        seen, height = alice.evaluate(at_end, selector)
        assert height > alice.evaluate(f"() => document.querySelector('{selector}').clientHeight")
        assert seen >= height - 4, (tab, seen, height)
    # "Just now": the newest action's headline, above the panel, without opening the log.
    newest = alice.locator("[data-log] > li").last.locator(".headline").first.inner_text()
    latest = alice.locator("[data-latest-text]").inner_text()
    assert latest and newest.split(" — ")[0] in latest, (latest, newest)
    assert alice.locator("[data-latest]").is_visible()
    # The tray's titles keep the names as the server has them: no title case ("Heavy Stubber").
    header = alice.locator("[data-dice-tray] header").first
    assert header.evaluate("h => getComputedStyle(h).textTransform") == "none"


def test_moments_answers_and_roll_titles_read_as_words(site, new_context):
    page = new_context("reader").new_page()
    page.goto(f"{site}/")
    said = page.evaluate(
        """async () => {
            const describe = await import('/static/js/describe.js');
            const { GameLog } = await import('/static/js/log.js');
            describe.setPlayerNames({ 1: 'nova', 2: 'nils' });
            const state = { units: { u1: { id: 'u1', name: 'Strike Squad', player: 1 } },
                            active_player: 2, phase: 'shooting' };
            const window = { kind: 'stratagem_window', player: 1, prompt: '', options: [],
                             resume: { triggers: ['after_roll'],
                                       about: { unit: 'u1', roll: { purpose: 'save' } } } };
            const list = document.createElement('ol');
            new GameLog(list).add([
                { sequence: 1, kind: 'action_applied', action: { type: 'shoot', player: 2 } },
                { sequence: 2, kind: 'decision_pending', decision: { id: 'd1', player: 1,
                  kind: 'choose_dice_to_reroll', prompt: 'Re-roll?', options: ['pass', [0]] } },
                { sequence: 3, kind: 'action_applied', action: { type: 'decide', player: 1 } },
                { sequence: 4, kind: 'decision_made', decision: 'd1', player: 1, choice: [0] },
                { sequence: 5, kind: 'decision_pending', decision: { id: 'd2', player: 1,
                  kind: 'teleport_assault', prompt: 'Pick', options: ['done', 'u1'] } },
                { sequence: 6, kind: 'action_applied', action: { type: 'decide', player: 1 } },
                { sequence: 7, kind: 'decision_made', decision: 'd2', player: 1, choice: 'done' },
                { sequence: 8, kind: 'action_applied',
                  action: { type: 'declare_charge', player: 1 } },
                { sequence: 9, kind: 'charge_declared', unit: 'u1', targets: ['u1'] },
                { sequence: 10, kind: 'charge_failed', unit: 'u1', roll: 6, needed: 8.417 },
            ], state);
            return {
                mine: describe.momentWords(window, state, 1),
                theirs: describe.momentWords(window, state, 2),
                charge: describe.momentWords({ ...window, resume: { triggers: ['after_roll'],
                    about: { unit: 'u1',
                             roll: { purpose: 'charge', values: [3, 4], total: 7 } } } },
                    state, 1),
                log: list.textContent,
                title: describe.rollTitle('first_turn_roll_off'),
                prompt: describe.decisionPrompt({ kind: 'teleport_assault', player: 1,
                    prompt: 'Teleport Assault: select a unit to remove from the battlefield '
                        + '(2 more at most), or done.' }, state, 1),
                reroll: describe.decisionPrompt({ kind: 'choose_dice_to_reroll', player: 1,
                    prompt: 'Re-roll the save roll [1, 1, 6, 6]?',
                    resume: { roll: { purpose: 'save', values: [1, 1, 6, 6], total: 14 } } },
                    state, 1),
                vehicle: describe.previewWords({ models: 1, damage: { mean: 0.84 },
                    models_destroyed: { mean: 0.05, distribution: [0.95, 0.05] } }),
                squad: describe.previewWords({ models: 11, damage: { mean: 2.6 },
                    models_destroyed: { mean: 2.6, distribution: [0.1, 0.9] } }),
            };
        }"""
    )
    assert said["mine"] == "Your Strike Squad just made a save roll", said
    assert said["theirs"] == "nova's Strike Squad just made a save roll", said
    # Whether to re-roll is decided on what was rolled: the moment says it.
    assert said["charge"] == "Your Strike Squad just made a Charge roll (rolled 3, 4: 7)", said
    # Answers read as what the player did, not as their buttons ("nova: Re-roll die 1").
    assert "nova re-rolls die 1 of the roll" in said["log"], said["log"]
    assert "nova removes no more units by Teleport Assault" in said["log"], said["log"]
    assert "2.nova re-rolls die 1" in said["log"], said["log"]
    assert "nova: Re-roll" not in said["log"] and "nova: Done" not in said["log"], said["log"]
    assert "chose" not in said["log"], said["log"]
    # A failed charge says so in its headline, with the roll and the distance needed.
    assert 'the charge fails (rolled 6, needed 8.4")' in said["log"], said["log"]
    assert said["title"] == "First turn roll off"
    assert said["reroll"] == "Re-roll the save roll (rolled 1, 1, 6, 6)?", said["reroll"]
    assert said["prompt"].endswith('(2 more at most), or press "Done".'), said["prompt"]
    # The damage preview of a one-model target says the chance to destroy it, not "0.0 of 1 models".
    assert said["vehicle"] == ": about 0.8 damage, 5% chance to destroy it", said["vehicle"]
    assert said["squad"] == ": about 2.6 of 11 models destroyed, 2.6 damage", said["squad"]


def test_a_refusal_goes_with_its_unit_and_the_unit_in_hand_shows_no_card(
    laptop_players, site_shell
):
    scene = fixture_call(
        site_shell, f"store_shooting_scene({laptop_players['id']}, phase='movement')"
    )
    alice = laptop_players["alice"]
    view = open_game(alice, laptop_players["url"])
    unit = view["state"]["units"][scene["shooter"]]
    model = next(m for m in unit["models"] if m["wounds_left"] > 0)
    alice.click(f"[data-select-unit='{scene['shooter']}']")
    # The unit being moved: hovering its models (as each drag ends) opens no datacard.
    alice.hover(f"[data-model='{model['id']}']")
    alice.wait_for_timeout(200)
    assert alice.locator("[data-datacard]").is_hidden()
    drag_on_table(alice, (model["x"], model["y"]), (model["x"] + 14, model["y"] - 2))
    error = alice.locator("[data-error]")
    alice.wait_for_function(
        "() => document.querySelector('[data-error]').textContent !== ''", timeout=TIMEOUT
    )
    assert error.inner_text().startswith(unit["name"])
    assert alice.locator("[data-datacard]").is_hidden()
    # Taking another unit in hand clears the refusal about the first: it is not about this one.
    other = next(
        a["unit"]
        for a in view["legal"]
        if a.get("unit") and a["unit"] != scene["shooter"] and a["type"] == "move"
    )
    alice.click(f"[data-select-unit='{other}']")
    assert error.inner_text() == ""
    assert alice.locator("[data-note]").count() == 0
    # An enemy model still shows its card on hover.
    enemy = view["state"]["units"][scene["near"]]
    enemy_model = next(m for m in enemy["models"] if m["wounds_left"] > 0)
    alice.hover(f"[data-model='{enemy_model['id']}']")
    alice.locator("[data-datacard]").wait_for(timeout=TIMEOUT)


def test_the_tracker_tells_the_player_it_is_their_move_in_the_set_up(site, new_context):
    page = new_context("reader").new_page()
    page.goto(f"{site}/")
    said = page.evaluate(
        """async () => {
            const { renderTracker } = await import('/static/js/tracker.js');
            const state = { stage: 'deployment', awaiting: 1, players: {}, units: {} };
            const game = { players: { 1: 'nova', 2: 'nils' } };
            const mine = document.createElement('div');
            const theirs = document.createElement('div');
            renderTracker(mine, state, game, 1);
            renderTracker(theirs, state, game, 2);
            return [mine.querySelector('[data-awaiting]').textContent,
                    theirs.querySelector('[data-awaiting]').textContent];
        }"""
    )
    assert said == ["your move", "waiting for nova (P1)"], said


def test_a_decision_reads_in_the_third_person_in_the_log_and_to_the_other_readers(
    site, site_shell, new_context
):
    """The engine's prompt speaks to the player deciding ("You won the roll-off: take the first
    turn or the second?"); the log and the tracker of the other player and of a spectator say who
    decides what, with the player's name ("Computer opponent: You won the roll-off" was seen)."""
    players, game_id, watch = started_game(site, site_shell, new_context)
    decision = flow(site_shell, f"play_to_decision({game_id}, 'choose_first_turn')")["decision"]
    spectator = new_context("spectator").new_page()
    spectator.goto(watch)
    decider = players[decision["player"]]
    other = players[3 - decision["player"]]
    name = decider.locator(f"[data-player-name='{decision['player']}']").inner_text()
    said = f"{name} won the roll-off and chooses whether to take the first turn or the second"
    for page in (decider, other, spectator):
        if page is not spectator:
            page.reload()
        page.wait_for_selector("[data-board] .model")
        show_tab(page, "log")
        line = page.locator("[data-log] li[data-kind=decision_pending]").last
        line.wait_for(state="attached", timeout=TIMEOUT)
        text = line.inner_text()
        assert text.startswith(said), text
        assert not re.search(r"\byou(r)?\b", text, re.IGNORECASE), text
    for page in (other, spectator):
        tracker = page.locator("[data-tracker] [data-step=choose_first_turn]").inner_text()
        assert tracker == said, tracker
    # The player deciding is still asked in the second person.
    prompt = decider.locator("[data-actions] .decision .prompt").inner_text()
    assert prompt.startswith("You won the roll-off: take the first turn or the second?"), prompt
    save_screenshot(spectator, "new-player-roll-off-spectator")


def test_every_decision_kind_has_a_third_person_line(site, new_context):
    """Each kind of decision the engine pushes, as the log says it: the player's name first, no
    "you", not the engine's prompt."""
    page = new_context("reader").new_page()
    page.goto(f"{site}/")
    lines = page.evaluate(
        """async (kinds) => {
            const describe = await import('/static/js/describe.js');
            describe.setPlayerNames({ 1: 'nova', 2: 'nils' });
            const state = { units: { u1: { id: 'u1', name: 'Strike Squad', player: 1,
                                           models: [{ id: 'm1', name: 'Justicar' }] },
                                     u2: { id: 'u2', name: 'Rhino', player: 1, models: [] } },
                            active_player: 2, phase: 'shooting' };
            return kinds.map((kind) => [kind, describe.describe({ kind: 'decision_pending',
                decision: { id: 'd1', player: 1, kind, rule: 'Some Rule',
                            prompt: 'You must choose: take it or leave it?',
                            options: { unit: 'u1', max_distance: 6, transport: 'u2' },
                            resume: { unit: 'u1', units: ['u1'], critical_hits: 2,
                                      roll: { purpose: 'save', values: [1, 6], total: 7 },
                                      triggers: ['unit_targeted'], about: { unit: 'u1' } } } },
                state).text]);
        }""",
        sorted(decision_kinds()),
    )
    for kind, text in lines:
        assert text.startswith("nova ") or ": nova may" in text, (kind, text)
        assert not re.search(r"\byou(r)?\b", text, re.IGNORECASE), (kind, text)
        assert "take it or leave it" not in text and "decides (" not in text, (kind, text)


def test_every_decision_kind_s_answer_reads_as_a_statement(site, new_context):
    """Each kind of decision the engine pushes, answered, as the log says it: what the player
    did, their name first ("nova takes the first turn"), never the button's words after a colon
    ("nova: Take the first turn"), whatever the answer (a unit, done, pass, none)."""
    page = new_context("reader").new_page()
    page.goto(f"{site}/")
    lines = page.evaluate(
        """async (kinds) => {
            const describe = await import('/static/js/describe.js');
            const { GameLog } = await import('/static/js/log.js');
            describe.setPlayerNames({ 1: 'nova', 2: 'nils' });
            const state = { units: { u1: { id: 'u1', name: 'Strike Squad', player: 1,
                                           models: [{ id: 'm1', name: 'Justicar' }] },
                                     u2: { id: 'u2', name: 'Rhino', player: 1, models: [] } },
                            active_player: 1, phase: 'shooting' };
            const choices = ['u1', 'done', 'pass', null, 'first', 'second', [0], 2,
                             { unit: 'u1', model: 'm1' }];
            const found = [];
            for (const kind of kinds) {
                for (const choice of choices) {
                    const list = document.createElement('ol');
                    new GameLog(list).add([
                        { sequence: 1, kind: 'decision_pending', decision: { id: 'd1', player: 1,
                          kind, rule: 'Some Rule', prompt: 'Pick?', options: { unit: 'u1',
                          transport: 'u2' }, resume: { unit: 'u1', units: ['u1'] } } },
                        { sequence: 2, kind: 'action_applied',
                          action: { type: 'decide', player: 1 } },
                        { sequence: 3, kind: 'decision_made', decision: 'd1', player: 1,
                          choice },
                    ], state);
                    const line = list.querySelector('li[data-kind=decision_made]');
                    found.push([kind, JSON.stringify(choice), line.firstChild.textContent,
                                [...list.querySelectorAll('.headline-row')].pop().textContent]);
                }
            }
            return found;
        }""",
        sorted(decision_kinds()),
    )
    for kind, choice, text, head in lines:
        assert re.match(r"nova [a-z]", text), (kind, choice, text)
        assert not re.search(r"undefined|\[object|\bchose\b", text), (kind, choice, text)
        # The answer's entry reads the same statement: "2.nova takes the first turn".
        assert head.startswith(f"2.{text}"), (kind, choice, head)
    said = {(kind, choice): text for kind, choice, text, _ in lines}
    assert said[("choose_first_turn", '"first"')] == "nova takes the first turn"
    assert said[("choose_first_turn", '"second"')] == "nova takes the second turn"
    assert said[("stratagem_window", '"pass"')] == "nova passes"
    assert said[("select_units", '"u1"')] == "nova selects Strike Squad for Some Rule"
    assert said[("normal_move", "null")] == "nova makes no Normal move with Strike Squad"


@pytest.mark.parametrize(
    "size", [(1440, 900), (1280, 800), (1920, 1080), (1024, 768)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_a_stratagem_window_leaves_the_log_readable(site, new_context, site_shell, size):
    """A stratagem window with many offers (Inspired Command, six Orders) scrolls in the action
    panel; the Log tab under it keeps close to half the column, a dozen lines at least (at
    1440x900 it was squeezed to a third), and "Pass" stays in sight."""
    width, height = size
    two = players_in_a_game(
        site, new_context, ("nova", "nils"), viewport={"width": width, "height": height}
    )
    fixture_call(site_shell, f"store_window_game({two['id']})")
    alice = two["alice"]
    open_game(alice, two["url"])
    alice.locator("[data-actions] .offer").first.wait_for(timeout=TIMEOUT)
    show_tab(alice, "log")
    boxes = alice.evaluate(
        """() => {
            const box = (s) => document.querySelector(s).getBoundingClientRect();
            const log = document.querySelector('[data-log]');
            const font = parseFloat(getComputedStyle(log).fontSize);
            return { column: box('.side-column'), log: box('[data-log]'), line: 1.2 * font,
                     panel: box('[data-actions]'),
                     pass: box('[data-actions] [data-action=decide][data-choice=pass]'),
                     scroll: [document.documentElement.scrollHeight, innerHeight] };
        }"""
    )
    column, log, panel, passing = boxes["column"], boxes["log"], boxes["panel"], boxes["pass"]
    assert log["height"] >= 0.4 * column["height"], (log["height"], column["height"])
    assert log["height"] >= 12 * boxes["line"], (log["height"], boxes["line"])
    assert panel["top"] <= passing["top"] and passing["bottom"] <= panel["bottom"], boxes
    # The whole table still fits the window: nothing of it is below the fold.
    assert column["bottom"] <= height, (column, height)
    save_screenshot(alice, f"new-player-window-log-{width}x{height}")


def test_the_scouts_step_says_what_it_asks_and_how_to_finish_it(laptop_players, site_shell):
    """The Scouts step before the first battle round (11e 24.32): its line says what a scout move
    is and how to end the step, in the server's words, with the End button at the foot of the
    panel; pressing it ends the step."""
    stored = fixture_call(site_shell, f"store_scouts_game({laptop_players['id']})")
    page = laptop_players["bob" if stored["awaiting"] == 2 else "alice"]
    view = open_game(page, laptop_players["url"])
    step = page.locator("[data-actions] [data-step-hint=scouts]")
    assert step.is_visible()
    words = step.inner_text()
    said = view["state"]["display"]["steps"]["scouts"]
    assert words == f"{said['text']} {said['rule']}", words
    assert "Scout moves" in words and 'more than 8"' in words and "24.32" in words, words
    assert '"End Scout moves"' in words, words
    end = page.locator("[data-actions] > button[data-action=end_scouts]")
    assert end.inner_text() == "End Scout moves"
    assert not page.locator("text=Other actions").count()
    save_screenshot(page, "new-player-scouts-step")
    end.click()
    page.wait_for_function("() => strategium.view.state.stage !== 'scouts'", timeout=TIMEOUT)


def open_set_up(page, url: str) -> dict:
    """A game page in a step before the battle (no model on the board yet when reserves are
    declared), once the server has said what the page may do."""
    page.goto(url)
    page.wait_for_function(
        "() => strategium.view.state && strategium.view.legalActions !== undefined"
        " && document.querySelector('[data-actions]').children.length > 0"
    )
    return page_view(page)


@pytest.mark.parametrize(
    ("edition", "stage", "words"),
    [
        (
            "11e",
            "declare_reserves",
            [
                "(worth up to 500 points, 50% of the points limit in all)",
                'press "Declare reserves"',
            ],
        ),
        (
            "10e",
            "declare_reserves",
            [
                "(worth up to 250 points, 25% of the points limit in all)",
                'press "Declare reserves"',
            ],
        ),
        ("11e", "deployment", ['Infiltrators (24.20): anywhere more than 8"', "Deploy button"]),
        ("10e", "deployment", ['Infiltrators: anywhere more than 9"', "Deploy button"]),
        ("11e", "first_turn", ["roll off", "winner chooses who takes the first turn"]),
    ],
)
def test_every_set_up_step_says_what_it_asks_and_how_to_finish_it(
    site, new_context, site_shell, edition, stage, words
):
    """Each step before the battle has its line at the head of the action panel, in the
    server's words with the rule set's numbers and citation (11e 20.01 50%, 10e Strategic
    Reserves 25%; Infiltrators 8" / 9"), naming the button that finishes it, which is there;
    the first turn's line stands above the roll-off winner's choice."""
    two = join_game(
        new_context("alice").new_page(),
        new_context("bob").new_page(),
        site,
        (person("nova"), person("nils")),
        edition,
    )
    stored = fixture_call(
        site_shell, f"store_set_up_step_game({two['id']}, {stage!r}, {edition!r})"
    )
    page = two["alice" if stored["awaiting"] == 1 else "bob"]
    view = open_set_up(page, two["url"])
    said = view["state"]["display"]["steps"][stage]
    first = page.locator("[data-actions] > *").first
    assert first.get_attribute("data-step-hint") == stage
    text = first.inner_text()
    assert text == f"{said['text']} {said['rule']}", text
    for expected in words:
        assert expected in text, (expected, text)
    finish = {
        "declare_reserves": "[data-actions] button[data-action=declare_reserves]",
        "deployment": "[data-actions] button[data-action=deploy]",
        "first_turn": "[data-actions] .decision[data-decision=choose_first_turn] button",
    }[stage]
    assert page.locator(finish).first.is_visible()
    # The other player waits: the line is for the player whose step it is.
    other = two["bob" if page is two["alice"] else "alice"]
    open_set_up(other, two["url"])
    assert not other.locator("[data-step-hint]").count()
    save_screenshot(page, f"new-player-step-{stage}-{edition}")


def test_a_step_line_stands_beside_its_own_decisions_only(site, new_context, site_shell):
    """The redeployments are only decisions (select the units, then set each up): the step's
    line stands above them; another rule's question asked during a step (Clandestine
    Operation's selection while reserves are declared) is not under that step's line."""
    two = players_in_a_game(site, new_context, ("nova", "nils"))
    fixture_call(site_shell, f"store_set_up_step_game({two['id']}, 'deployment')")
    steps = open_set_up(two["alice"], two["url"])["state"]["display"]["steps"]
    page = two["alice"]
    said = page.evaluate(
        """async (steps) => {
            const describe = await import('/static/js/describe.js');
            const { ActionPanel } = await import('/static/js/action_panel.js');
            describe.useServerNames({ display: { steps } });
            const render = (stage) => {
                const box = document.createElement('div');
                const panel = new ActionPanel(box, { send() {}, sendThen() {}, select() {},
                    place() {}, confirmPlacement() {}, cancelPlacement() {},
                    prefs: { skies: new Set(), order: {} }, changed() {} });
                const state = { stage, units: { u1: { id: 'u1', name: 'Strike Squad',
                    player: 1, models: [] } }, pending: [{ id: 'd1', kind: 'select_units',
                    player: 1, rule: 'Liber Heresius', prompt: 'Liber Heresius: select a unit '
                    + '(0 of up to 2), or done.', options: ['done', 'u1'] }] };
                panel.render({ state, seat: 1, legalActions: [
                    { type: 'decide', player: 1, decision: 'd1', choice: 'done' },
                    { type: 'decide', player: 1, decision: 'd1', choice: 'u1' }] });
                const hint = box.querySelector('[data-step-hint]');
                return { hint: hint ? hint.textContent : null,
                         first: box.firstElementChild.dataset.stepHint || null,
                         decision: !!box.querySelector('.decision[data-decision=select_units]') };
            };
            return { redeployment: render('redeployment'), reserves: render('declare_reserves') };
        }""",
        steps,
    )
    redeployment = steps["redeployment"]
    assert said["redeployment"] == {
        "hint": f"{redeployment['text']} {redeployment['rule']}",
        "first": "redeployment",
        "decision": True,
    }, said
    assert said["reserves"] == {"hint": None, "first": None, "decision": True}, said


def test_the_teleport_assault_prompt_says_why_it_is_asked(laptop_players, site_shell):
    """At the end of the opponent's turn a Grey Knights player is asked for units to remove: the
    decision says what Teleport Assault is and what removing a unit does (it is set up again in
    the next Movement phase, more than 9" from the enemy), citing the rule, in the server's
    words, with its buttons still in sight; the other player's tracker says it in the third
    person."""
    stored = fixture_call(site_shell, f"store_teleport_assault_game({laptop_players['id']})")
    assert stored["decision"] == "teleport_assault"
    bob = laptop_players["bob"]
    view = open_game(bob, laptop_players["url"])
    box = bob.locator("[data-actions] .decision[data-decision=teleport_assault]")
    why = box.locator("[data-why=teleport_assault]")
    said = view["state"]["display"]["decisions"]["teleport_assault"]
    text = why.inner_text()
    assert text == said["text"], text
    for words in (
        "Teleport Assault (Grey Knights)",
        "each unit removed now (2 at most)",
        "set up again in the Reinforcements step of your next Movement phase",
        'more than 9" horizontally from all enemy models',
    ):
        assert words in text, (words, text)
    # The question, citing the rule, then why, then its buttons, all in sight in the panel.
    prompt = box.locator(".prompt")
    assert prompt.inner_text().startswith("Teleport Assault: select a unit"), prompt.inner_text()
    assert prompt.locator("cite").inner_text() == said["rule"] == "Teleport Assault"
    done = box.locator("button[data-choice=done]")
    panel = bob.locator("[data-actions]").bounding_box()
    button = done.bounding_box()
    assert (
        panel["y"] <= button["y"] and button["y"] + button["height"] <= panel["y"] + panel["height"]
    ), (panel, button)
    save_screenshot(bob, "new-player-teleport-assault")
    alice = laptop_players["alice"]
    open_game(alice, laptop_players["url"], legal=False)
    tracker = alice.locator("[data-tracker] [data-step=teleport_assault]").inner_text()
    assert "may remove units from the battlefield by Teleport Assault" in tracker, tracker
    assert not alice.locator("[data-why]").count()
