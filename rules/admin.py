from django.contrib import admin

from rules.models import RuleSet


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "is_default"]
    search_fields = ["slug", "name"]
