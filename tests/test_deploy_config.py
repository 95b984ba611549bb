"""deploy/nginx.conf routes every socket of one game to the same daphne worker (README, "Scaled
deployment"): its map must find the game id in the path the game's consumer is routed on."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls.resolvers import RegexPattern, URLResolver

from games.routing import websocket_urlpatterns

SOCKETS = URLResolver(RegexPattern(r"^"), websocket_urlpatterns)
CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf"


def game_pattern() -> re.Pattern:
    found = re.search(r"~\^(/ws/games/\S+)\s+\$id;", CONFIG.read_text())
    assert found, "deploy/nginx.conf has no map from a game socket's path to its game"
    # PCRE's named group `(?<id>...)` is `(?P<id>...)` in Python.
    return re.compile("^" + found.group(1).replace("(?<", "(?P<"))


def test_the_proxy_finds_the_game_in_the_path_the_consumer_is_routed_on():
    pattern = game_pattern()
    for game_id in (1, 42, 987654):
        path = f"/ws/games/{game_id}/"
        assert SOCKETS.resolve(path[1:]).kwargs == {"game_id": game_id}
        assert pattern.match(path).group("id") == str(game_id)
        assert pattern.match(f"{path}?spectate=abc").group("id") == str(game_id)
    assert pattern.match("/games/42/") is None


def test_the_proxy_configuration_is_valid_nginx(tmp_path):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.skip(
            "nginx is not installed (Debian's nginx-light); the config's syntax is unchecked"
        )
    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(CONFIG)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
