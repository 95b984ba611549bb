from rest_framework.routers import SimpleRouter

from games.api import GameViewSet

router = SimpleRouter()
router.register("games", GameViewSet, basename="api-game")
urlpatterns = router.urls
