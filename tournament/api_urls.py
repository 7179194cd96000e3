"""URLs of the JSON API, included at /api/. Entries and receipts are keyed by their per-tournament numbers."""
from django.urls import path

from . import api

T = "tournaments/<int:pk>"

urlpatterns = [
    path("auth/token/", api.TokenView.as_view(), name="api-token"),
    path("structures/", api.StructureListView.as_view(), name="api-structures"),
    path("structures/import/", api.StructureImportView.as_view(), name="api-structure-import"),
    path("structures/<int:pk>/", api.StructureDetailView.as_view(), name="api-structure"),
    path("structures/<int:pk>/copy/", api.StructureCopyView.as_view(), name="api-structure-copy"),
    path("structures/<int:pk>/export/", api.StructureExportView.as_view(), name="api-structure-export"),
    path("tournaments/", api.TournamentListView.as_view(), name="api-tournaments"),
    path(f"{T}/", api.TournamentDetailView.as_view(), name="api-tournament"),
    path(f"{T}/structure/", api.TournamentStructureView.as_view(), name="api-tournament-structure"),
    path(f"{T}/registration/", api.RegistrationView.as_view(), name="api-registration"),
    path(f"{T}/stats/", api.StatsView.as_view(), name="api-stats"),
    path(f"{T}/entries/", api.EntryListView.as_view(), name="api-entries"),
    path(f"{T}/entries/<int:number>/", api.EntryDetailView.as_view(), name="api-entry"),
    path(f"{T}/entries/<int:number>/rebuy/", api.EntryRebuyView.as_view(), name="api-entry-rebuy"),
    path(f"{T}/entries/<int:number>/addon/", api.EntryAddonView.as_view(), name="api-entry-addon"),
    path(f"{T}/entries/<int:number>/bust/", api.EntryBustView.as_view(), name="api-entry-bust"),
    path(f"{T}/receipts/", api.ReceiptListView.as_view(), name="api-receipts"),
    path(f"{T}/receipts/<int:number>/", api.ReceiptDetailView.as_view(), name="api-receipt"),
    path(f"{T}/receipts/<int:number>/pay/", api.ReceiptPayView.as_view(), name="api-receipt-pay"),
    path(f"{T}/receipts/<int:number>/void/", api.ReceiptVoidView.as_view(), name="api-receipt-void"),
    path(f"{T}/events/", api.EventListView.as_view(), name="api-events"),
    path(f"{T}/displays/", api.DisplayListView.as_view(), name="api-displays"),
    path(f"{T}/displays/<int:display_id>/revoke/", api.DisplayRevokeView.as_view(), name="api-display-revoke"),
    path("players/", api.PlayerListView.as_view(), name="api-players"),
]
