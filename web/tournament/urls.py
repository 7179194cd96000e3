"""The screens of the tournament app. They only read: every change goes through the JSON API (web/api_urls.py)."""

from django.urls import path

from . import reservations, views

urlpatterns = [
    path("", views.home, name="home"),
    path("preferences/", views.preferences, name="preferences"),
    path("healthz", views.healthz, name="healthz"),
    path("t/<id:pk>/", views.tournament_detail, name="tournament-detail"),
    path("t/<id:pk>/register/", views.register, name="register"),
    path("t/<id:pk>/players/new/", views.player_create, name="player-create"),
    path("t/<id:pk>/waiting-list/", views.waiting_list, name="waiting-list"),
    path("t/<id:pk>/reservations/", reservations.reservations_page, name="reservations"),
    path("t/<id:pk>/reserve/", reservations.reserve_page, name="reserve"),
    path("t/<id:pk>/reservation/<str:code>/", reservations.reservation_page, name="reservation"),
    path("t/<id:pk>/entries/", views.entry_list, name="entries"),
    path("t/<id:pk>/entries/<id:number>/", views.entry_detail, name="entry-detail"),
    path("t/<id:pk>/receipts/<id:number>/", views.receipt, name="receipt"),
    path("t/<id:pk>/receipts/<id:number>/pdf/", views.receipt_pdf, name="receipt-pdf"),
    path("t/<id:pk>/events/", views.events, name="events"),
    path("t/<id:pk>/displays/", views.displays, name="displays"),
    path("display/<str:token>/", views.lobby, name="lobby"),
]
