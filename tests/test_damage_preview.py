"""The damage preview: exact expected values, determinism, errors, command, API, and proof that
the preview and the game run the same step functions on the same dice."""

import json

import numpy as np
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules.engine.attacks import resolution as attack_resolution
from rules.engine.attacks.damage_preview import preview
from rules.engine.attacks.dice import GameDice, GeneratorDice
from rules.engine.attacks.resolution import resolve_weapon_attacks
from rules.engine.core.dice import DiceStream
from tests.attack_helpers import ScriptedDice, attacker, context, unit, weapon
from tests.editions import edition_for


def spec(**overrides):
    base = {
        "attacker": {
            "models": 5,
            "weapon": {
                "range": 24,
                "attacks": "2",
                "skill": 3,
                "strength": 4,
                "ap": 0,
                "damage": "1",
                "abilities": ["rapid fire 2"],
            },
        },
        "target": {
            "models": 30,
            "toughness": 3,
            "save": 5,
            "invulnerable": None,
            "wounds": 1,
            "feel_no_pain": None,
            "keywords": ["INFANTRY"],
        },
        "half_range": True,
        "cover": False,
        "charged": False,
        "edition": "11e",
        "trials": 20000,
        "seed": 1,
    }
    for key, value in overrides.items():
        if key in ("weapon",):
            base["attacker"]["weapon"].update(value)
        elif key == "target":
            base["target"].update(value)
        else:
            base[key] = value
    return base


def mean(result, name):
    return result[name]["mean"]


def test_storm_bolters_mean_matches_hand_arithmetic():
    """20 attacks (5 x (2 + RAPID FIRE 2)); hits 20 x 4/6 = 13.33; wounds (S4 v T3, 3+) x 4/6 =
    8.89; unsaved (Sv 5+) x 4/6 = 5.93; damage D1 = unsaved."""
    result = preview(spec(), edition_for)
    assert mean(result, "attacks") == 20
    assert mean(result, "hits") == pytest.approx(20 * 4 / 6, abs=0.05)
    assert mean(result, "wounds") == pytest.approx(20 * 4 / 6 * 4 / 6, abs=0.05)
    assert mean(result, "unsaved") == pytest.approx(20 * (4 / 6) ** 3, abs=0.05)
    assert mean(result, "damage") == pytest.approx(20 * (4 / 6) ** 3, abs=0.05)
    assert mean(result, "models_destroyed") == pytest.approx(20 * (4 / 6) ** 3, abs=0.05)
    assert sum(result["hits"]["distribution"]) == pytest.approx(1)


def test_torrent_2d6_mean_attacks_and_hits_seven():
    """2D6 averages 7; [TORRENT] hits automatically, so hits average 7 too."""
    data = spec(weapon={"attacks": "2D6", "skill": None, "abilities": ["torrent"]})
    data["attacker"]["models"] = 1
    result = preview(data, edition_for)
    assert mean(result, "attacks") == pytest.approx(7, abs=0.05)
    assert mean(result, "hits") == pytest.approx(7, abs=0.05)


def test_sustained_hits_1_bs4_makes_two_thirds_of_a_hit_per_attack():
    """Per attack: P(hit) 3/6 plus one extra hit on a 6 (1/6) = 4/6; 10 attacks -> 6.67."""
    data = spec(weapon={"skill": 4, "abilities": ["sustained hits 1"]}, half_range=False)
    result = preview(data, edition_for)
    assert mean(result, "hits") == pytest.approx(10 * 4 / 6, abs=0.05)


def test_devastating_wounds_skip_the_save():
    """S4 v T4 BS2+ 10 attacks: hits 10 x 5/6; per hit: critical wound 1/6 skips the save,
    non-critical wound 2/6 fails Sv 3+ with 1/3 -> unsaved per hit 1/6 + 2/18 = 5/18."""
    data = spec(
        weapon={"skill": 2, "abilities": ["devastating wounds"]},
        target={"toughness": 4, "save": 3},
        half_range=False,
    )
    result = preview(data, edition_for)
    assert mean(result, "unsaved") == pytest.approx(10 * 5 / 6 * 5 / 18, abs=0.04)


def test_feel_no_pain_and_melta():
    """MELTA 2 D6 at half range: damage per unsaved 3.5 + 2; FNP 5+ keeps 4/6 of it.
    2 attacks BS 2+ (5/6), S8 v T4 (2+, 5/6), Sv 6+ AP -4 fails always except... the roll of 6
    minus 4 is 2 < 6, so every wound is unsaved; big W so nothing is lost to excess."""
    data = spec(
        weapon={
            "attacks": "2",
            "skill": 2,
            "strength": 8,
            "ap": -4,
            "damage": "D6",
            "abilities": ["melta 2"],
        },
        target={"models": 1, "toughness": 4, "save": 6, "wounds": 100, "feel_no_pain": 5},
    )
    data["attacker"]["models"] = 1
    result = preview(data, edition_for)
    unsaved = 2 * 5 / 6 * 5 / 6
    assert mean(result, "unsaved") == pytest.approx(unsaved, abs=0.03)
    assert mean(result, "damage") == pytest.approx(unsaved * 5.5 * 4 / 6, abs=0.08)


