"""An organiser's edit in the admin never damages the rules data (issue 18): saving any record
of the project's rules data without changes leaves the bundle export byte-identical, and a
datasheet's multi-line wargear options survive an edit and its undoing."""

from __future__ import annotations

import json

import pytest

from rules.loader import export_rules, load_rules
from rules.models import Datasheet, Detachment, Stratagem, UnitSize
from tests.test_rules_admin import _form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, staff_user):
    load_rules()
    client.force_login(staff_user)
    return client


def exported() -> str:
    """The export as `manage.py export_rules` writes it: the bytes that must not change."""
    return json.dumps(export_rules(), indent=2, ensure_ascii=False)


def save_unchanged(client, model_name: str, pk: int) -> None:
    url = f"/admin/rules/{model_name}/{pk}/change/"
    response = client.post(url, _form_data(client.get(url)))
    assert response.status_code == 302, (model_name, pk, response.context["errors"])


def test_saving_every_datasheet_stratagem_and_detachment_unchanged_changes_no_byte(
    staff_client,
):
    before = exported()
    saved = 0
    for model in (Datasheet, Stratagem, Detachment):
        for pk in model.objects.order_by("pk").values_list("pk", flat=True):
            save_unchanged(staff_client, model._meta.model_name, pk)
            saved += 1
    assert saved == Datasheet.objects.count() + Stratagem.objects.count() + (
        Detachment.objects.count()
    )
    assert saved >= 90  # 19 datasheets, 63 stratagems, 14 detachments in rules/data
    assert exported() == before


def test_changing_the_points_and_back_keeps_multi_line_wargear_options(staff_client):
    """The datasheet from the issue: each wargear option is one item of several lines."""
    datasheet = next(
        d for d in Datasheet.objects.all() if any("\n" in o for o in d.wargear_options)
    )
    options = list(datasheet.wargear_options)
    before = exported()
    url = f"/admin/rules/datasheet/{datasheet.pk}/change/"
    size = UnitSize.objects.filter(datasheet=datasheet).order_by("pk").first()
    data = _form_data(staff_client.get(url))
    points_key = next(k for k, v in data.items() if k.endswith("-points") and v == size.points)
    changed = {**data, points_key: size.points + 5}
    # A browser sends the textarea back with CRLF line endings.
    changed["wargear_options"] = data["wargear_options"].replace("\n", "\r\n")
    assert staff_client.post(url, changed).status_code == 302
    datasheet.refresh_from_db()
    assert datasheet.wargear_options == options
    data = _form_data(staff_client.get(url))
    assert staff_client.post(url, {**data, points_key: size.points}).status_code == 302
    assert exported() == before
