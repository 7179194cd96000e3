"""Screens of the leagues: the leagues page, a league's page, its standings as CSV and PDF, and the players'
standings page. These URLs only read; every change goes through the JSON API (web/leagues/api.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("leagues/", views.leagues_page, name="leagues"),
    path("leagues/<id:league_id>/", views.league_page, name="league"),
    path("leagues/<id:league_id>/standings.csv", views.league_csv, name="league-csv"),
    path("leagues/<id:league_id>/standings.pdf", views.league_pdf, name="league-pdf"),
    path("l/<id:league_id>/", views.league_public, name="league-public"),
    path("players/<id:player_id>/", views.player_page, name="player-results"),
]
