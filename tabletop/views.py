from django.shortcuts import render

from games import selectors


def home(request):
    """What the site is, Play (sign up or log in, then the lobby) and Watch (listed games)."""
    return render(request, "home.html", {"watchable": selectors.listed_games()})
