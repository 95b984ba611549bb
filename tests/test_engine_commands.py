"""`manage.py selfplay` and `manage.py replay`: thin commands over rules.engine."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from rules import loader
from tests.engine_world import BUNDLE

KEYS = {"seed", "edition", "events", "battle_rounds", "victory_points", "winner", "state_hash"}


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.django_db
def test_selfplay_fails_clearly_when_the_database_has_no_datasheets(monkeypatch):
    monkeypatch.setattr("rules.management.commands.selfplay.export_rules", lambda: {"rulesets": []})
    with pytest.raises(CommandError, match="no datasheets"):
        call_command("selfplay", "--seed", "1", "--edition", "11e")


@pytest.mark.django_db
def test_selfplay_prints_one_summary_and_replay_reproduces_its_hash(monkeypatch, tmp_path):
    monkeypatch.setattr("rules.management.commands.selfplay.export_rules", lambda: BUNDLE)
    log = tmp_path / "game.json"
    result = run("selfplay", "--seed", "3", "--edition", "10e", "--log", str(log))
    assert set(result) == KEYS
    assert result["seed"] == 3 and result["edition"] == "10e" and result["battle_rounds"] == 5
    assert len(result["victory_points"]) == 2
    assert run("selfplay", "--seed", "3", "--edition", "10e") == result
    replayed = run("replay", str(log))
    assert replayed == {"events": result["events"], "state_hash": result["state_hash"]}


@pytest.mark.django_db
def test_selfplay_from_the_loaded_rules_data():
    """Needs the rules data branch: export_rules() then returns datasheets of several factions."""
    loader.load_rules()
    if not loader.export_rules().get("datasheets"):
        pytest.skip("export_rules() has no datasheets on this branch (needs the rulesdata branch)")
    result = run("selfplay", "--seed", "1", "--edition", "11e")
    assert set(result) == KEYS and result["battle_rounds"] == 5
