"""The set-up steps before the battle as the player not asked and a spectator see them, in real
Chromium: not "Waiting for your opponent" but the step and what the other player is doing, in the
third person with their name, in the server's words (`state.display.steps[stage].others`) with the
rule set's numbers and citation (observations of 2026-12-01: during every step the other seat
read only "Waiting for your opponent")."""

import pytest

from tests.browser.table_helpers import (
    fixture_call,
    join_game,
    page_view,
    person,
    save_screenshot,
)
from tests.browser.test_new_player_in_chromium import open_set_up

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("edition", "stage", "doing", "words"),
    [
        ("11e", "declare_reserves", "is declaring reserves", ["50% of the points limit"]),
        ("10e", "declare_reserves", "is declaring reserves", ["25% of the points limit"]),
        ("11e", "deployment", "is deploying", ['Infiltrators (24.20): anywhere more than 8"']),
        ("10e", "deployment", "is deploying", ['Infiltrators: anywhere more than 9"']),
        ("11e", "first_turn", "won the roll-off", ["chooses who takes the first turn"]),
        ("11e", "scouts", "is making Scout moves", ['ending more than 8" from every enemy']),
    ],
)
def test_the_player_not_asked_and_a_spectator_read_what_the_other_player_is_doing(
    site, new_context, site_shell, edition, stage, doing, words
):
    """Both seats and a spectator: the seat whose step it is reads the step's line to itself
    (`data-step-hint`); the other seat and the spectator read "<name> is deploying: …" with the
    citation, and neither reads "Waiting for your opponent" nor the line meant for the player
    asked."""
    names = (person("nova"), person("nils"))
    two = join_game(
        new_context("alice").new_page(), new_context("bob").new_page(), site, names, edition
    )
    call = (
        f"store_scouts_game({two['id']})"
        if stage == "scouts"
        else f"store_set_up_step_game({two['id']}, {stage!r}, {edition!r})"
    )
    asked_seat = fixture_call(site_shell, call)["awaiting"]
    asked = two["alice" if asked_seat == 1 else "bob"]
    waiting = two["bob" if asked_seat == 1 else "alice"]
    view = open_set_up(asked, two["url"])
    step = view["state"]["display"]["steps"][stage]
    assert asked.locator(f"[data-actions] [data-step-hint={stage}]").is_visible()
    assert not asked.locator("[data-actions] [data-step-waiting]").count()

    spectator = new_context("spectator").new_page()
    spectator.goto(two["watch"])  # no model on the board before deployment: wait for the line
    spectator.wait_for_selector(f"[data-actions] [data-step-waiting={stage}]")
    open_set_up(waiting, two["url"])
    assert page_view(waiting)["legal"] == []
    expected = f"{names[asked_seat - 1]} {step['others']} {step['rule']}"
    for page in (waiting, spectator):
        line = page.locator(f"[data-actions] [data-step-waiting={stage}]")
        text = line.inner_text()
        assert text == expected, text
        assert text.startswith(f"{names[asked_seat - 1]} {doing}"), text
        for said in words:
            assert said in text, (said, text)
        assert line.locator("cite").inner_text() == step["rule"]
        panel = page.inner_text("[data-actions]")
        assert "Waiting for your opponent" not in panel, panel
        assert step["text"] not in panel, panel
        assert not page.locator("[data-actions] [data-step-hint]").count()
    # The other seat's panel says no more than the step (the step's own decision, the roll-off
    # winner's choice, is not said again as "… is deciding…").
    assert waiting.locator("[data-actions] [data-waiting]").inner_text() == expected
    save_screenshot(waiting, f"waiting-step-{stage}-{edition}")
    save_screenshot(spectator, f"spectator-step-{stage}-{edition}")


def test_another_rules_question_during_a_step_is_said_beside_the_step(
    site, new_context, site_shell
):
    """A question asked during a step that is not the step's own (Clandestine Operation's
    selection while reserves are declared) is said beside the step's line ("bob is deciding…");
    the step's own decision (the redeployments' selection) is not said twice; the player asked
    reads no third-person line."""
    two = join_game(
        new_context("alice").new_page(),
        new_context("bob").new_page(),
        site,
        (person("nova"), person("nils")),
    )
    fixture_call(site_shell, f"store_set_up_step_game({two['id']}, 'deployment')")
    steps = open_set_up(two["alice"], two["url"])["state"]["display"]["steps"]
    said = two["alice"].evaluate(
        """async (steps) => {
            const describe = await import('/static/js/describe.js');
            const { ActionPanel } = await import('/static/js/action_panel.js');
            describe.useServerNames({ display: { steps } });
            describe.setPlayerNames({ 1: 'vera', 2: 'otto' });
            const render = (stage, kind, seat) => {
                const box = document.createElement('div');
                const panel = new ActionPanel(box, { send() {}, sendThen() {}, select() {},
                    place() {}, confirmPlacement() {}, cancelPlacement() {},
                    prefs: { skies: new Set(), order: {} }, changed() {} });
                const state = { stage, awaiting: 1, players: {}, units: {}, pending: [{ id: 'd1',
                    kind, player: 1, prompt: 'Select a unit, or done.', options: ['done'] }] };
                panel.render({ state, seat, legalActions: [] });
                const step = box.querySelector('[data-step-waiting]');
                return { step: step ? step.dataset.stepWaiting : null,
                         lines: [...box.querySelectorAll('p')].map((p) => p.textContent) };
            };
            return { reserves: render('declare_reserves', 'select_units', 2),
                     redeployment: render('redeployment', 'select_units', 2),
                     watching: render('redeployment', 'redeploy_unit', null),
                     asked: render('redeployment', 'select_units', 1) };
        }""",
        steps,
    )
    reserves, redeployment = steps["declare_reserves"], steps["redeployment"]
    line = f"vera {reserves['others']} {reserves['rule']}"
    assert said["reserves"] == {
        "step": "declare_reserves",
        "lines": [line, "vera is deciding…"],
    }, said
    line = f"vera {redeployment['others']} {redeployment['rule']}"
    assert said["redeployment"] == {"step": "redeployment", "lines": [line]}, said
    assert said["watching"]["step"] == "redeployment", said
    assert said["watching"]["lines"][1:] == [line], said
    assert said["asked"]["step"] is None, said
