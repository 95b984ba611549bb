"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets are checked against ALLOWED_HOSTS (Origin header) and carry the Django session user.
"""

import gc
import os
import sys
import threading

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")
# Django must be set up before anything imports models (the routing does).
django_http = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from games.matches import expire_due_windows_at_start_up  # noqa: E402
from games.practice import resume_at_start_up  # noqa: E402
from tabletop.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Static files are served from the app's own directories so `make run` needs no
        # collectstatic step and no separate web server.
        "http": ASGIStaticFilesHandler(django_http),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# The cyclic garbage collector of a worker: what start-up built (Django, the libraries, the
# modules) is frozen out of its scans, and young objects are collected less often. Every action
# builds a new engine state of thousands of containers that survive into the older generations;
# with the defaults a full collection came every few seconds under load and stopped every game
# of the worker for up to 366 ms (docs/performance.md, "Third pass"). Not under pytest.
GC_THRESHOLDS = (5000, 20, 100)

# Stratagem windows whose deadline passed while the server was down pass at start-up
# (games/window_clock.py). Not under pytest, whose test database does not exist yet at import.
if "pytest" not in sys.modules:
    threading.Thread(
        target=expire_due_windows_at_start_up, name="expire-due-windows", daemon=True
    ).start()
    # Practice games whose computer was to act when the server stopped resume (games/practice.py).
    threading.Thread(target=resume_at_start_up, name="resume-practice", daemon=True).start()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(settings.SWITCH_INTERVAL_US / 1_000_000)
