"""Lobby pages: thin views that parse, authorise and call games.services."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from games import matches, services
from games.forms import NewGameForm, SignUpForm
from games.models import BattleSize, Game


def sign_up(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_safe_next(request, request.GET.get("next", "")) or "lobby")
    return render(request, "registration/sign_up.html", {"form": form})


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                request.user,
                ruleset_slug=form.cleaned_data["ruleset"].slug,
                battle_size=form.cleaned_data["battle_size"],
                window_time_limit=form.cleaned_data["window_time_limit"],
            )
        except services.GameError as error:
            form.add_error(None, error.message)
        else:
            return redirect("game-detail", game_id=game.pk)
    games = (
        Game.objects.filter(Q(creator=request.user) | Q(opponent=request.user))
        .select_related("creator", "opponent", "ruleset")
        .order_by("-updated")
    )
    armies = request.user.armies.all()
    context = {"games": games, "form": form, "armies": armies}
    return render(request, "games/lobby.html", context)


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
    context = {
        "game": game,
        "seat": seat,
        "spectator": False,
        "links": _links(request, game),
        "armies": request.user.armies.all() if picking else None,
    }
    return render(request, "games/game.html", context)


def spectate(request: HttpRequest, game_id: int, token: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not game.spectator_token or token != game.spectator_token:
        raise Http404("This spectator link does not exist or was revoked.")
    context = {"game": game, "seat": None, "spectator": True, "spectator_token": token}
    return render(request, "games/game.html", context)


@login_required
def join(request: HttpRequest, token: str) -> HttpResponse:
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
