"""The statements every action sends, compiled to SQL once per process and database.

Django compiles a QuerySet into SQL each time it runs one, and a `save` or a `bulk_create` goes
through the same compiler. For the game row (twenty-odd columns) the compiling cost several times
what the database took to answer, and every action reads and updates the row (docs/performance.md,
"Seventh pass"). Here:

- `CompiledQuery` builds its QuerySet once with marker values in place of its parameters, keeps
  the SQL Django compiled for it, and runs that SQL through `Manager.raw` with the markers
  replaced by the values of each call: the statement Django would send, read into the same model
  instances (the columns the query leaves out are deferred fields; an annotation is an attribute
  of the instance, as the database returns it).
- `save_fields` and `insert` write what `save(update_fields=...)` and `bulk_create` write, each
  value prepared by its field as Django prepares it, with the statement's text kept per list of
  fields or number of rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import Model, QuerySet
from django.db.models.query import RawQuerySet

# A parameter of the compiled SQL: a marker's name (and the driver's wrapper of its value, if
# Django wrapped it), or None and the constant Django compiled in.
Slot = tuple[str | None, Any, Callable[[Any], Any] | None]


class CompiledQuery:
    """`build(**markers)` is the QuerySet; each marker (an int or a str no real value takes)
    stands for the parameter of that name. Compiled at the first call on each database (the SQL
    differs between vendors: PostgreSQL's `FOR UPDATE OF`, which SQLite has not)."""

    def __init__(self, build: Callable[..., QuerySet], **markers: int | str) -> None:
        self.build = build
        self.markers = markers
        self._compiled: dict[tuple[str, str], tuple[type[Model], str, list[Slot]]] = {}

    def raw(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> RawQuerySet:
        key = (using, connections[using].vendor)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = self._compile(using)
        model, sql, slots = compiled
        params = [
            slot if name is None else values[name] if wrap is None else wrap(values[name])
            for name, slot, wrap in slots
        ]
        return model._default_manager.db_manager(using).raw(sql, params)

    def _compile(self, using: str) -> tuple[type[Model], str, list[Slot]]:
        queryset = self.build(**self.markers)
        sql, params = queryset.query.get_compiler(using=using).as_sql()
        slots: list[Slot] = []
        for param in params:
            # A parameter may come wrapped for the driver (psycopg's Int2 for a small integer
            # column on PostgreSQL): a value takes the same wrapper.
            names = [
                name
                for name, marker in self.markers.items()
                if isinstance(param, type(marker)) and param == marker
            ]
            if names:
                marker = self.markers[names[0]]
                wrap = None if type(param) is type(marker) else type(param)
                slots.append((names[0], None, wrap))
            else:
                slots.append((None, param, None))
        missing = set(self.markers) - {name for name, _, _ in slots}
        if missing:
            raise ValueError(f"markers not in the compiled query: {sorted(missing)}")
        return queryset.model, sql, slots


_UPDATES: dict[tuple[str, str, type[Model], tuple[str, ...]], str] = {}


def save_fields(instance: Model, fields: list[str], using: str = DEFAULT_DB_ALIAS) -> None:
    """`instance.save(update_fields=fields)` with the UPDATE compiled once per field list: the
    same statement and values (each field's `pre_save`, so `auto_now` sets the time, then its
    value prepared for the database). No signals are sent: the project connects none to the
    models saved here."""
    model, connection = type(instance), connections[using]
    meta = model._meta
    names = set(fields)
    columns = [field for field in meta.local_concrete_fields if field.name in names]
    if len(columns) != len(names):
        raise ValueError(f"not concrete fields of {meta.label}: {sorted(names)}")
    key = (using, connection.vendor, model, tuple(fields))
    sql = _UPDATES.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        sets = ", ".join(f"{quote(field.column)} = %s" for field in columns)
        where = f"{quote(meta.db_table)}.{quote(meta.pk.column)} = %s"
        sql = _UPDATES[key] = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {where}"
    params = [
        field.get_db_prep_save(field.pre_save(instance, False), connection) for field in columns
    ]
    params.append(meta.pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"{meta.label} {instance.pk}: the update changed no row.")


_INSERTS: dict[tuple[str, str, type[Model], int], str] = {}


def insert(objs: list[Model], using: str = DEFAULT_DB_ALIAS) -> None:
    """`bulk_create(objs)` of new rows of one model with the INSERT compiled once per number of
    rows: the same values (each field's `pre_save`, so `auto_now_add` sets the time, then its
    value prepared for the database) in one statement. The rows' ids are not read back."""
    if not objs:
        return
    model, connection = type(objs[0]), connections[using]
    meta = model._meta
    columns = [field for field in meta.local_concrete_fields if field is not meta.auto_field]
    # As many rows as the database takes parameters for in one statement (SQLite's limit).
    batch = connection.ops.bulk_batch_size(columns, objs) or len(objs)
    if len(objs) > batch:
        for start in range(0, len(objs), batch):
            insert(objs[start : start + batch], using)
        return
    key = (using, connection.vendor, model, len(objs))
    sql = _INSERTS.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        names = ", ".join(quote(field.column) for field in columns)
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        rows = ", ".join([row] * len(objs))
        sql = _INSERTS[key] = f"INSERT INTO {quote(meta.db_table)} ({names}) VALUES {rows}"
    params = [
        field.get_db_prep_save(field.pre_save(obj, True), connection)
        for obj in objs
        for field in columns
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    for obj in objs:
        obj._state.adding, obj._state.db = False, using