def test_same_seed_same_output_and_fields_are_never_missing():
    first, second = preview(spec(), edition_for), preview(spec(), edition_for)
    assert first == second
    assert set(first) >= {
        "trials",
        "attacks",
        "hits",
        "wounds",
        "unsaved",
        "damage",
        "models_destroyed",
    }
    assert first["trials"] == 20000


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"weapon": {"attacks": "D7"}}, "attacker.weapon.attacks"),
        ({"weapon": {"skill": 9}}, "attacker.weapon.skill"),
        ({"weapon": {"abilities": ["rapid fire"]}}, "attacker.weapon.abilities"),
        ({"target": {"toughness": "four"}}, "target.toughness"),
        ({"edition": "9e"}, "edition"),
        ({"trials": 0}, "trials"),
        ({"half_range": "yes"}, "half_range"),
    ],
)
def test_invalid_spec_names_the_field(change, field):
    from rules.engine.attacks.profiles import AttackInputError

    with pytest.raises(AttackInputError) as error:
        preview(spec(**change), edition_for)
    assert error.value.field == field


def test_command_prints_one_json_object(capsys, rules_loaded):
    call_command("attack_preview", "--json", json.dumps(spec(trials=1000)))
    result = json.loads(capsys.readouterr().out)
    assert result["attacks"]["distribution"][20] == 1.0


def test_command_refuses_invalid_spec_with_the_field_name():
    with pytest.raises(CommandError, match="target.save"):
        call_command("attack_preview", "--json", json.dumps(spec(target={"save": 1})))


def test_command_exits_non_zero_on_invalid_spec():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "manage.py", "attack_preview", "--json", "{}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "attacker" in done.stderr


@pytest.mark.django_db
def test_api_returns_the_same_output_as_the_engine(client, rules_loaded):
    response = client.post(
        "/api/attack-preview/", spec(trials=500), content_type="application/json"
    )
    assert response.status_code == 200
    assert response.json() == json.loads(json.dumps(preview(spec(trials=500), edition_for)))


@pytest.mark.django_db
def test_api_refuses_invalid_spec(client, rules_loaded):
    response = client.post(
        "/api/attack-preview/", spec(edition="9e"), content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == "edition"


@pytest.mark.django_db
def test_openapi_schema_has_the_preview_without_warnings(tmp_path):
    schema_file = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema_file))
    schema = schema_file.read_text()
    assert "/api/attack-preview/:" in schema
    assert "AttackPreviewRequest:" in schema


# --- The game and the preview share the step functions --------------------------------------


class RecordingDice:
    def __init__(self, inner):
        self.inner = inner
        self.values = []

    def roll(self, shape, sides):
        values = self.inner.roll(shape, sides)
        self.values.extend(int(v) for v in np.ravel(values))
        return values


def test_game_dice_record_every_die_with_its_index():
    dice = GameDice(DiceStream("ab" * 32, next_index=7))
    result = resolve_weapon_attacks(
        dice, 1, attacker(weapon(attacks="6")), unit(10, toughness=4, save=4), context()
    )
    records = dice.take_records()
    assert [record["index"] for record in records] == list(range(7, 7 + len(records)))
    hit_dice = result.records[1].tray()["dice"]
    assert [record["value"] for record in records[: len(hit_dice)]] == hit_dice


def test_game_path_reproduces_a_preview_trial_given_the_same_dice():
    """A preview trial (numpy dice) replayed die for die through the game path (one trial,
    scripted dice) gives the same totals and the same dice-tray events."""
    profile = attacker(
        weapon(["sustained hits 1", "devastating wounds"], attacks="D6", damage="D3"), models=3
    )
    target = unit(6, toughness=4, save=4, wounds=2, fnp=6)
    ctx = context()
    recording = RecordingDice(GeneratorDice(11))
    preview_run = resolve_weapon_attacks(recording, 1, profile, target, ctx)
    scripted = ScriptedDice(*recording.values)
    game_run = resolve_weapon_attacks(scripted, 1, profile, target, ctx)
    scripted.assert_used_up()
    for name in ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed"):
        assert getattr(game_run, name).tolist() == getattr(preview_run, name).tolist()
    assert game_run.events() == preview_run.events()


def test_preview_calls_the_same_step_functions_once_over_all_trials(monkeypatch):
    seen = []
    original = attack_resolution.hit_step

    def spy(dice, counts, *args, **kwargs):
        seen.append(counts.shape)
        return original(dice, counts, *args, **kwargs)

    monkeypatch.setattr(attack_resolution, "hit_step", spy)
    preview(spec(trials=300), edition_for)
    assert seen == [(300,)]


@pytest.mark.parametrize(("slug", "expected"), [("11e", 2 / 6 * 1), ("10e", 1 / 6 * 3)])
def test_hazardous_mortal_wounds_on_the_attacker_per_edition(slug, expected):
    """11e 06.03: fails on 1-2, 1 mortal wound; 10e Hazardous: fails on 1, 3 mortal wounds."""
    data = spec(weapon={"abilities": ["hazardous"]}, edition=slug)
    data["attacker"]["models"] = 1
    result = preview(data, edition_for)
    assert mean(result, "hazard_mortal_wounds") == pytest.approx(expected, abs=0.03)


def test_dice_tray_events_for_a_scripted_sequence():
    dice = ScriptedDice(3, 6, 1, 5, 2, 4)  # hits 3 6 1; wounds 5 2 (S4 v T4); save 4 (Sv 3+)
    result = resolve_weapon_attacks(
        dice, 1, attacker(weapon(attacks="3")), unit(5, toughness=4, save=3), context()
    )
    events = {event["step"]: event for event in result.events()}
    assert events["hit_roll"]["summary"] == "3 hit rolls, BS 3+: 2 hits, 1 critical"
    assert events["wound_roll"]["summary"] == "2 wound rolls, needing 4+: 1 wound"
    assert events["save_roll"]["summary"] == "1 save roll, Sv 3+: 1 saved"
    assert events["damage"]["summary"] == "0 wounds lost"
    assert events["hit_roll"]["rule"] == "05.01"
    dice.assert_used_up()
