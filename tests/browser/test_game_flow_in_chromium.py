"""A whole game around the battle in real Chromium (issue 16): the invite through sign-up, pages
that follow the game's status by themselves, the whole history after a reload and for a fresh
spectator, a concession with its result screen on both pages, the dice verified, the replay
viewer, the games list; and a stratagem window that passes by itself, also after a restart."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.browser.conftest import ROOT, _free_port
from tests.browser.table_helpers import PASSWORD, person, save_screenshot, sign_up

pytestmark = pytest.mark.browser
STEP = 15_000


def flow(site_shell, call: str) -> dict:
    """Run a tests.browser.flow_fixtures function on the served site's database."""
    out = site_shell(
        f"import json; from tests.browser import flow_fixtures as f; print(json.dumps(f.{call}))"
    )
    return json.loads(out.strip().splitlines()[-1])


def create_game(page, window_seconds: int | None = None, listed: bool = False) -> tuple:
    page.select_option("select[name=ruleset]", "11e")
    page.select_option("select[name=battle_size]", "incursion")
    # The missions of the battle size are offered, each with its layout's thumbnail.
    mission = page.locator("[data-mission][data-battle-size=incursion]").first
    assert mission.locator("svg.mission-thumbnail polygon.terrain").count() > 0
    mission.locator("input").check()
    mission_name = mission.inner_text().strip()
    if window_seconds:
        page.fill("input[name=window_time_limit]", str(window_seconds))
    if listed:
        page.check("input[name=listed]")
    page.click("text=Create game")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    invite = page.locator("#invite-link").input_value()
    watch = page.locator("#spectator-link").input_value()
    return game_id, invite, watch, mission_name


def pick_army(page, name: str) -> None:
    form = page.locator("[data-muster]")
    form.wait_for(state="visible", timeout=STEP)
    form.locator("select").select_option(label=name)
    form.locator("button[data-action=muster]").click()
    page.wait_for_load_state()


def header_status(page) -> str:
    return page.locator("[data-status-label]").inner_text().strip()


def wait_for_status(page, label: str, also: str = "true") -> None:
    """Wait until the header shows the status `label` (and the JS condition `also` holds)."""
    page.wait_for_function(
        "() => document.querySelector('[data-status-label]').textContent.trim()"
        f" === {json.dumps(label)} && ({also})",
        timeout=STEP,
    )


def log_lines(page) -> int:
    return page.locator("[data-log] li").count()


def wait_for_history(page, version: int) -> None:
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-game]').dataset.historyShown) >= {version}",
        timeout=60_000,
    )


