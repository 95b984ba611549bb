from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from games import missions
from games.models import BattleSize
from games.services import MAX_WINDOW_TIME_LIMIT
from rules.models import Faction, RuleSet


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class NewGameForm(forms.Form):
    ruleset = forms.ModelChoiceField(
        queryset=RuleSet.objects.all(), to_field_name="slug", label="Edition", empty_label=None
    )
    battle_size = forms.ChoiceField(choices=BattleSize.choices, initial=BattleSize.INCURSION)
    mission = forms.ChoiceField(
        required=False,
        widget=forms.RadioSelect,
        help_text="Each battle size has its missions; the layout shows zones, terrain, objectives.",
    )
    listed = forms.BooleanField(
        required=False,
        label="Let anyone watch",
        help_text="The home page lists the game with its spectator link.",
    )
    window_time_limit = forms.IntegerField(
        required=False,
        min_value=5,
        max_value=MAX_WINDOW_TIME_LIMIT,
        label="Seconds per stratagem window",
        help_text="Leave empty for no limit.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        default = RuleSet.objects.filter(is_default=True).first()
        if default is not None:
            self.fields["ruleset"].initial = default.slug
        self.missions = missions.available()
        self.fields["mission"].choices = [(m["slug"], m["name"]) for m in self.missions]


class PracticeForm(forms.Form):
    """Practice against the computer (games/practice.py): your army, the computer's army (one of
    your saved armies or a built-in list of a faction), the mission, its level and the rule set.
    The game is played at the battle size of your army, so the form asks no battle size; every
    list of armies and missions is grouped by battle size."""

    ruleset = forms.ModelChoiceField(
        queryset=RuleSet.objects.all(), to_field_name="slug", label="Edition", empty_label=None
    )
    army = forms.TypedChoiceField(
        coerce=int,
        label="Your army",
        help_text="The game is played at your army's battle size.",
    )
    computer_army = forms.ChoiceField(
        label="The computer's army",
        help_text="A built-in list is built for your army's battle size; a saved army must be of "
        "that size.",
    )
    mission = forms.ChoiceField(required=False, label="Mission")
    level = forms.ChoiceField(label="The computer plays", initial="tactical")

    def __init__(self, user, *args, **kwargs):
        from games import practice

        super().__init__(*args, **kwargs)
        default = RuleSet.objects.filter(is_default=True).first()
        if default is not None:
            self.fields["ruleset"].initial = default.slug
        saved = list(user.armies.all())
        self.fields["army"].choices = by_battle_size((a.battle_size, (a.pk, a.name)) for a in saved)
        names = dict(Faction.objects.values_list("slug", "name"))
        builtin = [
            (f"builtin:{slug}", f"Built-in list: {names.get(slug, slug)}")
            for slug in practice.builtin_factions()
        ]
        yours = by_battle_size(
            ((a.battle_size, (f"army:{a.pk}", f"Your army: {a.name}")) for a in saved),
            prefix="Your armies: ",
        )
        self.fields["computer_army"].choices = [("Built-in lists", builtin), *yours]
        self.fields["mission"].choices = [
            ("", "The first mission of your army's battle size"),
            *by_battle_size(
                (m["battle_size"], (m["slug"], m["name"])) for m in missions.available()
            ),
        ]
        self.fields["level"].choices = list(practice.LEVELS.items())


def by_battle_size(items, prefix: str = "") -> list[tuple[str, list[tuple[Any, str]]]]:
    """Choices grouped (an <optgroup> each) by battle size, smallest first, each named as players
    read it; `items` are (battle size, choice) pairs."""
    groups: dict[str, list[tuple[Any, str]]] = {}
    for size, choice in items:
        groups.setdefault(size, []).append(choice)
    order = {size: n for n, size in enumerate(BattleSize.values)}
    return [
        (prefix + (missions.size_label(size) if size else "any battle size"), groups[size])
        for size in sorted(groups, key=lambda size: (order.get(size, len(order)), size))
    ]
