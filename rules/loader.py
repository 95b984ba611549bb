"""Load bundles of rules data (`docs/rules-data-format.md`) into the database, and write it back.

`load_rules()` loads every `*.json` under `rules/data/` in one transaction; `load_bundle()` loads
one bundle (the Wahapedia importer's way in); `export_rules()` gives the whole database as one
bundle, the form the engine receives. Loading upserts by slug and never deletes: a record removed
from the files stays in the database until deleted in the admin.

A load first reads every record of every bundle, then saves them kind by kind in the order of
`rules.records.KINDS` (rule sets, factions, ... datasheets, missions), so a record may name one
from a later file; leader links are set last, once every datasheet of the load is in.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from django.db import models, transaction

from rules.models import Datasheet, RuleSet
from rules.records import KINDS, Draft, Reader, Resolver, RulesDataError

__all__ = [
    "DATA_DIR",
    "RulesDataError",
    "bundle_of",
    "export_rules",
    "load_bundle",
    "load_rules",
    "read_bundle",
]

DATA_DIR = Path(__file__).resolve().parent / "data"


def read_bundle(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise RulesDataError(f"is not valid JSON: {error}", origin=str(path)) from error


def load_rules(data_dir: Path = DATA_DIR) -> dict[str, int]:
    """Load every bundle file under `data_dir` (recursively, sorted by path) in one transaction."""
    data_dir = Path(data_dir)
    paths = sorted(data_dir.rglob("*.json"))
    return _load((str(path.relative_to(data_dir)), read_bundle(path)) for path in paths)


def load_bundle(
    bundle: dict, *, origin: str = "", refused: list[RulesDataError] | None = None
) -> dict[str, int]:
    """Upsert every record of one bundle; returns counts of created, changed, unchanged records.

    With a `refused` list, a record the format refuses is left out and its error appended there
    (an import loads the rest of a faction); without one, the first refusal stops the load."""
    return _load([(origin, bundle)], refused)


@transaction.atomic
def _load(
    bundles: Iterable[tuple[str, object]], refused: list[RulesDataError] | None = None
) -> dict[str, int]:
    entries = _collect(bundles)
    resolver = Resolver()
    counts: Counter[str] = Counter(created=0, changed=0, unchanged=0)
    datasheets: list[tuple[Reader, Draft, str]] = []
    for key, kind in KINDS.items():
        existing = _existing(key, [record["slug"] for _origin, record in entries[key]])
        for origin, record in entries[key]:
            reader = Reader(key, record, origin, resolver)
            try:
                draft = kind.read(reader)
            except RulesDataError as error:
                if refused is None:
                    raise
                refused.append(error)
                continue
            status = _upsert(key, draft, existing.get(draft.obj.slug))
            resolver.remember(draft.obj)
            counts[status] += 1
            if kind.model is Datasheet:
                datasheets.append((reader, draft, status))
    _link_leaders(datasheets, resolver)
    _check_one_default(entries["rulesets"])
    return dict(counts)


def _collect(bundles: Iterable[tuple[str, object]]) -> dict[str, list[tuple[str, dict]]]:
    entries: dict[str, list[tuple[str, dict]]] = {key: [] for key in KINDS}
    seen: dict[tuple[str, str], str] = {}
    for origin, bundle in bundles:
        if not isinstance(bundle, dict):
            raise RulesDataError(
                f"a bundle is a JSON object with keys among {', '.join(KINDS)}, "
                f"not {type(bundle).__name__}",
                origin=origin,
            )
        unknown = sorted(set(bundle) - set(KINDS))
        if unknown:
            raise RulesDataError(
                f"unknown keys {', '.join(unknown)}; a bundle's keys are {', '.join(KINDS)}",
                origin=origin,
            )
        for key, records in bundle.items():
            if not isinstance(records, list):
                raise RulesDataError(f"{key} must be a list of records", origin=origin)
            for record in records:
                slug = record.get("slug") if isinstance(record, dict) else None
                if not isinstance(slug, str):
                    raise RulesDataError(
                        f"every record needs a slug; got {record!r:.80}", kind=key, origin=origin
                    )
                if (key, slug) in seen:
                    raise RulesDataError(
                        f"is defined twice in one load: also in {seen[key, slug] or 'the bundle'}",
                        kind=key,
                        slug=slug,
                        origin=origin,
                    )
                seen[key, slug] = origin
                entries[key].append((origin, record))
    return entries


def _comparable(record: dict) -> dict:
    return {key: value for key, value in record.items() if key != "leaders"}


def _existing(key: str, slugs: list[str], batch: int = 500) -> dict[str, models.Model]:
    """The records of these slugs already in the database, with their rows, in few queries."""
    kind = KINDS[key]
    found = {}
    for start in range(0, len(slugs), batch):
        for obj in kind.queryset().filter(slug__in=slugs[start : start + batch]):
            found[obj.slug] = obj
    return found


def _upsert(key: str, draft: Draft, existing: models.Model | None) -> str:
    """Save a draft unless its record already is in the database exactly; returns the status."""
    kind = KINDS[key]
    obj = draft.obj
    draft.record = kind.write(obj, draft.parts)
    if existing is not None:
        if _comparable(kind.record_of(existing)) == _comparable(draft.record):
            draft.obj = existing
            return "unchanged"
        obj.pk, obj._state.adding = existing.pk, False
        for name in kind.parts:
            getattr(existing, name).all().delete()
    obj.save()
    for name in kind.parts:
        rows = draft.parts[name]
        parent = obj._meta.get_field(name).field.name
        for order, row in enumerate(rows):
            setattr(row, parent, obj)
            if hasattr(row, "order"):
                row.order = order
        if rows:
            type(rows[0]).objects.bulk_create(rows)
    return "created" if existing is None else "changed"


def _link_leaders(datasheets: list[tuple[Reader, Draft, str]], resolver: Resolver) -> None:
    """Set `leads` once every datasheet of the load is in; check any `leaders` written by hand.

    A slug in `leads` naming no datasheet yet is kept as a forward reference (`pending_leads`),
    and every pending reference to a datasheet this load brings in becomes a link.
    """
    problems = []
    for _reader, draft, status in datasheets:
        if status == "unchanged":
            continue
        targets, pending = [], []
        for slug in draft.parts["leads"]:
            target = resolver.get(Datasheet, slug)
            if target is None:
                pending.append(slug)
            else:
                targets.append(target)
        draft.obj.leads.set(targets)
        if draft.obj.pending_leads != pending:
            draft.obj.pending_leads = pending
            draft.obj.save(update_fields=["pending_leads"])
    arrived = {draft.obj.slug: draft.obj for _reader, draft, _status in datasheets}
    for leader in Datasheet.objects.exclude(pending_leads=[]):
        found = [slug for slug in leader.pending_leads if slug in arrived]
        if found:
            leader.leads.add(*(arrived[slug] for slug in found))
            leader.pending_leads = [slug for slug in leader.pending_leads if slug not in found]
            leader.save(update_fields=["pending_leads"])
    for reader, draft, _status in datasheets:
        for slug in draft.parts["leaders"]:
            leader = resolver.get(Datasheet, slug)
            if leader is None:
                problems.append(
                    reader.error("leaders", f"names datasheet {slug!r}, which does not exist")
                )
            elif not leader.leads.filter(pk=draft.obj.pk).exists():
                problems.append(
                    reader.error(
                        "leaders",
                        f"is derived from leads, but {slug!r} does not list "
                        f"{draft.obj.slug!r} in its leads",
                    )
                )
    if len(problems) == 1:
        raise problems[0]
    if problems:
        error = RulesDataError(
            f"{len(problems)} dangling or inconsistent leader links:\n"
            + "\n".join(str(problem) for problem in problems)
        )
        error.problems = problems
        raise error


def _check_one_default(rulesets: list[tuple[str, dict]]) -> None:
    defaults = [(origin, r["slug"]) for origin, r in rulesets if r.get("is_default")]
    if len(defaults) > 1:
        names = ", ".join(f"{slug} ({origin})" for origin, slug in defaults)
        raise RulesDataError(f"exactly one rule set is the default, but this load marks {names}")
    if RuleSet.objects.exists() and RuleSet.objects.filter(is_default=True).count() != 1:
        raise RulesDataError("exactly one rule set must have is_default true")


def bundle_of(querysets: dict[str, models.QuerySet]) -> dict[str, list[dict]]:
    """The records of the given querysets (keyed by bundle key) as one bundle, sorted by slug."""
    bundle = {}
    for key, kind in KINDS.items():
        if key not in querysets:
            continue
        rows = (
            querysets[key]
            .select_related(*kind.select)
            .prefetch_related(*kind.queryset()._prefetch_related_lookups)
        )
        bundle[key] = [kind.record_of(obj) for obj in rows.order_by("slug")]
    return bundle


def export_rules() -> dict[str, list[dict]]:
    """The whole database as one bundle in the documented format; kinds with no records omitted."""
    bundle = bundle_of({key: kind.model.objects.all() for key, kind in KINDS.items()})
    return {key: records for key, records in bundle.items() if records}
