"""Every decision kind the engine can push has its options in words in the browser.

The kinds are collected from the engine's source by the engine snapshot's scan
(`tests.engine_snapshot.decision_kinds`: each `push_decision(ctx, player, KIND, ...)` call, its
kind a string or a string constant of its module or imported from another engine module), so a
new kind without an entry in `static/js/describe.js`'s `DECISION_WORDS` (its options),
`DECISION_THIRD_PERSON` (the decision in the log) or `DECISION_ANSWERS` (its answer in the log)
fails here instead of reaching players as raw
JSON or as a prompt in the second person.
"""

import re
from pathlib import Path

from tests.browser.js_literals import english, english_in
from tests.engine_snapshot import decision_kinds

ROOT = Path(__file__).resolve().parents[2]
DESCRIBE = ROOT / "static" / "js" / "describe.js"


def labelled_kinds(table: str = "DECISION_WORDS") -> set[str]:
    text = DESCRIBE.read_text()
    block = text[text.index(f"export const {table} = {{") :]
    block = block[: block.index("\n};")]
    return set(re.findall(r"^  ([a-z_]+):", block, flags=re.MULTILINE))


def test_the_scan_finds_the_engine_decisions():
    kinds = decision_kinds()
    for kind in (
        "issue_order",
        "select_units",
        "ability_choice",
        "normal_move",
        "redeploy_unit",
        "stratagem_arrival",
    ):
        assert kind in kinds


def test_every_decision_kind_the_engine_pushes_has_words_in_describe_js():
    missing = sorted(set(decision_kinds()) - labelled_kinds())
    assert not missing, f"decision kinds without words in static/js/describe.js: {missing}"


def test_every_decision_kind_the_engine_pushes_is_said_in_the_third_person():
    """The log and the other readers say who decides what ("alice won the roll-off and
    chooses..."), never the engine's prompt to the player deciding ("You won the roll-off")."""
    missing = sorted(set(decision_kinds()) - labelled_kinds("DECISION_THIRD_PERSON"))
    assert not missing, f"decision kinds without DECISION_THIRD_PERSON words: {missing}"


def test_every_decision_kind_the_engine_pushes_has_its_answer_as_a_statement():
    """The log says an answer as what the player did ("alice takes the first turn"), never as
    its button read ("alice: Take the first turn")."""
    missing = sorted(set(decision_kinds()) - labelled_kinds("DECISION_ANSWERS"))
    assert not missing, f"decision kinds without DECISION_ANSWERS words: {missing}"


def test_every_action_type_has_a_panel_or_words_on_its_button():
    """An action the action panel has no section for goes under "Other actions" with its words
    from `describe.js`'s `ACTION_WORDS` (a dragged move's in `MOVE_WORDS`, a one-button unit
    action's in `UNIT_ACTION_LABELS`); without them a player would read the protocol's type
    ("end scouts")."""
    from rules.engine.sequence.game import PHASES, SETUP_ACTIONS

    types = {kind for actions in SETUP_ACTIONS.values() for kind in actions}
    types |= {kind for phase in PHASES.values() for kind in phase.actions}
    panel = (ROOT / "static" / "js" / "action_panel.js").read_text()
    known = panel[panel.index("const known = new Set([") :]
    known = known[: known.index("]);")]
    shown = set(re.findall(r'"([a-z_]+)"', known))
    text = DESCRIBE.read_text()
    for table in ("MOVE_WORDS", "UNIT_ACTION_LABELS", "ACTION_WORDS"):
        block = text[text.index(f"const {table} = {{") :]
        shown |= set(re.findall(r"([a-z_]+):", block[: block.index("}")]))
    shown.add("embark")  # its button names the unit and the transport (action_panel.js)
    assert types - shown == set(), sorted(types - shown)


def worded_event_kinds() -> set[str]:
    text = DESCRIBE.read_text()
    block = text[text.index("const WORDS = {") :]
    block = block[: block.index("\n};")]
    return set(re.findall(r"^  ([a-z_]+):", block, flags=re.MULTILINE))


def test_the_scan_finds_the_engine_events():
    from games.results import CONCEDED
    from tests.engine_snapshot import event_kinds

    kinds = event_kinds()
    for kind in ("unit_moved", "coherency_lost", "unit_fought", "window_timed_out", CONCEDED):
        assert kind in kinds


def test_every_event_kind_the_engine_emits_has_words_in_describe_js():
    """Each event the log can show has a sentence (or `null`, said to be bookkeeping) in
    `describe.js`'s `WORDS`; without one the log showed its raw type ("coherency lost",
    "unit fought")."""
    from tests.engine_snapshot import event_kinds

    missing = sorted(set(event_kinds()) - worded_event_kinds())
    assert not missing, f"event kinds without words in static/js/describe.js: {missing}"


def test_no_page_script_shows_english_of_its_own():
    """Every word the browser shows comes from the server's names or from `describe.js`, the one
    wording module: a string or template literal that reads as English ("Drag … into place",
    "Other actions", "Shoot") in any other script of static/js fails here (a message for the
    console or a thrown error, not shown, is left out)."""
    scripts = sorted((ROOT / "static" / "js").glob("*.js"))
    assert {"action_panel.js", "tracker.js", "stratagem_offers.js", "game.js"} <= {
        p.name for p in scripts
    }
    found = [
        f"{path.name}:{line}: {text!r}"
        for path in scripts
        if path != DESCRIBE
        for line, text in english(path)
    ]
    assert not found, "English outside static/js/describe.js:\n" + "\n".join(found)


def test_the_scan_finds_words_in_strings_and_templates_not_in_code():
    source = """
    // A comment: Drag it into place.
    const hint = `Drag ${unitName(state, template.unit, "Not this")} into place`;
    box.append(section("Other actions"), button("Shoot", { action: "shoot" }));
    page.querySelector("[data-actions] button.end-phase");
    element.className = "hint step-waiting";
    const tidy = /, or done\\.$/;
    if (event.key !== "Escape") console.warn("state patch not applied", error);
    throw new Error(`unknown op ${op}`);
    """
    said = [text for _line, text in english_in(source)]
    assert said == ["Drag ", "Not this", " into place", "Other actions", "Shoot"], said
