"""The HTTP API of the lobby and of games: thin views over games.services and games.selectors."""

from django.db.models import Q
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle

from games import armies, matches, selectors, services
from games.army_lists.uploads import MAX_UPLOAD_BYTES, UploadRefused
from games.models import Army, Game
from games.serializers import (
    ActionCheckRequestSerializer,
    ActionCheckSerializer,
    ArmyCheckRequestSerializer,
    ArmyCheckSerializer,
    ArmyExportSerializer,
    ArmyImportRequestSerializer,
    ArmyImportSerializer,
    ArmySerializer,
    ChatMessageSerializer,
    GameEventSerializer,
    GameLinksSerializer,
    GameSerializer,
    GameStateSerializer,
    JoinSerializer,
    NewGameSerializer,
    PickArmySerializer,
    ShotPreviewRequestSerializer,
    ShotPreviewSerializer,
)
from rules.models import RuleSet


class Refused(APIException):
    """A request the lobby refuses: `{"code": ..., "message": ...}` with status 400."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "refused"


def _refusal(error: services.GameError) -> Refused:
    detail = {"code": error.code, "message": error.message}
    if isinstance(error, matches.ArmyRefused):
        detail["problems"] = error.report["problems"]
        detail["points"] = error.report["points"]
    return Refused(detail)


# Ids in API paths: digits that fit PostgreSQL's bigint; anything else is a 404.
ROW_ID = "[1-9][0-9]{0,17}"
MAX_VERSION = 2**31 - 1


class BoundedPagination(LimitOffsetPagination):
    """`limit` at most 500 (a larger one is cut to 500) and `offset` within the database's
    integers (a larger one is a 400), so no page costs more than 500 rows."""

    max_limit = 500

    def get_offset(self, request) -> int:
        offset = super().get_offset(request)
        if offset > MAX_VERSION:
            raise ValidationError({self.offset_query_param: f"at most {MAX_VERSION}"})
        return offset


class PreviewThrottle(UserRateThrottle):
    """Each preview runs thousands of simulated attacks: a player asks at most this often."""

    rate = "120/min"


class CheckThrottle(UserRateThrottle):
    """A dragged unit is checked a few times a second at most (the page waits between asks)."""

    rate = "600/min"


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """A player's games. Spectators follow games over the websocket with their link."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = GameLinksSerializer
    pagination_class = BoundedPagination
    lookup_value_regex = ROW_ID

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation has no user
            return Game.objects.none()
        user = self.request.user
        return (
            Game.objects.filter(Q(creator=user) | Q(opponent=user))
            .select_related("creator", "opponent", "ruleset")
            .order_by("-updated")
        )

    @extend_schema(request=NewGameSerializer, responses={201: GameLinksSerializer})
    def create(self, request):
        form = NewGameSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        try:
            game = services.create_game(
                request.user,
                ruleset_slug=data.get("edition"),
                battle_size=data["battle_size"],
                mission=data.get("mission", ""),
                window_time_limit=data.get("window_time_limit"),
            )
        except services.GameError as error:
            raise _refusal(error) from None
        return Response(GameLinksSerializer(game).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=JoinSerializer, responses={200: GameSerializer})
    @action(detail=False, methods=["post"])
    def join(self, request):
        form = JoinSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            game = services.join_by_invite(form.validated_data["invite_token"], request.user)
        except services.GameError as error:
            raise _refusal(error) from None
        return Response(GameSerializer(game).data)

    @extend_schema(
        parameters=[
            OpenApiParameter("since", int, description="Only events after this version."),
        ],
        responses={200: GameEventSerializer(many=True)},
    )
    @action(detail=True, methods=["get"])
    def events(self, request, pk=None):
        game = self.get_object()
        try:
            since = int(request.query_params.get("since", 0))
        except ValueError:
            raise ValidationError({"since": "a whole number"}) from None
        if not 0 <= since <= MAX_VERSION:
            raise ValidationError({"since": f"a whole number from 0 to {MAX_VERSION}"})
        events = game.events.filter(sequence__gt=since).order_by("sequence")
        page = self.paginate_queryset(events)
        seat = game.seat_of(request.user)
        data = GameEventSerializer(page, many=True).data
        for row in data:
            visible = selectors.event_for({"kind": row["kind"], **row["payload"]}, seat)
            row["payload"] = {key: value for key, value in visible.items() if key != "kind"}
        return self.get_paginated_response(data)

    @extend_schema(responses={200: ChatMessageSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def chat(self, request, pk=None):
        game = self.get_object()
        page = self.paginate_queryset(game.chat.select_related("author"))
        return self.get_paginated_response(ChatMessageSerializer(page, many=True).data)

    @extend_schema(request=None, responses={200: GameSerializer})
    @action(detail=True, methods=["post"])
    def concede(self, request, pk=None):
        try:
            game = services.concede(self.get_object(), request.user)
        except services.GameError as error:
            raise _refusal(error) from None
        return Response(GameSerializer(game).data)

    @extend_schema(request=None, responses={200: GameSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        try:
            game = services.cancel_game(self.get_object(), request.user)
        except services.GameError as error:
            raise _refusal(error) from None
        return Response(GameSerializer(game).data)

    @extend_schema(request=PickArmySerializer, responses={200: GameSerializer})
    @action(detail=True, methods=["post"])
    def army(self, request, pk=None):
        """Pick one of your valid armies for this game; the game starts when both have picked.
        A refused army answers 400 with `code` `army_invalid` and every `problems` entry."""
        form = PickArmySerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            game = matches.pick_army(
                self.get_object().pk, request.user, form.validated_data["army"]
            )
        except services.GameError as error:
            raise _refusal(error) from None
        return Response(GameSerializer(game).data)

    @extend_schema(request=ShotPreviewRequestSerializer, responses={200: ShotPreviewSerializer})
    @action(detail=True, methods=["post"], throttle_classes=[PreviewThrottle])
    def preview(self, request, pk=None):
        """The damage preview of a shot your unit could make now (the engine's own attack code,
        its own dice: nothing is stored), and why each enemy unit it cannot shoot is out."""
        form = ShotPreviewRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        game = self.get_object()
        try:
            preview = services.shot_preview(
                game,
                game.seat_of(request.user),
                form.validated_data["unit"],
                form.validated_data.get("assignments"),
                form.validated_data["kind"],
            )
        except services.GameError as error:
            raise _refusal(error) from None
        return Response(preview)

    @extend_schema(request=ActionCheckRequestSerializer, responses={200: ActionCheckSerializer})
    @action(detail=True, methods=["post"], throttle_classes=[CheckThrottle])
    def check(self, request, pk=None):
        """What the referee would answer to this action of yours now, without playing it: accepted,
        or the refusal with its rule; for a move, each model's cost (climbing included). A refused
        action is a 200 answer (`accepted: false`), as is one checked while you cannot act now
        (`not_your_turn`, `not_in_progress`); only a malformed request is a 400."""
        form = ActionCheckRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        game = self.get_object()
        try:
            answer = services.check_action(
                game, game.seat_of(request.user), form.validated_data["action"]
            )
        except services.GameError as error:
            raise _refusal(error) from None
        return Response(answer)

    @extend_schema(responses={200: GameStateSerializer})
    @action(detail=True, methods=["get"])
    def state(self, request, pk=None):
        """The public engine state (no dice seed before the end) and your legal actions."""
        game = self.get_object()
        return Response(selectors.game_state(game, game.seat_of(request.user)))


@extend_schema(tags=["armies"])
class ArmyViewSet(viewsets.ModelViewSet):
    """Your saved army lists. A list may be saved with problems; `validate` names them all, and
    only a valid list can be picked for a game."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = ArmySerializer
    pagination_class = BoundedPagination
    lookup_value_regex = ROW_ID

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Army.objects.none()
        return Army.objects.filter(owner=self.request.user)

    def perform_create(self, serializer):
        serializer.instance = armies.create_army(self.request.user, serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = armies.update_army(serializer.instance, serializer.validated_data)

    def perform_destroy(self, instance):
        armies.delete_army(instance)

    @extend_schema(
        parameters=[
            OpenApiParameter("edition", str, description="Rule set; the default if empty.")
        ],
        responses={200: ArmyCheckSerializer},
    )
    @action(detail=True, methods=["get"], url_path="validate")
    def validate_saved(self, request, pk=None):
        """Every problem of this army for its battle size, and its points."""
        army = self.get_object()
        report = armies.check(
            armies.army_list(army), edition_slug=request.query_params.get("edition") or None
        )
        return Response(report.as_dict())

    @extend_schema(request=ArmyCheckRequestSerializer, responses={200: ArmyCheckSerializer})
    @action(detail=False, methods=["post"])
    def validate(self, request):
        """Check an unsaved list (the builder's live check): every problem, and the points."""
        form = ArmyCheckRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = dict(form.validated_data)
        edition = data.pop("edition", None)
        data["units"] = [dict(unit) for unit in data["units"]]
        try:
            report = armies.check_with_rules_not_enforced(data, edition_slug=edition)
        except RuleSet.DoesNotExist:
            raise ValidationError({"edition": "no such rule set"}) from None
        return Response(report)

    @extend_schema(
        request={
            "application/json": ArmyImportRequestSerializer,
            "multipart/form-data": ArmyImportRequestSerializer,
        },
        responses={200: ArmyImportSerializer},
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        parser_classes=[JSONParser, MultiPartParser, FormParser],
    )
    def import_list(self, request):
        """Read a list from another tool (the app's text export, a New Recruit / BattleScribe
        .json, .ros or .rosz): the army (not saved), every line not used and why, the Leaders
        to attach, and the army check. A refused upload answers 400 `upload_refused`."""
        # Refused before the body is read: twice the limit leaves room for multipart framing.
        if int(request.META.get("CONTENT_LENGTH") or 0) > 2 * MAX_UPLOAD_BYTES:
            raise Refused(
                {
                    "code": "upload_refused",
                    "message": f"An army list is at most {MAX_UPLOAD_BYTES // 1024} KB.",
                }
            )
        form = ArmyImportRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        upload = form.validated_data.get("file")
        try:
            if upload is not None:
                if upload.size > MAX_UPLOAD_BYTES:
                    raise UploadRefused(
                        f"The file is {upload.size // 1024} KB; an army list is at most "
                        f"{MAX_UPLOAD_BYTES // 1024} KB."
                    )
                data, name = upload.read(MAX_UPLOAD_BYTES + 1), upload.name or ""
            else:
                data, name = form.validated_data["text"], ""
            result = armies.import_list(
                data, filename=name, edition_slug=form.validated_data.get("edition")
            )
        except UploadRefused as error:
            raise Refused({"code": "upload_refused", "message": str(error)}) from None
        except RuleSet.DoesNotExist:
            raise ValidationError({"edition": "no such rule set"}) from None
        return Response(result)

    @extend_schema(responses={200: ArmyExportSerializer})
    @action(detail=True, methods=["get"], url_path="export")
    def export_list(self, request, pk=None):
        """The army in the Warhammer 40,000 app's text format, to share it the usual way."""
        return Response({"text": armies.export_list(self.get_object())})
