"""The data files cover the catalogue: every unit/faction ability, stratagem, detachment,
enhancement and datasheet ID of CATALOGUE.md sections 4-7 has a record carrying that
`catalogue_id`, and every dice expression and weapon ability in the records parses."""

import re

import pytest

from rules.engine.core.notation import format_weapon_abilities, parse_dice, parse_weapon_abilities
from tests.rules_data_files import BUNDLE_KINDS, nested_dicts, records, seed_lines, shared_dir

# The catalogue marks these as printed without their text (GAP); their records keep the name,
# points and stratagems the seeds do print, and stay unselectable until the text is supplied.
NO_PRINTED_TEXT = {
    "E-BLACKWEAVE-SHROUD": "enhancement text not in the seeds (CATALOGUE 6.2, AMB-19)",
    "E-DAEMON-SLAYER": "enhancement text not in the seeds (CATALOGUE 6.2, AMB-19)",
    "E-LAUD-HAILER": "enhancement text not in the seeds (CATALOGUE 6.2, AMB-19)",
    "D-IA-ALIEN-HUNTERS": "detachment rule not in the seeds (CATALOGUE 6.1, AMB-20)",
    "D-IA-VEILED-BLADE": "detachment rule not in the seeds (CATALOGUE 6.1, AMB-20)",
    "D-AM-COMBINED-ARMS": "detachment rule not in the seeds (CATALOGUE 6.1, AMB-20)",
    "D-AM-RECON-ELEMENT": "detachment rule not in the seeds (CATALOGUE 6.1, AMB-20)",
    "D-AM-STEEL-HAMMER": "detachment rule not in the seeds (CATALOGUE 6.1, AMB-20)",
}
_ID_ROW = re.compile(r"^\| ((?:UA|S|D|E)-[A-Z0-9-]+) \|")
_DATASHEET_HEADING = re.compile(r"^### (DS-[A-Z0-9-]+) ")
_BRACKETED = re.compile(r"\[([^\[\]]+)\]")
_DICE_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])(\d*D[36](?:[+-]\d+)?)(?![A-Za-z0-9])")


def catalogue_ids() -> set[str]:
    """IDs of sections 4 (unit abilities) to 7 (datasheets) of CATALOGUE.md."""
    text = (shared_dir() / "rules" / "CATALOGUE.md").read_text(encoding="utf-8")
    start = text.index("\n## 4. Unit abilities")
    end = text.index("\n## 8. ")
    ids = set()
    for line in text[start:end].splitlines():
        if match := _ID_ROW.match(line) or _DATASHEET_HEADING.match(line):
            ids.add(match.group(1))
    return ids


def ids_in_data() -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for kind in BUNDLE_KINDS:
        for _, record in records(kind):
            for item in nested_dicts(record):
                if item.get("catalogue_id"):
                    found.setdefault(item["catalogue_id"], []).append(item)
    return found


def printed_texts(item: dict) -> list[str]:
    fields = ("text", "when_text", "target_text", "effect_text", "restrictions_text")
    texts = [item[field] for field in fields if item.get(field)]
    texts += [rule["text"] for rule in item.get("rules", [])]
    return texts


def test_the_catalogue_lists_what_its_appendix_counts():
    ids = catalogue_ids()
    by_prefix = {prefix: {i for i in ids if i.startswith(prefix + "-")} for prefix in ("UA", "S")}
    assert len(by_prefix["UA"]) == 27  # Appendix B: 9 core, 3 faction, 8 Orders, 7 datasheet
    assert len(by_prefix["S"]) == 63  # Appendix B: 63 stratagem entries
    assert len({i for i in ids if i.startswith("D-")}) == 14
    assert len({i for i in ids if i.startswith("E-")}) == 20
    assert {i for i in ids if i.startswith("DS-")} == {
        "DS-INQUISITOR",
        "DS-DEATH-RIDER-COMMISSAR",
        "DS-STRIKE-SQUAD",
    }


def test_every_catalogue_item_has_a_record():
    missing = sorted(catalogue_ids() - set(ids_in_data()))
    assert not missing, f"no record carries catalogue_id {missing}"


def test_every_catalogue_id_in_the_data_is_in_the_catalogue():
    unknown = sorted(set(ids_in_data()) - catalogue_ids())
    assert not unknown


def test_each_stratagem_entry_has_exactly_one_record():
    for catalogue_id, items in ids_in_data().items():
        if catalogue_id.startswith("S-"):
            assert len(items) == 1, catalogue_id


@pytest.mark.parametrize("catalogue_id", sorted(NO_PRINTED_TEXT))
def test_items_without_printed_text_are_exactly_the_catalogued_gaps(catalogue_id):
    (item,) = ids_in_data()[catalogue_id]
    assert printed_texts(item) == [], f"{catalogue_id} now has text: drop it from the list"


def test_every_other_catalogue_item_carries_its_printed_text():
    for catalogue_id, items in ids_in_data().items():
        if catalogue_id in NO_PRINTED_TEXT or catalogue_id.startswith("DS-"):
            continue
        for item in items:
            if item.get("kind") in {"core", "faction"} and "slug" not in item:
                continue  # a datasheet naming a core/faction ability; its record has the text
            assert printed_texts(item), f"{catalogue_id}: no text"


def test_weapon_characteristics_and_abilities_parse_in_canonical_spelling():
    for _, sheet in records("datasheets"):
        for weapon in sheet["weapons"]:
            parse_dice(weapon["A"])
            parse_dice(weapon["D"])
            parsed = parse_weapon_abilities(weapon["abilities"])
            assert format_weapon_abilities(parsed) == weapon["abilities"], weapon["name"]


def test_dice_and_weapon_abilities_quoted_in_rules_texts_parse():
    quoted_abilities, quoted_dice = 0, 0
    for kind in BUNDLE_KINDS:
        for _, record in records(kind):
            for item in nested_dicts(record):
                for text in printed_texts(item):
                    for bracket in _BRACKETED.findall(text):
                        parse_weapon_abilities(bracket)
                        quoted_abilities += 1
                    for dice in _DICE_IN_TEXT.findall(text):
                        parse_dice(dice)
                        quoted_dice += 1
    assert quoted_abilities > 20 and quoted_dice > 5  # the texts were actually read


def seeds_cited(source: str) -> list[str]:
    return re.findall(r"seed (\d{3})", source)


def test_texts_are_the_seeds_wording():
    """Each line of every printed text occurs in a seed its record cites: no paraphrase."""
    checked = 0
    for kind in BUNDLE_KINDS:
        for _, record in records(kind):
            cited = seeds_cited(record.get("source", ""))
            if not cited:
                continue  # published data: not from a seed
            corpus = "\n".join("\n".join(seed_lines(seed)) for seed in cited)
            for item in nested_dicts(record):
                for text in printed_texts(item):
                    for line in text.split("\n"):
                        assert line in corpus, f"{record['slug']}: {line!r} is not in {cited}"
                        checked += 1
    assert checked > 300
