"""On PostgreSQL, the large JSON columns are compressed with LZ4 instead of the default pglz.

The engine state is written whole every few events (games.matches.SNAPSHOT_EVERY): compressing
its ~140 KB took PostgreSQL 1.7 ms with pglz and 0.2 ms with LZ4 (docs/performance.md,
"Fourteenth pass"). Only values written after the migration are compressed the new way.
PostgreSQL before 14, or built without LZ4, keeps pglz; SQLite has no such setting."""

from django.db import DatabaseError, migrations, transaction

COLUMNS = [
    ("games_game", "stored_state"),
    ("games_game", "setup"),
    ("games_game", "army_snapshots"),
    ("games_gamesnapshot", "state"),
]


def use_lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    for table, column in COLUMNS:
        try:
            with transaction.atomic(using=connection.alias):
                schema_editor.execute(
                    f"ALTER TABLE {schema_editor.quote_name(table)} ALTER COLUMN "
                    f"{schema_editor.quote_name(column)} SET COMPRESSION lz4"
                )
        except DatabaseError:  # a server built without LZ4 refuses: it keeps pglz
            return


def use_default(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    for table, column in COLUMNS:
        schema_editor.execute(
            f"ALTER TABLE {schema_editor.quote_name(table)} ALTER COLUMN "
            f"{schema_editor.quote_name(column)} SET COMPRESSION DEFAULT"
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0007_event_rows_inserted_by_value")]

    operations = [migrations.RunPython(use_lz4, use_default)]
