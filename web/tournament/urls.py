from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("preferences/", views.preferences, name="preferences"),
    path("healthz", views.healthz, name="healthz"),
    path("t/<int:pk>/", views.tournament_detail, name="tournament-detail"),
    path("t/<int:pk>/register/", views.register, name="register"),
    path("t/<int:pk>/players/new/", views.player_create, name="player-create"),
    path("t/<int:pk>/entries/", views.entry_list, name="entries"),
    path("t/<int:pk>/entries/<int:number>/", views.entry_detail, name="entry-detail"),
    path("t/<int:pk>/entries/<int:number>/chips/", views.entry_chips, name="entry-chips"),
    path("t/<int:pk>/entries/<int:number>/bust/", views.entry_bust, name="entry-bust"),
    path("t/<int:pk>/entries/<int:number>/undo-bust/", views.entry_undo_bust, name="entry-undo-bust"),
    path("t/<int:pk>/entries/<int:number>/seat-request/", views.entry_seat_request, name="entry-seat-request"),
    path("t/<int:pk>/receipts/<int:number>/", views.receipt, name="receipt"),
    path("t/<int:pk>/receipts/<int:number>/pdf/", views.receipt_pdf, name="receipt-pdf"),
    path("t/<int:pk>/receipts/<int:number>/void/", views.receipt_void, name="receipt-void"),
    path("t/<int:pk>/receipts/<int:number>/pay/", views.receipt_pay, name="receipt-pay"),
    path("t/<int:pk>/events/", views.events, name="events"),
    path("t/<int:pk>/snapshot.json", views.floor_snapshot_json, name="floor-snapshot"),
    path("t/<int:pk>/registration/", views.registration_toggle, name="registration-toggle"),
    path("t/<int:pk>/level/", views.level_set, name="level-set"),
    path("t/<int:pk>/displays/", views.displays, name="displays"),
    path("t/<int:pk>/displays/<int:display_id>/revoke/", views.display_revoke, name="display-revoke"),
    path("display/<str:token>/", views.lobby, name="lobby"),
    path("display/<str:token>/snapshot.json", views.lobby_snapshot_json, name="lobby-snapshot"),
]
