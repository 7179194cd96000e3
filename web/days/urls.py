"""Screens of the end of a day: the day page, the day's report (page, CSV, PDF) and the bag
slips. These URLs only read; closing the day goes through the JSON API (web/days/api.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("t/<id:pk>/day/", views.day_page, name="day"),
    path("t/<id:pk>/day/report/", views.day_report_page, name="day-report"),
    path("t/<id:pk>/day/report.csv", views.day_report_csv, name="day-report-csv"),
    path("t/<id:pk>/day/report.pdf", views.day_report_pdf, name="day-report-pdf"),
    path("t/<id:pk>/day/slips.pdf", views.bag_slips, name="bag-slips"),
    path("t/<id:pk>/day/slips/", views.bag_slip_sheets, name="bag-slip-sheets"),
]
