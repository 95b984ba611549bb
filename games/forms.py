from django import forms
from django.contrib.auth.forms import UserCreationForm

from games import missions
from games.models import BattleSize
from games.services import MAX_WINDOW_TIME_LIMIT
from rules.models import RuleSet


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
