"""Model fields for the notations datasheets print, validated and stored in canonical spelling.

The parsing itself is `rules.engine.notation`'s; these fields only call it on save (model
`full_clean`, which the admin, the loader and the API all go through) and give the admin a form
widget a person can type into.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from rules.engine import NotationError, format_weapon_abilities, parse_dice, parse_weapon_abilities


def validate_dice(value: Any) -> None:
    try:
        parse_dice(value)
    except NotationError as error:
        raise ValidationError(str(error), code="dice") from error


def validate_text_list(value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise ValidationError(f"{value!r} must be a list of non-empty texts", code="text_list")


def validate_weapon_abilities(value: Any) -> None:
    validate_text_list(value)
    try:
        parse_weapon_abilities(value)
    except NotationError as error:
        raise ValidationError(str(error), code="weapon_ability") from error


class CanonicalOnSave:
    """Whatever path saves the row (form, loader, shell, `bulk_create`), the value stored is
    checked and in canonical spelling."""

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = self.to_python(getattr(model_instance, self.attname))
        self.run_validators(value)
        setattr(model_instance, self.attname, value)
        return value


class DiceField(CanonicalOnSave, models.CharField):
    """A characteristic that may be random (`D6+2`, `2`), kept as `parse_dice` spells it."""

    default_validators = [validate_dice]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 20)
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> Any:
        if value is None or isinstance(value, bool):
            return value
        try:
            return str(parse_dice(value))
        except NotationError:
            return str(value)  # the validator reports the parser's message


class TextListFormField(forms.CharField):
    """One item per line in a textarea; stored as a JSON list of strings."""

    widget = forms.Textarea(attrs={"rows": 3})
    separator = "\n"

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, list):
            return value
        text = super().to_python(value) or ""
        return [item.strip() for item in text.split(self.separator) if item.strip()]

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            joiner = ", " if self.separator == "," else self.separator
            return joiner.join(str(item) for item in value)
        return value


class ParagraphListFormField(TextListFormField):
    """One item per paragraph (items separated by a blank line), for items that hold several
    lines themselves, such as a wargear option and its choices: the lines of an item are kept."""

    widget = forms.Textarea(attrs={"rows": 8})
    separator = "\n\n"

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, list):
            return value
        text = forms.CharField.to_python(self, value) or ""
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        return [item.strip() for item in re.split(r"\n[ \t]*\n", text) if item.strip()]


class WeaponAbilitiesFormField(TextListFormField):
    """Typed as printed between the brackets: `rapid fire 2, anti-infantry 4+`."""

    widget = forms.TextInput(attrs={"size": 60})
    separator = ","

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, str):
            value = value.strip().strip("[]")
        return super().to_python(value)


class TextListField(models.JSONField):
    """A list of printed texts (keywords, composition lines, wargear options)."""

    default_validators = [validate_text_list]
    form_class = TextListFormField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("default", list)
        kwargs.setdefault("blank", True)
        super().__init__(*args, **kwargs)

    def formfield(self, **kwargs: Any) -> forms.Field:
        return models.Field.formfield(self, **{"form_class": self.form_class, **kwargs})


class WeaponAbilitiesField(CanonicalOnSave, TextListField):
    """Weapon abilities as lower-case canonical strings (`["rapid fire 2"]`)."""

    default_validators = [validate_weapon_abilities]
    form_class = WeaponAbilitiesFormField

    def to_python(self, value: Any) -> Any:
        if isinstance(value, list):
            try:
                return format_weapon_abilities(parse_weapon_abilities(value))
            except (NotationError, TypeError, AttributeError):
                return value  # the validator reports the parser's message
        return value
