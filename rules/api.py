"""The read-only JSON API of rules data under /api/rules/: querysets, filters, serializers."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Q, QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import permissions, viewsets

from rules import serializers
from rules.models import (
    Ability,
    Datasheet,
    Detachment,
    Enhancement,
    Faction,
    Mission,
    RuleSet,
    Stratagem,
)

Filter = tuple[str, Callable[[str], Q]]

EDITION: Filter = (
    "Rule-set slug (11e, 10e); records used in both editions are included.",
    lambda slug: Q(edition__slug=slug) | Q(edition__isnull=True),
)
KIND: Filter = ("core or faction", lambda kind: Q(kind=kind))


def _faction(path: str) -> Filter:
    return ("Faction slug, e.g. grey-knights.", lambda slug: Q(**{f"{path}__slug": slug}))


def _detachment(path: str) -> Filter:
    return ("Detachment slug.", lambda slug: Q(**{f"{path}__slug": slug}))


class RulesViewSet(viewsets.ReadOnlyModelViewSet):
    """Records by slug, filtered by the query parameters named in `filters`."""

    lookup_field = "slug"
    permission_classes = [permissions.AllowAny]
    filters: dict[str, Filter] = {}

    def get_queryset(self) -> QuerySet:
        queryset = super().get_queryset()
        for name, (_description, condition) in self.filters.items():
            value = self.request.query_params.get(name)
            if value:
                queryset = queryset.filter(condition(value))
        return queryset.distinct() if self.filters else queryset


def documented(viewset: type[RulesViewSet]) -> type[RulesViewSet]:
    """Declare a view set's filters in the OpenAPI schema."""
    parameters = [
        OpenApiParameter(name, str, description=description)
        for name, (description, _condition) in viewset.filters.items()
    ]
    return extend_schema_view(list=extend_schema(parameters=parameters))(viewset)


@documented
class RuleSetViewSet(RulesViewSet):
    queryset = RuleSet.objects.prefetch_related("parameters")
    serializer_class = serializers.RuleSetSerializer


@documented
class FactionViewSet(RulesViewSet):
    queryset = Faction.objects.all()
    serializer_class = serializers.FactionSerializer


@documented
class AbilityViewSet(RulesViewSet):
    queryset = Ability.objects.select_related("edition", "faction")
    serializer_class = serializers.AbilitySerializer
    filters = {"edition": EDITION, "faction": _faction("faction"), "kind": KIND}


@documented
class DetachmentViewSet(RulesViewSet):
    queryset = Detachment.objects.select_related("faction").prefetch_related("rules")
    serializer_class = serializers.DetachmentSerializer
    filters = {"faction": _faction("faction")}


@documented
class StratagemViewSet(RulesViewSet):
    queryset = Stratagem.objects.select_related("edition", "detachment")
    serializer_class = serializers.StratagemSerializer
    filters = {
        "edition": EDITION,
        "faction": _faction("detachment__faction"),
        "detachment": _detachment("detachment"),
        "scope": ("core, boarding-actions or detachment", lambda scope: Q(scope=scope)),
    }


@documented
class EnhancementViewSet(RulesViewSet):
    queryset = Enhancement.objects.select_related("detachment")
    serializer_class = serializers.EnhancementSerializer
    filters = {"faction": _faction("detachment__faction"), "detachment": _detachment("detachment")}


@documented
class DatasheetViewSet(RulesViewSet):
    queryset = Datasheet.objects.select_related("faction").prefetch_related(
        "models", "weapons", "abilities", "points", "leads", "leaders"
    )
    serializer_class = serializers.DatasheetSerializer
    filters = {"faction": _faction("faction")}


@documented
class MissionViewSet(RulesViewSet):
    queryset = Mission.objects.select_related("edition")
    serializer_class = serializers.MissionSerializer
    filters = {"edition": EDITION}
