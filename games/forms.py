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
    your saved armies or a built-in list of a faction), its level, the rule set and mission."""

    ruleset = forms.ModelChoiceField(
        queryset=RuleSet.objects.all(), to_field_name="slug", label="Edition", empty_label=None
    )
    battle_size = forms.ChoiceField(choices=BattleSize.choices, initial=BattleSize.INCURSION)
    mission = forms.ChoiceField(required=False, label="Mission")
    army = forms.TypedChoiceField(coerce=int, label="Your army")
    computer_army = forms.ChoiceField(label="The computer's army")
    level = forms.ChoiceField(label="The computer plays", initial="tactical")

    def __init__(self, user, *args, **kwargs):
        from games import practice

        super().__init__(*args, **kwargs)
        default = RuleSet.objects.filter(is_default=True).first()
        if default is not None:
            self.fields["ruleset"].initial = default.slug
        self.fields["mission"].choices = [("", "The battle size's first mission")] + [
            (m["slug"], m["name"]) for m in missions.available()
        ]
        saved = [(a.pk, f"{a.name} ({a.get_battle_size_display()})") for a in user.armies.all()]
        self.fields["army"].choices = saved
        names = dict(Faction.objects.values_list("slug", "name"))
        self.fields["computer_army"].choices = [
            (f"builtin:{slug}", f"Built-in list: {names.get(slug, slug)}")
            for slug in practice.builtin_factions()
        ] + [(f"army:{pk}", f"Your army: {name}") for pk, name in saved]
        self.fields["level"].choices = list(practice.LEVELS.items())
