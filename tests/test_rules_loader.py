import json
from io import StringIO

import pytest
from django.core.management import call_command

from rules.loader import DATA_DIR
from rules.models import RuleSet


@pytest.mark.django_db
def test_load_rules_twice_changes_nothing_the_second_time():
    first, second = StringIO(), StringIO()
    call_command("load_rules", stdout=first)
    call_command("load_rules", stdout=second)
    assert "0 created, 0 changed" in second.getvalue()
    assert set(RuleSet.objects.values_list("slug", flat=True)) >= {"10e", "11e"}
    assert RuleSet.objects.get(is_default=True).slug == "11e"


@pytest.mark.django_db
def test_export_rules_reproduces_the_data_files():
    call_command("load_rules", stdout=StringIO())
    out = StringIO()
    call_command("export_rules", stdout=out)
    exported = json.loads(out.getvalue())
    on_disk = json.loads((DATA_DIR / "rulesets.json").read_text())
    identities = [{k: r[k] for k in ("slug", "name", "is_default", "source")} for r in on_disk]
    assert exported["rulesets"] == sorted(identities, key=lambda r: r["slug"])
