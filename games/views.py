"""Lobby pages: thin views that parse, authorise and call games.services."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from games import matches, practice, replays, results, selectors, services
from games.forms import NewGameForm, PracticeForm, SignUpForm, by_battle_size
from games.models import BattleSize, Game


def sign_up(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        # Back to where the visitor was going: an invite link, the lobby.
        target = request.POST.get("next") or request.GET.get("next", "")
        return redirect(_safe_next(request, target) or "lobby")
    next_url = _safe_next(request, request.GET.get("next", "")) or ""
    return render(request, "registration/sign_up.html", {"form": form, "next": next_url})


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                request.user,
                ruleset_slug=form.cleaned_data["ruleset"].slug,
                battle_size=form.cleaned_data["battle_size"],
                mission=form.cleaned_data["mission"],
                window_time_limit=form.cleaned_data["window_time_limit"],
                listed=form.cleaned_data["listed"],
            )
        except services.GameError as error:
            form.add_error(None, error.message)
        else:
            return redirect("game-detail", game_id=game.pk)
    return _lobby_page(request, form, PracticeForm(request.user))


def _lobby_page(request: HttpRequest, form: NewGameForm, practice_form: PracticeForm):
    armies = request.user.armies.all()
    context = {
        "rows": selectors.games_list(request.user),
        "form": form,
        "practice_form": practice_form,
        "armies": armies,
        # The Pick list of an ordinary game, grouped as the practice form's (one size a game).
        "army_groups": by_battle_size((a.battle_size, (a.pk, a.name)) for a in armies),
    }
    return render(request, "games/lobby.html", context)


@login_required
@require_POST
def practice_game(request: HttpRequest) -> HttpResponse:
    """Start a practice game against the computer (games/practice.py) and open its table."""
    form = PracticeForm(request.user, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            game = practice.start_practice_game(
                request.user,
                army_id=data["army"],
                computer_choice=data["computer_army"],
                level=data["level"],
                ruleset_slug=data["ruleset"].slug,
                mission=data["mission"],
            )
        except services.GameError as error:
            form.add_error(None, error.message)
        else:
            return redirect("game-detail", game_id=game.pk)
    return _lobby_page(request, NewGameForm(), form)


@login_required
@require_POST
def pick_army(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        army_id = int(request.POST.get("army", "0") or 0)
        if not 0 < army_id < 2**63:
            raise ValueError(army_id)
        matches.pick_army(game_id, request.user, army_id)
    except ValueError:
        messages.error(request, "Choose one of your armies.")
    except services.GameError as error:
        messages.error(request, error.message)
    return redirect(_safe_next(request, request.POST.get("next", "")) or "lobby")


def _safe_next(request: HttpRequest, target: str) -> str | None:
    """A `next` URL only when it stays on this site (no open redirect)."""
    allowed = url_has_allowed_host_and_scheme(
        target, {request.get_host()}, require_https=request.is_secure()
    )
    return target if target and allowed else None


@login_required
def army_builder(request: HttpRequest) -> HttpResponse:
    """The army builder: the page is a shell; static/js/army_builder.js talks to the API."""
    return render(request, "games/army_builder.html", {"battle_sizes": BattleSize.choices})


def _links(request: HttpRequest, game: Game) -> dict:
    links = {"invite": request.build_absolute_uri(reverse("game-join", args=[game.invite_token]))}
    if game.spectator_token:
        links["spectate"] = request.build_absolute_uri(
            reverse("game-spectate", args=[game.pk, game.spectator_token])
        )
    return links


@login_required
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(
        Game.objects.select_related("creator", "opponent", "ruleset"), pk=game_id
    )
    seat = game.seat_of(request.user)
    if seat is None:
        raise Http404("You are not a player of this game.")
    picking = game.status == Game.Status.MUSTERING and str(seat) not in game.army_snapshots
    armies = request.user.armies.all() if str(seat) not in game.army_snapshots else None
    context = {
        **_page_context(game),
        "seat": seat,
        "spectator": False,
        "links": _links(request, game),
        # Rendered for every player whose army is not picked yet: the page shows the picker
        # by itself when the opponent joins (static/js/game_header.js); grouped by battle size.
        "armies": armies,
        "army_groups": by_battle_size((a.battle_size, (a.pk, a.name)) for a in armies or ()),
        "picking": picking,
    }
    return render(request, "games/game.html", context)


def spectate(request: HttpRequest, game_id: int, token: str) -> HttpResponse:
    game = get_object_or_404(
        Game.objects.select_related("creator", "opponent", "ruleset"), pk=game_id
    )
    if not game.spectator_token or token != game.spectator_token:
        raise Http404("This spectator link does not exist or was revoked.")
    context = {**_page_context(game), "seat": None, "spectator": True, "spectator_token": token}
    return render(request, "games/game.html", context)


# The statuses in which the creator may cancel and a player may concede (games/services.py).
CANCELLABLE = (Game.Status.WAITING, Game.Status.MUSTERING, Game.Status.DEPLOYMENT)
CONCEDABLE = (Game.Status.MUSTERING, Game.Status.DEPLOYMENT, Game.Status.BATTLE)
# The statuses in which a game has a log to replay.
REPLAYABLE = (Game.Status.DEPLOYMENT, Game.Status.BATTLE, Game.Status.FINISHED)


def _page_context(game: Game) -> dict:
    return {
        "game": game,
        "mission_name": selectors.mission_name(game),
        "revealed_seed": services.revealed_seed(game),
        "cancellable": CANCELLABLE,
        "concedable": CONCEDABLE,
        "replayable": REPLAYABLE,
    }


def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: a signed-in player takes the seat; anyone else is asked to sign up or log
    in first and comes straight back here (and so into the game, with its army picker)."""
    if not request.user.is_authenticated:
        game = Game.objects.select_related("creator", "ruleset").filter(invite_token=token).first()
        context = {"game": game, "next": request.path}
        return render(request, "games/invite.html", context, status=200 if game else 404)
    try:
        game = services.join_by_invite(token, request.user)
    except services.GameError as error:
        return render(request, "games/join_refused.html", {"error": error}, status=409)
    return redirect("game-detail", game_id=game.pk)


