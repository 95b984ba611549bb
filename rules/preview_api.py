"""POST /api/attack-preview/: the damage preview over HTTP (same SPEC and output as the command)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rules.engine import AttackInputError, Refusal, parse_spec
from rules.preview_limits import (
    PREVIEW_LIMITS,
    PreviewAnonThrottle,
    PreviewBusy,
    PreviewLimits,
    PreviewUserThrottle,
    run_within_budget,
)
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
    trials = serializers.IntegerField(
        required=False,
        default=10000,
        help_text="At most 10,000 anonymous and 100,000 signed in, and trials × models × "
        "attacks at most 1,000,000 anonymous and 5,000,000 signed in.",
    )
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
    """Preview one weapon profile's attacks against one unit. A pure calculation: no login needed,
    but signed-in use may ask for more (PREVIEW_LIMITS) and is throttled less
    (`attack_preview_anon` and `attack_preview_user` in REST_FRAMEWORK's rates)."""

    permission_classes = [AllowAny]
    authentication_classes = [SessionAuthentication]
    throttle_classes = [PreviewAnonThrottle, PreviewUserThrottle]

    @extend_schema(
        request=AttackPreviewRequestSerializer,
        responses={
            200: AttackPreviewResponseSerializer,
            400: AttackPreviewErrorSerializer,
            503: AttackPreviewErrorSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        # The engine validates the raw SPEC itself so the command and the API give the same
        # messages; the serializers document the shape in the OpenAPI schema.
        try:
            parse_spec(request.data, edition_for)
            limits = PREVIEW_LIMITS["user" if request.user.is_authenticated else "anonymous"]
            _check_cost(request.data, limits)
            return Response(run_within_budget(request.data))
        except AttackInputError as error:
            return Response(
                {"field": error.field, "message": str(error)}, status=status.HTTP_400_BAD_REQUEST
            )
        except Refusal as refusal:
            return Response(
                {"field": "attacker.weapon", "message": str(refusal), **refusal.as_dict()},
                status=status.HTTP_400_BAD_REQUEST,
            )
        except PreviewBusy as busy:
            return Response(
                {"field": "trials", "message": str(busy)},
                status=status.HTTP_503_SERVICE_UNAVAILABLE,
                headers={"Retry-After": "5"},
            )


def _check_cost(spec: dict, limits: PreviewLimits) -> None:
    """Refuse a preview that would cost more than `limits`: trials, and trials × the most attack
    dice the attacking models can roll (the work and memory grow with both)."""
    attacker, _, _, trials, _ = parse_spec(spec, edition_for)
    signed_in = "" if limits is PREVIEW_LIMITS["user"] else " (sign in for more)"
    if trials > limits.trials:
        raise AttackInputError("trials", f"at most {limits.trials:,} trials{signed_in}")
    dice = trials * attacker.models * max(attacker.weapon.attacks.maximum, 1)
    if dice > limits.attack_dice:
        most = limits.attack_dice // (attacker.models * max(attacker.weapon.attacks.maximum, 1))
        raise AttackInputError(
            "trials",
            f"trials × models × attacks is at most {limits.attack_dice:,}{signed_in}: with "
            f"{attacker.models} models of A {attacker.weapon.attacks}, at most {most:,} trials",
        )
