"""Screens of the tables: the floor's overview, the table map, the dealer tablet, house rules, seat
cards, penalties, and the public seat and draw pages. These URLs only read (pages); the screens' JSON reads and
every change they make go through the JSON API (web/api_urls.py)."""

from django.urls import path

from . import count_views, penalty_views, views, waiting_board

urlpatterns = [
    path("t/<id:pk>/tables/", views.tables_page, name="tables"),
    path("t/<id:pk>/dealer/", views.dealer_choose, name="dealer-choose"),
    path("t/<id:pk>/tables/<id:number>/dealer/", views.dealer_page, name="dealer"),
    # A table's dealer link (tables/services/dealer_links.py): the tablet of that table, no login.
    path("dealer/<str:token>/", views.dealer_link_page, name="dealer-link"),
    path("t/<id:pk>/map/", views.floor_map_page, name="floor-map"),
    path("t/<id:pk>/house-rules/", views.house_rules_page, name="house-rules"),
    path("t/<id:pk>/color-up/", views.color_up_page, name="color-up"),
    path("t/<id:pk>/color-up/sheets/", views.color_up_sheets, name="color-up-sheets"),
    # Give and cancel penalties (TDA 51): the page; its forms send to the JSON API.
    path("t/<id:pk>/penalties/", penalty_views.penalties_page, name="penalties"),
    # Chip counts: the floor's page; its form sends to the JSON API.
    path("t/<id:pk>/counts/", count_views.chip_counts_page, name="chip-counts"),
    path("t/<id:pk>/seat-cards/", views.seat_cards_all, name="seat-cards"),
    path("t/<id:pk>/seat-cards/<id:number>/", views.seat_card, name="seat-card"),
    # Public: the player's phone and the room's check of the draws (names, tables and seats only).
    path("s/<id:pk>/", views.seat_search, name="seat-search"),
    path("s/<id:pk>/<id:number>/", views.seat_page, name="seat-page"),
    path("s/<id:pk>/counts/", count_views.public_counts, name="public-counts"),
    path("s/<id:pk>/draws/", views.draw_list, name="draw-list"),
    path("s/<id:pk>/draws/<id:number>/", views.draw_detail, name="draw-detail"),
    # Public: a sold-out tournament's waiting list on the players' phones (alternate numbers, never names).
    path("t/<id:pk>/waiting/", waiting_board.waiting_board, name="waiting-board"),
]
