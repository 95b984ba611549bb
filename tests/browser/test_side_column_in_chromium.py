"""The game page's side column as a new player met it (playtest of 2026-12-05, 11e, Grey Knights
against Astra Militarum): the "Just now" line squeezed to one line by the action panel, the log
left behind its newest entries once a stratagem window had grown the panel above it, and a
pinned datacard that Escape did not close."""

import pytest

from tests.browser.table_helpers import (
    fixture_call,
    open_game,
    players_in_a_game,
    save_screenshot,
    screen_point,
    show_tab,
)

pytestmark = pytest.mark.browser
TIMEOUT = 15_000


@pytest.fixture
def two_players(site, new_context):
    return players_in_a_game(
        site, new_context, ("nova", "nils"), viewport={"width": 1440, "height": 900}
    )


def test_just_now_shows_its_whole_line_beside_a_stratagem_window(two_players, site_shell):
    """Seen: "Just now: grey removes no more units by Teleport Assault" cut after its first line
    while a stratagem window filled the action panel (the flex column shrank the line)."""
    fixture_call(site_shell, f"store_window_game({two_players['id']})")
    alice = two_players["alice"]
    open_game(alice, two_players["url"])
    alice.locator("[data-actions] .offer").first.wait_for(timeout=TIMEOUT)
    latest = alice.locator("[data-latest]")
    alice.evaluate(
        "() => { document.querySelector('[data-latest]').hidden = false;"
        " document.querySelector('[data-latest-text]').textContent ="
        " 'nova removes no more units by Teleport Assault and then some more words to wrap"
        " onto a second line of the column'; }"
    )
    assert latest.is_visible()
    fits = latest.evaluate("p => [p.scrollHeight, p.clientHeight]")
    assert fits[0] <= fits[1] + 1, fits  # nothing of the line is cut off
    save_screenshot(alice, "side-column-just-now")


def test_the_log_keeps_to_its_newest_entry_when_the_panel_above_it_grows(site, new_context):
    page = new_context("reader", viewport={"width": 1440, "height": 900}).new_page()
    page.goto(f"{site}/")
    said = page.evaluate(
        """async () => {
            const { GameLog } = await import('/static/js/log.js');
            const list = document.createElement('ol');
            list.style.cssText = 'height: 300px; overflow-y: auto; font-size: 14px;';
            document.body.append(list);
            const log = new GameLog(list);
            const state = { units: {}, active_player: 1, phase: 'movement' };
            let sequence = 0;
            const more = (n) => {
                const events = [];
                for (let i = 0; i < n; i++) {
                    events.push({ sequence: ++sequence, kind: 'action_applied',
                                  action: { type: 'end_phase', player: 1 } });
                    events.push({ sequence: ++sequence, kind: 'phase_started', player: 1,
                                  phase: 'movement' });
                }
                log.add(events, state);
            };
            const atEnd = () => list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
            more(30);
            const first = atEnd();
            // The panel above grows: the log is shorter, no scroll of the reader's.
            list.style.height = '150px';
            await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
            more(3);
            const afterShrink = atEnd();
            // The reader scrolls back to read: new entries leave them where they are.
            list.scrollTop = 0;
            await new Promise((r) => setTimeout(r, 50));
            more(3);
            return { first, afterShrink, readerKept: list.scrollTop === 0 };
        }"""
    )
    assert said == {"first": True, "afterShrink": True, "readerKept": True}, said


def test_escape_closes_a_pinned_datacard(two_players, site_shell):
    """Seen: a click on an enemy model pins its datacard over a third of the board, and it stayed
    there through the Shooting, Charge and Fight phases; Escape left it."""
    scene = fixture_call(site_shell, f"store_shooting_scene({two_players['id']})")
    alice = two_players["alice"]
    view = open_game(alice, two_players["url"])
    enemy = view["state"]["units"][scene["near"]]
    model = next(m for m in enemy["models"] if m["wounds_left"] > 0)
    alice.mouse.click(*screen_point(alice, model["x"], model["y"]))
    card = alice.locator("[data-datacard]")
    card.wait_for(timeout=TIMEOUT)
    alice.mouse.move(5, 5)  # away from the board: a pinned card stays
    alice.wait_for_timeout(200)
    assert card.is_visible()
    show_tab(alice, "log")  # focus is on the page, not in a field
    alice.keyboard.press("Escape")
    card.wait_for(state="hidden", timeout=TIMEOUT)