def _owned_action(request: HttpRequest, game_id: int, action) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    try:
        action(game, request.user)
    except services.GameError as error:
        messages.error(request, error.message)
    return redirect("game-detail", game_id=game.pk)


@login_required
@require_POST
def revoke_spectators(request: HttpRequest, game_id: int) -> HttpResponse:
    return _owned_action(request, game_id, services.revoke_spectator_link)


@login_required
@require_POST
def renew_spectators(request: HttpRequest, game_id: int) -> HttpResponse:
    return _owned_action(request, game_id, services.renew_spectator_link)


@login_required
@require_POST
def cancel(request: HttpRequest, game_id: int) -> HttpResponse:
    return _owned_action(request, game_id, services.cancel_game)


@login_required
@require_POST
def concede(request: HttpRequest, game_id: int) -> HttpResponse:
    return _owned_action(request, game_id, services.concede)


# --- what a player or a spectator reads beside the socket (JSON) ------------------------------


def _watched_game(request: HttpRequest, game_id: int) -> Game:
    """The game if the request may watch it: a player's session or the spectator link's token
    (`?spectate=`), as for the websocket (selectors.connection_seat)."""
    token = request.GET.get("spectate") or None
    if selectors.connection_seat(game_id, request.user, token) is None:
        raise Http404("This game does not exist or you may not watch it.")
    return get_object_or_404(
        Game.objects.select_related("creator", "opponent", "ruleset"), pk=game_id
    )


def _whole_number(request: HttpRequest, name: str, default: int) -> int | None:
    try:
        value = int(request.GET.get(name, default))
    except ValueError:
        return None
    return value if value >= 0 else None


def _bad_request(field: str) -> JsonResponse:
    return JsonResponse(
        {"code": "invalid_field", "field": field, "message": f"{field}: a whole number ≥ 0"},
        status=400,
    )


def game_log(request: HttpRequest, game_id: int) -> JsonResponse:
    """A page of the event log after `since` (at most `limit` events)."""
    game = _watched_game(request, game_id)
    since = _whole_number(request, "since", 0)
    limit = _whole_number(request, "limit", 200)
    if since is None:
        return _bad_request("since")
    if not limit:
        return _bad_request("limit")
    seat = game.seat_of(request.user)
    return JsonResponse(selectors.log_page(game, since, limit, seat))


def game_result(request: HttpRequest, game_id: int) -> HttpResponse:
    """The result screen of a finished game (an HTML fragment the game page shows)."""
    game = _watched_game(request, game_id)
    if game.status != Game.Status.FINISHED:
        return HttpResponse("", status=204)
    summary = results.summary(game)
    players = summary["players"]
    rows = [
        {
            "seat": seat,
            "name": players[seat],
            "vp": summary["vp"][seat],
            "primary": summary["primary_vp_by_round"][seat],
            "destroyed": summary["units_destroyed"][seat],
            "cp_spent": summary["cp_spent"][seat],
        }
        for seat in results.SEATS
    ]
    context = {
        "game": game,
        "summary": summary,
        "winner_name": players.get(str(summary["winner"])) if summary["winner"] else None,
        "conceded_name": players.get(str(summary["conceded_by"])),
        "rows": rows,
        "chart": results.vp_chart(summary),
        "spectator_token": request.GET.get("spectate") or "",
    }
    return render(request, "games/_result.html", context)


def verify_dice(request: HttpRequest, game_id: int) -> JsonResponse:
    """Every die of the log re-derived from the revealed seed: how many matched."""
    return JsonResponse(results.verify_dice(_watched_game(request, game_id)))


def replay_state(request: HttpRequest, game_id: int) -> JsonResponse:
    """The public state after the actions begun at or before event `version`."""
    game = _watched_game(request, game_id)
    version = _whole_number(request, "version", game.version)
    if version is None:
        return _bad_request("version")
    try:
        state = replays.state_after(game, version)
    except services.GameError as error:
        return JsonResponse({"code": error.code, "message": error.message}, status=400)
    seen = selectors.state_for(state, game.seat_of(request.user))
    return JsonResponse({"version": version, "state": seen})


def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """The replay viewer: read-only, for the players and for spectators with the link."""
    game = _watched_game(request, game_id)
    context = {
        "game": game,
        "mission_name": selectors.mission_name(game),
        "spectator_token": request.GET.get("spectate") or "",
        "seat": game.seat_of(request.user),
    }
    return render(request, "games/replay.html", context)