# Every page of the flow keeps the Content-Security-Policy (script-src 'self', no inline code).
LISTEN_FOR_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.sourceFile}:${event.lineNumber}`);
});
"""


def csp_watched(new_context, name: str):
    context = new_context(name)
    context.add_init_script(LISTEN_FOR_VIOLATIONS)
    return context


def no_csp_violations(page) -> None:
    assert page.evaluate("window.__cspViolations") == [], page.url


def test_a_game_from_invite_to_result_and_replay(site, site_shell, new_context):
    alice = csp_watched(new_context, "alice").new_page()
    alice_name = person("alice")
    sign_up(alice, site, alice_name)
    alice_army = flow(site_shell, f"store_army({alice_name!r}, 1)")
    alice.goto(f"{site}/games/")
    game_id, invite, watch, mission_name = create_game(alice, listed=True)
    assert header_status(alice) == "Waiting for opponent"
    assert alice.locator("[data-muster]").is_hidden()
    assert alice.locator("button[data-copy='#invite-link']").is_visible()

    spectator = new_context("spectator").new_page()
    spectator.goto(watch)
    spectator.wait_for_selector("[data-connection][data-status=connected]")
    alice.wait_for_selector("[data-connection][data-status=connected]")

    # The invitee has no account: the invite leads through sign-up and straight into the game.
    bob = csp_watched(new_context, "bob").new_page()
    bob_name = person("bob")
    bob.goto(invite)
    no_csp_violations(bob)
    bob.click("[data-call=sign-up]")
    bob.fill("input[name=username]", bob_name)
    bob.fill("input[name=password1]", PASSWORD)
    bob.fill("input[name=password2]", PASSWORD)
    bob.click("button[type=submit]")
    bob.wait_for_url(re.compile(rf"/games/{game_id}/$"))
    assert "You are seat 2" in bob.inner_text("main")
    assert bob.locator("[data-muster]").is_visible()  # the army picker, at once
    # The action panel says when actions come, not "No action now." beside the army picker.
    bob.wait_for_selector("[data-actions] [data-waiting]")
    assert "once both players have chosen an army" in bob.inner_text("[data-actions]")

    # The creator's page and the spectator's changed by themselves.
    for page in (alice, spectator):
        wait_for_status(page, "Mustering")
        assert page.locator("[data-player-name='2']").inner_text() == bob_name
    assert alice.locator("[data-muster]").is_visible()
    assert alice.locator("#invite-link").is_hidden()
    save_screenshot(alice, "flow-creator-after-join")

    bob_army = flow(site_shell, f"store_army({bob_name!r}, 2)")
    bob.reload()
    pick_army(alice, alice_army["name"])
    assert alice.locator("[data-muster]").is_hidden()
    assert alice.locator("[data-muster-waiting]").is_visible()
    alice.wait_for_selector("[data-connection][data-status=connected]")
    pick_army(bob, bob_army["name"])
    # Both armies picked: every page moves on to deployment, with the board, without a reload.
    for page in (alice, spectator):
        wait_for_status(page, "Deployment", "strategium.view.state !== null")
    assert alice.locator("[data-muster-waiting]").is_hidden()
    assert alice.locator("[data-action=cancel-game]").is_visible()
    # The links, open while the game was set up, close now that it is played.
    assert not alice.locator("details.game-info").evaluate("d => d.open")

    # A long game (played by self-play through the match service), past a shooting attack.
    played = flow(site_shell, f"play_on({game_id}, events=650, attack=True)")
    assert played["version"] >= 650 or played["stage"] == "ended"
    alice.reload()
    wait_for_history(alice, played["version"])
    assert alice.locator("[data-log] li[data-sequence='1']").count() == 1
    lines = log_lines(alice)
    assert lines > 200
    assert alice.locator("[data-dice-tray] .dice-row").count() > 0
    late = new_context("late-spectator").new_page()
    late.goto(watch)
    wait_for_history(late, played["version"])
    assert log_lines(late) == lines
    assert (
        late.locator("[data-dice-tray]").inner_text()
        == alice.locator("[data-dice-tray]").inner_text()
    )
    assert header_status(alice) == "Battle" and header_status(late) == "Battle"
    assert alice.locator("[data-action=cancel-game]").is_hidden()  # the battle has started
    save_screenshot(late, "flow-fresh-spectator-history")

    # Concede asks first; then the game ends for everyone at once.
    bob.reload()
    bob.wait_for_selector("[data-connection][data-status=connected]")
    bob.once("dialog", lambda dialog: dialog.dismiss())
    bob.click("[data-action=concede]")
    assert header_status(bob) == "Battle"
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("[data-action=concede]")
    for page in (alice, bob, late):
        page.wait_for_selector(
            "[data-result] [data-vp-chart] polyline", state="attached", timeout=STEP
        )
        assert page.locator("[data-vp-chart] polyline").count() == 2
        winner = page.locator("[data-result] .winner")
        assert winner.get_attribute("data-ended-by") == "concession"
        assert alice_name in winner.inner_text()
        assert header_status(page) == "Finished"
    alice.wait_for_function("() => strategium.view.legalActions.length === 0", timeout=STEP)
    assert alice.locator("[data-actions] button[data-action]").count() == 0
    assert alice.locator("[data-action=concede]").is_hidden()
    assert alice.locator("[data-log] li[data-kind=game_conceded]").count() == 1
    no_csp_violations(alice)
    save_screenshot(alice, "flow-result-screen", publish=True)

    # Every die of the log re-derived from the revealed seed.
    alice.click("[data-verify-dice]")
    verdict = alice.locator("[data-verify-result]")
    alice.wait_for_function(
        "() => document.querySelector('[data-verify-result]').dataset.allMatch === 'true'",
        timeout=60_000,
    )
    assert verdict.get_attribute("data-matched") == verdict.get_attribute("data-dice")
    assert int(verdict.get_attribute("data-dice")) > 0

    # The replay: step forward and back, the dice of a shooting attack, jump to a round.
    alice.click("[data-replay-link]")
    alice.wait_for_url(re.compile(rf"/games/{game_id}/replay/"))
    replay_page(alice, (alice_name, bob_name))
    no_csp_violations(alice)

    # The games list: status, opponent, armies, rule set, mission, result, links.
    alice.goto(f"{site}/games/")
    row = alice.locator(f"[data-game-row='{game_id}']")
    text = row.inner_text()
    for expected in ("Finished", bob_name, alice_army["name"], bob_army["name"], mission_name):
        assert expected in text, (expected, text)
    assert f"{alice_name} won (concession)" in text
    for link in ("play", "watch", "replay"):
        assert row.locator(f"[data-link={link}]").count() == 1
    no_csp_violations(alice)

    # The home page: what the site is, Play, and Watch with the listed game.
    anonymous = csp_watched(new_context, "anonymous").new_page()
    anonymous.goto(site)
    no_csp_violations(anonymous)
    assert anonymous.locator("[data-call=play]").count() == 1
    assert anonymous.locator(f"[data-watch-game='{game_id}']").count() == 1


def replay_page(page, names: tuple[str, str]) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-replay]').dataset.ready", timeout=60_000
    )
    replay = page.locator("[data-replay]")
    start = int(replay.get_attribute("data-position"))
    page.click("[data-step=next-event]")
    page.wait_for_function(f"() => strategium.replay.position === {start + 1}")
    page.click("[data-step=next-action]")
    page.wait_for_function(f"() => strategium.replay.position > {start + 1}")
    after_action = page.evaluate("() => strategium.replay.position")
    page.click("[data-step=prev-event]")
    page.wait_for_function(f"() => strategium.replay.position === {after_action - 1}")
    page.click("[data-step=prev-action]")
    page.wait_for_function(f"() => strategium.replay.position < {after_action - 1}")
    # The first hit roll of a shooting attack: its dice in the tray, the board as it was.
    hit = page.evaluate(
        "() => strategium.replay.events.findIndex(e => e.kind === 'attack_step'"
        " && (e.tray?.step || e.tray?.[0]?.step) === 'hit_roll')"
    )
    assert hit >= 0
    page.evaluate(f"() => strategium.show({hit + 1})")
    page.wait_for_function(
        f"() => strategium.replay.position === {hit + 1} && strategium.replay.shown === {hit + 1}"
    )
    assert page.locator("[data-dice-tray] [data-step=hit_roll] .die").count() > 0
    assert page.locator("[data-board] .model").count() > 0
    save_screenshot(page, "flow-replay-shooting", publish=True)
    # Back before the attack: its dice are gone from the tray.
    page.click("[data-step=prev-action]")
    page.wait_for_function(f"() => strategium.replay.position < {hit + 1}")
    page.click("[data-step=prev-action]")
    page.wait_for_function(f"() => strategium.replay.shown < {hit}")
    # Jump to battle round 2.
    page.select_option("[data-round]", label="2")
    page.wait_for_function(
        "() => strategium.replay.events[strategium.replay.position - 1].kind"
        " === 'battle_round_started'"
    )
    page.wait_for_selector("[data-tracker] [data-round='2']", timeout=STEP)
    # The players by their names, as on the game page: in the tracker and on the deployment zones.
    tracker = page.inner_text("[data-tracker]")
    zones = page.locator("[data-board] .zone-label").all_text_contents()
    for name in names:
        assert name in tracker, tracker
        assert f"{name}'s deployment zone" in zones, zones
    assert "Player 1" not in tracker + " ".join(zones)


def started_game(site, site_shell, new_context, window_seconds: int | None = None):
    """Two players with a game of 11e past mustering; returns their pages, the game id and the
    spectator link."""
    alice = new_context("alice").new_page()
    alice_name = person("alice")
    sign_up(alice, site, alice_name)
    bob = new_context("bob").new_page()
    bob_name = person("bob")
    sign_up(bob, site, bob_name)
    armies = {
        alice_name: flow(site_shell, f"store_army({alice_name!r}, 1)"),
        bob_name: flow(site_shell, f"store_army({bob_name!r}, 2)"),
    }
    alice.goto(f"{site}/games/")
    game_id, invite, watch, _ = create_game(alice, window_seconds=window_seconds)
    bob.goto(invite)
    bob.wait_for_url(re.compile(rf"/games/{game_id}/$"))
    pick_army(bob, armies[bob_name]["name"])
    pick_army(alice, armies[alice_name]["name"])
    return {1: alice, 2: bob}, game_id, watch


def test_a_stratagem_window_passes_by_itself_with_a_countdown(site, site_shell, new_context):
    players, game_id, watch = started_game(site, site_shell, new_context, window_seconds=5)
    opening = flow(site_shell, f"play_to_window({game_id})")
    spectator = new_context("spectator").new_page()
    spectator.goto(watch)
    everyone = [players[1], players[2], spectator]
    for page in everyone:
        page.reload()
        page.wait_for_function(
            f"() => strategium.connection.version === {opening['version']}", timeout=STEP
        )
    # The acting player's action opens a stratagem window for one of them; nobody answers it.
    message = {
        "type": "action",
        "version": opening["version"],
        "client_id": "opens-a-window",
        "action": opening["action"],
    }
    players[opening["seat"]].evaluate(f"() => strategium.connection.send({json.dumps(message)})")
    decisions = set()
    for page in everyone:
        clock = page.locator("[data-window-clock]")
        clock.wait_for(state="visible", timeout=STEP)
        assert 0 <= int(clock.get_attribute("data-seconds-left")) <= 5
        decisions.add(clock.get_attribute("data-decision"))
    assert len(decisions) == 1, decisions
    save_screenshot(players[opening["decider"]], "flow-window-countdown", publish=True)
    started = time.monotonic()
    # The game goes on once the window passes, and the dice may open the next window (with a
    # clock of its own) at once: this window's clock is the one that must go.
    this_window = f'[data-window-clock][data-decision="{decisions.pop()}"]'
    for page in everyone:
        page.locator(this_window).wait_for(state="hidden", timeout=STEP)
    assert time.monotonic() - started < 10
    facts = flow(site_shell, f"game_facts({game_id})")
    assert "window_timed_out" in facts["kinds"]


def test_a_deadline_passed_while_the_server_was_down_passes_at_start_up(
    site, site_env, site_shell, new_context
):
    players, game_id, _ = started_game(site, site_shell, new_context, window_seconds=5)
    for page in players.values():
        page.close()  # nobody is connected: no process has a timer for this game
    opening = flow(site_shell, f"play_to_window({game_id})")
    # The window opens through the service (in this shell, not the served site), and its deadline
    # passes while "the server is down".
    flow(site_shell, f"apply_as({game_id}, {opening['seat']}, {opening['action']!r})")
    down = flow(site_shell, f"expire_while_down({game_id})")
    assert "window_timed_out" not in flow(site_shell, f"game_facts({game_id})")["kinds"]

    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        + ["tabletop.asgi:application"],
        cwd=ROOT,
        env=site_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            facts = flow(site_shell, f"game_facts({game_id})")
            if facts["version"] > down["version"]:
                break
            assert time.monotonic() < deadline, "the window did not pass at start-up"
            time.sleep(0.5)
        assert "window_timed_out" in facts["kinds"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
            assert answer.status == 200
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_an_answer_that_overtakes_its_events_offers_no_stale_action(site, site_shell, new_context):
    """`accepted` comes straight back on the socket while the events it caused come through the
    channel layer, so it can arrive first: until they do, the page offers none of the actions of
    the state before (a click on one would be refused), and says why the panel is empty."""
    players, _, _ = started_game(site, site_shell, new_context)
    for page in players.values():
        page.wait_for_function("() => strategium.view.state !== null", timeout=STEP)
    page = next(
        p for p in players.values() if p.evaluate("() => strategium.view.legalActions.length")
    )
    page.evaluate(
        "() => strategium.connection.receive({type: 'accepted', client_id: 'elsewhere',"
        " version: strategium.connection.stateVersion + 1})"
    )
    assert page.evaluate("() => strategium.view.legalActions.length") == 0
    panel = page.inner_text("[data-actions]")
    assert "brought up to date" in panel and "Waiting for your opponent" not in panel
    # The events (here: the answer to `sync`) bring the actions back.
    page.evaluate(
        "() => strategium.connection.send({type: 'sync', since: strategium.connection.version})"
    )
    page.wait_for_function("() => strategium.view.legalActions.length > 0", timeout=STEP)
    assert "brought up to date" not in page.inner_text("[data-actions]")
