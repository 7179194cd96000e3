"""Screens of the tables: the floor's overview and the dealer tablet of one table."""
from django.urls import path

from . import views

urlpatterns = [
    path("t/<int:pk>/tables/", views.tables_page, name="tables"),
    path("t/<int:pk>/tables/open/", views.table_open, name="table-open"),
    path("t/<int:pk>/tables/break-order/", views.tables_break_order, name="tables-break-order"),
    path("t/<int:pk>/tables/<int:number>/in-play/", views.table_in_play, name="table-in-play"),
    path("t/<int:pk>/dealer/", views.dealer_choose, name="dealer-choose"),
    path("t/<int:pk>/tables/<int:number>/dealer/", views.dealer_page, name="dealer"),
    path("t/<int:pk>/tables/<int:number>/dealer/state.json", views.dealer_state, name="dealer-state"),
    path("t/<int:pk>/tables/<int:number>/hand/", views.hand_start, name="hand-start"),
    path("t/<int:pk>/tables/<int:number>/hand/undo/", views.hand_undo, name="hand-undo"),
    path("t/<int:pk>/tables/<int:number>/hand/done/", views.hand_done, name="hand-done"),
]

urlpatterns += [
    path("t/<int:pk>/map/", views.floor_map_page, name="floor-map"),
    path("t/<int:pk>/house-rules/", views.house_rules_page, name="house-rules"),
    path("t/<int:pk>/map.json", views.floor_map_json, name="floor-map-json"),
    path("t/<int:pk>/map/entries/<int:number>/bust/", views.map_bust, name="map-bust"),
    path("t/<int:pk>/map/entries/<int:number>/undo-bust/", views.map_undo_bust, name="map-undo-bust"),
    path("t/<int:pk>/map/entries/<int:number>/correct/", views.map_correct, name="map-correct"),
    path("t/<int:pk>/map/tables/<int:number>/button/", views.map_button, name="map-button"),
    path("t/<int:pk>/map/tables/<int:number>/positions/", views.map_positions, name="map-positions"),
    path("t/<int:pk>/map/moves/<int:number>/confirm/", views.map_move_confirm, name="map-move-confirm"),
    path("t/<int:pk>/map/moves/<int:number>/cancel/", views.map_move_cancel, name="map-move-cancel"),
    path("t/<int:pk>/map/moves/balance/", views.map_balance_now, name="map-balance-now"),
    path("t/<int:pk>/map/tables/<int:number>/hand-done/", views.map_hand_done, name="map-hand-done"),
    path("t/<int:pk>/map/hand-for-hand/", views.map_hand_for_hand, name="map-hand-for-hand"),
    path("t/<int:pk>/map/tables/open/", views.map_open_table, name="map-open-table"),
    path("t/<int:pk>/map/draw/", views.map_draw_start, name="map-draw-start"),
    path("t/<int:pk>/map/seat-waiting/", views.map_seat_waiting, name="map-seat-waiting"),
    path("t/<int:pk>/seat-cards/", views.seat_cards_all, name="seat-cards"),
    path("t/<int:pk>/seat-cards/<int:number>/", views.seat_card, name="seat-card"),
    # Public: the player's phone and the room's check of the draws (names, tables and seats only).
    path("s/<int:pk>/", views.seat_search, name="seat-search"),
    path("s/<int:pk>/<int:number>/", views.seat_page, name="seat-page"),
    path("s/<int:pk>/<int:number>.json", views.seat_json, name="seat-json"),
    path("s/<int:pk>/draws/", views.draw_list, name="draw-list"),
    path("s/<int:pk>/draws.json", views.draws_json, name="draws-json"),
    path("s/<int:pk>/draws/<int:number>/", views.draw_detail, name="draw-detail"),
]
