"""The game log in words, in real Chromium: every event of real games reads as a sentence with the
names a player sees, never as its raw type ("coherency lost", "unit fought" were seen), an id or
"undefined". The recorded self-played games of both rule sets (tests/data/compat) go through the
page's own log (`log.js`, `describe.js`), and a game played to its end on the served site is read
in the Log tab."""

from __future__ import annotations

import re

import pytest

from tests.browser.table_helpers import save_screenshot, show_tab
from tests.browser.test_game_flow_in_chromium import flow, started_game, wait_for_history

pytestmark = pytest.mark.browser

# What a line must never show: a protocol value, or a unit or model id ("p1-u2-m5", "p1 u2").
UNSAID = re.compile(r"undefined|NaN|\[object|\bnull\b|\bp[12][- ]u\d+")


def unworded(kind: str, text: str) -> bool:
    """The log's fallback for an event without words is its type with spaces."""
    return text.strip().lower() == kind.replace("_", " ")


def check_lines(lines: list[list[str]], names: tuple[str, str] = ("nova", "nils")) -> None:
    wrong = {kind: text for kind, text in lines if unworded(kind, text) or UNSAID.search(text)}
    assert not wrong, wrong
    # An answer reads as what the player did ("nils takes the second turn"), not as its button
    # after a colon ("nils: Take the second turn") nor as the protocol's value ("nils chose
    # second").
    answers = [text for kind, text in lines if kind == "decision_made"]
    assert answers
    wrong = [
        text
        for text in answers
        if not re.match(rf"({'|'.join(names)}) [a-z]", text) or " chose " in text
    ]
    assert not wrong, wrong


def recorded_games() -> list[dict]:
    """Each recorded game's events (numbered as the site numbers them) and the names its log
    reads from the final state."""
    from tests.compat_games import load, replay_game

    data = load()
    games = []
    for record in data["games"]:
        state, events = replay_game(record, data["setups"][record["setup"]])
        names = {
            "units": state["units"],
            "stratagems": {s: {"name": r["name"]} for s, r in state["stratagems"].items()},
            "mission": {"name": state["mission"].get("name")},
            "phase": None,
            "active_player": 1,
        }
        numbered = [{**event, "sequence": n} for n, event in enumerate(events, 1)]
        games.append({"state": names, "events": numbered})
    return games


READ_THE_LOG = """async (games) => {
    const describe = await import('/static/js/describe.js');
    const { GameLog } = await import('/static/js/log.js');
    describe.setPlayerNames({ 1: 'nova', 2: 'nils' });
    const lines = [];
    for (const game of games) {
        const list = document.createElement('ol');
        document.body.append(list);
        new GameLog(list).add(game.events, game.state);
        for (const line of list.querySelectorAll('li[data-kind]')) {
            lines.push([line.dataset.kind, line.firstChild.textContent]);
        }
        for (const head of list.querySelectorAll('.headline-row')) {
            lines.push(['headline', head.textContent]);
        }
        list.remove();
    }
    return lines;
}"""


def test_every_event_of_the_recorded_games_reads_as_a_sentence(site, new_context):
    games = recorded_games()
    emitted = {event["type"] for game in games for event in game["events"]}
    # Kinds the log used to show raw, which the recorded games hold.
    for kind in ("coherency_lost", "unit_fought", "fight_step_ended", "explosives_thrown"):
        assert kind in emitted, kind
    page = new_context("reader").new_page()
    page.goto(f"{site}/")
    lines = page.evaluate(READ_THE_LOG, games)
    said = {kind for kind, _ in lines}
    assert {"coherency_lost", "unit_fought", "fight_step_ended", "advance_roll_replaced"} <= said
    check_lines(lines)
    by_kind = {kind: text for kind, text in lines}
    assert re.search(
        r": [^:]+ is removed at the end of the turn, out of unit coherency \(not "
        r'within 2" of another model of its unit\)$',
        by_kind["coherency_lost"],
    ), by_kind["coherency_lost"]
    assert by_kind["unit_fought"].endswith(" has fought"), by_kind["unit_fought"]
    assert re.match(
        r"(nova|nils) makes no more (pile-in|consolidation) moves$", by_kind["fight_step_ended"]
    )
    assert re.search(r"throws explosives at .+: \d mortal wounds?$", by_kind["explosives_thrown"])


def test_a_whole_game_s_log_reads_as_sentences(site, site_shell, new_context):
    players, game_id, _ = started_game(site, site_shell, new_context)
    played = flow(site_shell, f"play_on({game_id}, events=10**6)")
    assert played["stage"] == "ended", played
    alice = players[1]
    alice.reload()
    alice.wait_for_selector("[data-board] .model")
    wait_for_history(alice, played["version"])
    show_tab(alice, "log")
    lines = alice.evaluate(
        """() => [...document.querySelectorAll('[data-log] li[data-kind]')].map(
            (l) => [l.dataset.kind, l.firstChild.textContent]).concat(
            [...document.querySelectorAll('[data-log] .headline-row')].map(
            (h) => ['headline', h.textContent]))"""
    )
    assert len(lines) > 100, len(lines)
    names = tuple(alice.locator(f"[data-player-name='{p}']").inner_text() for p in (1, 2))
    check_lines(lines, names)
    assert any(kind == "battle_ended" for kind, _ in lines)
    first = [
        t for k, t in lines if k == "headline" and re.search(r"takes the (first|second) turn", t)
    ]
    assert first and re.match(r"\d+\.\S+ takes the (first|second) turn", first[0]), first
    save_screenshot(alice, "log-words-whole-game")
