"""POST /api/attack-preview/: the damage preview over HTTP (same SPEC and output as the command)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rules.engine import AttackInputError, Refusal, preview
from rules.rulesets import edition_for


class WeaponSerializer(serializers.Serializer):
    range = serializers.FloatField(allow_null=True, required=False)
    attacks = serializers.CharField(help_text='Dice expression as printed, e.g. "2" or "D6+1".')
    skill = serializers.IntegerField(allow_null=True, help_text="BS/WS (3 for 3+), null for N/A.")
    strength = serializers.IntegerField()
    ap = serializers.IntegerField(help_text="As printed: -1 means AP -1.")
    damage = serializers.CharField()
    abilities = serializers.ListField(child=serializers.CharField(), required=False)


class AttackerSerializer(serializers.Serializer):
    models = serializers.IntegerField(min_value=1)
    keywords = serializers.ListField(child=serializers.CharField(), required=False)
    weapon = WeaponSerializer()


class TargetSerializer(serializers.Serializer):
    models = serializers.IntegerField(min_value=1)
    toughness = serializers.IntegerField(min_value=1)
    save = serializers.IntegerField()
    invulnerable = serializers.IntegerField(allow_null=True, required=False)
    wounds = serializers.IntegerField(min_value=1)
    feel_no_pain = serializers.IntegerField(allow_null=True, required=False)
    keywords = serializers.ListField(child=serializers.CharField(), required=False)


class ModifierSerializer(serializers.Serializer):
    step = serializers.CharField()
    kind = serializers.CharField()
    value = serializers.JSONField(required=False, allow_null=True)
    condition = serializers.DictField(required=False)


class AttackPreviewRequestSerializer(serializers.Serializer):
    attacker = AttackerSerializer()
    target = TargetSerializer()
    half_range = serializers.BooleanField(required=False, default=False)
    cover = serializers.BooleanField(required=False, default=False)
    charged = serializers.BooleanField(required=False, default=False)
    stationary = serializers.BooleanField(required=False, default=False)
    edition = serializers.CharField(required=False, default="11e")
    trials = serializers.IntegerField(required=False, default=10000)
    seed = serializers.IntegerField(required=False, allow_null=True)
    modifiers = ModifierSerializer(many=True, required=False)


class DistributionSerializer(serializers.Serializer):
    mean = serializers.FloatField()
    distribution = serializers.ListField(
        child=serializers.FloatField(), help_text="Item k is the probability of exactly k."
    )


class AttackPreviewResponseSerializer(serializers.Serializer):
    trials = serializers.IntegerField()
    edition = serializers.CharField()
    attacks = DistributionSerializer()
    hits = DistributionSerializer()
    wounds = DistributionSerializer()
    unsaved = DistributionSerializer()
    damage = DistributionSerializer()
    models_destroyed = DistributionSerializer()
    mortal_wounds = DistributionSerializer()
    hazard_mortal_wounds = DistributionSerializer()


class AttackPreviewErrorSerializer(serializers.Serializer):
    field = serializers.CharField()
    message = serializers.CharField()


class AttackPreviewView(APIView):
    """Preview one weapon profile's attacks against one unit. A pure calculation: no login."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=AttackPreviewRequestSerializer,
        responses={200: AttackPreviewResponseSerializer, 400: AttackPreviewErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        # The engine validates the raw SPEC itself so the command and the API give the same
        # messages; the serializers document the shape in the OpenAPI schema.
        try:
            return Response(preview(request.data, edition_for))
        except AttackInputError as error:
            return Response(
                {"field": error.field, "message": str(error)}, status=status.HTTP_400_BAD_REQUEST
            )
        except Refusal as refusal:
            return Response(
                {"field": "attacker.weapon", "message": str(refusal), **refusal.as_dict()},
                status=status.HTTP_400_BAD_REQUEST,
            )
