from django.db import models


class RuleSet(models.Model):
    """An edition of the core rules, chosen per game; its parameters are the numbers that differ."""

    slug = models.SlugField(max_length=20, unique=True)
    name = models.CharField(max_length=100)
    is_default = models.BooleanField(
        default=False, help_text="New games use this rule set unless the creator picks another."
    )
    source = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return f"{self.name} ({self.slug})"
