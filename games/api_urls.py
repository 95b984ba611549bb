from rest_framework.routers import SimpleRouter

from games.api import ArmyViewSet, GameViewSet

router = SimpleRouter()
router.register("games", GameViewSet, basename="api-game")
router.register("armies", ArmyViewSet, basename="api-army")
urlpatterns = router.urls
