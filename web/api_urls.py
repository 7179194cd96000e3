"""URLs of the JSON API, included at /api/. Entries and receipts are keyed by their per-tournament numbers."""
from django.urls import path

from . import auth_api
from .clock import api as clock_api
from .tables import api as tables_api
from .tables import dealer_link_api, seating_api
from .tournament import api

T = "tournaments/<int:pk>"

urlpatterns = [
    path("auth/token/", auth_api.TokenView.as_view(), name="api-token"),
    path("auth/logout/", auth_api.LogoutView.as_view(), name="api-logout"),
    path("auth/tokens/", auth_api.TokenListView.as_view(), name="api-tokens"),
    path("auth/tokens/<int:token_id>/revoke/", auth_api.TokenRevokeView.as_view(), name="api-token-revoke"),
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
    path(f"{T}/entries/<int:number>/bust/", tables_api.EntryBustView.as_view(), name="api-entry-bust"),
    path(f"{T}/entries/<int:number>/undo-bust/", tables_api.EntryUndoBustView.as_view(), name="api-entry-undo-bust"),
    path(f"{T}/entries/<int:number>/seat/", seating_api.EntrySeatView.as_view(), name="api-entry-seat"),
    path(f"{T}/receipts/", api.ReceiptListView.as_view(), name="api-receipts"),
    path(f"{T}/receipts/<int:number>/", api.ReceiptDetailView.as_view(), name="api-receipt"),
    path(f"{T}/receipts/<int:number>/pay/", api.ReceiptPayView.as_view(), name="api-receipt-pay"),
    path(f"{T}/receipts/<int:number>/void/", api.ReceiptVoidView.as_view(), name="api-receipt-void"),
    path(f"{T}/events/", api.EventListView.as_view(), name="api-events"),
    path(f"{T}/displays/", api.DisplayListView.as_view(), name="api-displays"),
    path(f"{T}/displays/<int:display_id>/revoke/", api.DisplayRevokeView.as_view(), name="api-display-revoke"),
    path("players/", api.PlayerListView.as_view(), name="api-players"),
    path(f"{T}/clock/", clock_api.ClockView.as_view(), name="api-clock"),
    path(f"{T}/tables/", tables_api.TableListView.as_view(), name="api-tables"),
    path(f"{T}/tables/<int:number>/hand/", tables_api.HandStartView.as_view(), name="api-table-hand"),
    path(f"{T}/tables/<int:number>/button/", seating_api.TableButtonView.as_view(), name="api-table-button"),
    path(f"{T}/tables/<int:number>/in-play/", tables_api.TableInPlayView.as_view(), name="api-table-in-play"),
    path(f"{T}/tables/<int:number>/positions/", tables_api.TablePositionsView.as_view(), name="api-table-positions"),
    path(f"{T}/tables/break-order/", tables_api.BreakOrderView.as_view(), name="api-tables-break-order"),
    path(f"{T}/tables/<int:number>/dealer-links/", dealer_link_api.TableDealerLinksView.as_view(), name="api-table-dealer-links"),
    path(f"{T}/dealer-links/<int:link_id>/revoke/", dealer_link_api.DealerLinkRevokeView.as_view(), name="api-dealer-link-revoke"),
    path(f"{T}/moves/", tables_api.MoveListView.as_view(), name="api-moves"),
    path(f"{T}/hand-for-hand/", tables_api.HandForHandView.as_view(), name="api-hand-for-hand"),
    path(f"{T}/house-rules/", tables_api.HouseRulesView.as_view(), name="api-house-rules"),
    path(f"{T}/tables/<int:number>/hand-done/", tables_api.HandDoneView.as_view(), name="api-table-hand-done"),
    path(f"{T}/moves/balance/", tables_api.MoveBalanceView.as_view(), name="api-moves-balance"),
    path(f"{T}/moves/<int:number>/confirm/", tables_api.MoveConfirmView.as_view(), name="api-move-confirm"),
    path(f"{T}/moves/<int:number>/cancel/", tables_api.MoveCancelView.as_view(), name="api-move-cancel"),
    path(f"{T}/draw/", seating_api.DrawStartView.as_view(), name="api-draw-start"),
    path(f"{T}/draws/", seating_api.DrawListView.as_view(), name="api-draws"),
    path(f"{T}/draws/commit/", seating_api.DrawCommitView.as_view(), name="api-draw-commit"),
    path(f"{T}/draws/<int:number>/", seating_api.DrawVerifyView.as_view(), name="api-draw"),
    path(f"{T}/seating/waiting/", seating_api.SeatWaitingView.as_view(), name="api-seat-waiting"),
    path(f"{T}/players/<int:player_id>/seat-request/", seating_api.SeatRequestView.as_view(), name="api-seat-request"),
    path(f"{T}/map/", seating_api.FloorMapView.as_view(), name="api-floor-map"),
    path(f"public/{T}/seats/", seating_api.PublicSeatSearchView.as_view(), name="api-public-seats"),
    path(f"public/{T}/seats/<int:number>/", seating_api.PublicSeatView.as_view(), name="api-public-seat"),
    path("shuffler/hand-started/", tables_api.ShufflerHandStartView.as_view(), name="api-shuffler-hand"),
]
