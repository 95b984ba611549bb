from rest_framework.routers import SimpleRouter

from rules import api

app_name = "rules"

router = SimpleRouter()
router.register("rulesets", api.RuleSetViewSet)
router.register("factions", api.FactionViewSet)
router.register("abilities", api.AbilityViewSet)
router.register("detachments", api.DetachmentViewSet)
router.register("stratagems", api.StratagemViewSet)
router.register("enhancements", api.EnhancementViewSet)
router.register("datasheets", api.DatasheetViewSet)
router.register("missions", api.MissionViewSet)

urlpatterns = router.urls
