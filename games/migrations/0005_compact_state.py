"""The state is written whole every few events; the actions in between write its patch."""

from django.db import migrations, models
from django.db.models import F


def whole_states_stand_at_their_version(apps, schema_editor):
    # Every state stored so far is the state at its game's version.
    apps.get_model("games", "Game").objects.update(state_version=F("version"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_game_listed"),
    ]

    operations = [
        migrations.RenameField(model_name="game", old_name="state", new_name="stored_state"),
        migrations.AddField(
            model_name="game",
            name="state_version",
            field=models.PositiveIntegerField(
                default=0, help_text="The version `stored_state` stands at."
            ),
        ),
        migrations.AddField(
            model_name="gameevent",
            name="state_patch",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(whole_states_stand_at_their_version, migrations.RunPython.noop),
    ]
