"""The game page's side column as a new player met it (playtest of 2026-12-05, 11e, Grey Knights
against Astra Militarum): the "Just now" line squeezed to one line by the action panel, the log
left behind its newest entries once a stratagem window had grown the panel above it, a pinned
datacard that Escape did not close, the button that ends a step half hidden at the foot of the
panel, and the game's links left open above the board all battle."""

import pytest

from tests.browser.table_helpers import (
    fixture_call,
    join_game,
    open_game,
    person,
    save_screenshot,
    screen_point,
    show_tab,
)

pytestmark = pytest.mark.browser
TIMEOUT = 15_000


def test_just_now_shows_its_whole_line_beside_a_stratagem_window(laptop_players, site_shell):
    """Seen: "Just now: grey removes no more units by Teleport Assault" cut after its first line
    while a stratagem window filled the action panel (the flex column shrank the line)."""
    fixture_call(site_shell, f"store_window_game({laptop_players['id']})")
    alice = laptop_players["alice"]
    open_game(alice, laptop_players["url"])
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


def test_escape_closes_a_pinned_datacard(laptop_players, site_shell):
    """Seen: a click on an enemy model pins its datacard over a third of the board, and it stayed
    there through the Shooting, Charge and Fight phases; Escape left it."""
    scene = fixture_call(site_shell, f"store_shooting_scene({laptop_players['id']})")
    alice = laptop_players["alice"]
    view = open_game(alice, laptop_players["url"])
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


@pytest.mark.parametrize("viewport", [(1440, 900), (1024, 768)])
def test_the_button_that_ends_the_step_stays_in_sight(site, new_context, site_shell, viewport):
    """Seen at 1440x900: "Declare reserves" half hidden under the step's hint at the foot of the
    action panel, with the game's links open above the board; at 1024x768 the same of "End
    Movement phase". The panel's offers scroll; its last button stays in sight."""
    size = {"width": viewport[0], "height": viewport[1]}
    two = join_game(
        new_context("alice", viewport=size).new_page(),
        new_context("bob", viewport=size).new_page(),
        site,
        (person("nova"), person("nils")),
    )
    stored = fixture_call(site_shell, f"store_set_up_step_game({two['id']}, 'declare_reserves')")
    page = two["alice" if stored["awaiting"] == 1 else "bob"]
    page.goto(two["url"])
    finish = page.locator("[data-actions] button[data-action=declare_reserves]")
    finish.wait_for(timeout=TIMEOUT)
    page.locator("details.game-info summary").click()  # the links open, as the playtest had them
    assert page.locator("details.game-info").evaluate("d => d.open")
    panel = page.locator("[data-actions]")
    scrolls = panel.evaluate("p => p.scrollHeight > p.clientHeight + 1")
    shown = panel.evaluate(
        """(panel) => {
            const box = panel.getBoundingClientRect();
            const button = panel.querySelector('button[data-action=declare_reserves]')
                .getBoundingClientRect();
            return button.top >= box.top - 1 && button.bottom <= box.bottom + 1;
        }"""
    )
    save_screenshot(page, f"side-column-declare-reserves-{viewport[0]}x{viewport[1]}")
    assert shown, (viewport, scrolls)
    save_screenshot(page, f"side-column-declare-reserves-{viewport[0]}x{viewport[1]}")


def test_the_game_links_close_once_the_game_is_played_unless_the_player_chose(site, new_context):
    """The links and controls are open while the game is set up (the invite to share) and close
    when it is played, so that they do not push the board down all battle; a player who opened
    or closed them keeps them so."""
    page = new_context("reader").new_page()
    page.goto(f"{site}/")
    said = page.evaluate(
        """async () => {
            const { renderHeader } = await import('/static/js/game_header.js');
            const header = document.createElement('header');
            header.dataset.gameHeader = '';
            const box = document.createElement('details');
            box.dataset.openWhen = 'waiting mustering';
            box.open = true;
            box.append(Object.assign(document.createElement('summary'), { textContent: 'links' }));
            header.append(box);
            document.body.prepend(header);
            const settle = () => new Promise((r) => setTimeout(r, 50));
            renderHeader({ status: 'mustering' }, 1);
            await settle();
            const mustering = box.open;
            renderHeader({ status: 'deployment' }, 1);
            await settle();
            const played = box.open;
            box.querySelector('summary').click();  // the player opens it
            await settle();
            renderHeader({ status: 'battle' }, 1);
            await settle();
            const chosen = box.open;
            return { mustering, played, chosen };
        }"""
    )
    assert said == {"mustering": True, "played": False, "chosen": True}, said
