from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from rules.preview_api import AttackPreviewView
from tabletop import health, metrics, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("metrics", metrics.metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("games.api_urls")),
    path("api/rules/", include("rules.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The API pages come from drf-spectacular: Swagger's script is served as a file (the split
    # view); both pages keep a small inline style, and Redoc an inline start-up script and a
    # worker, so only these two pages allow them (the Content-Security-Policy, settings.py).
    path(
        "api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
    path("api/attack-preview/", AttackPreviewView.as_view(), name="attack-preview"),
    path(
        "api/redoc/",
        csp_update(
            {
                "script-src": ["'unsafe-inline'"],
                "style-src": ["'unsafe-inline'"],
                "worker-src": ["blob:"],
            }
        )(SpectacularRedocView.as_view(url_name="api-schema")),
        name="api-redoc",
    ),
]
