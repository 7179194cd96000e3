"""The payouts screen (it only reads; changes go through the JSON API)."""

from django.urls import path

from . import views

urlpatterns = [
    path("t/<id:pk>/payouts/", views.payouts_page, name="payouts"),
    path("t/<id:pk>/payouts/pay/<id:number>/", views.pay_page, name="payout-pay"),
    path("t/<id:pk>/payouts/receipts/<id:number>/", views.payout_receipt, name="payout-receipt"),
    path("t/<id:pk>/payouts/receipts/<id:number>/pdf/", views.payout_receipt_pdf, name="payout-receipt-pdf"),
    path("t/<id:pk>/payouts/bounties/pay/<id:number>/", views.bounty_pay_page, name="bounty-pay"),
    path("t/<id:pk>/payouts/bounty-receipts/<id:number>/", views.bounty_receipt, name="bounty-receipt"),
    path("t/<id:pk>/payouts/bounty-receipts/<id:number>/pdf/", views.bounty_receipt_pdf, name="bounty-receipt-pdf"),
    path("t/<id:pk>/payouts/results/csv/", views.results_csv, name="payout-results-csv"),
    path("t/<id:pk>/payouts/results/pdf/", views.results_pdf, name="payout-results-pdf"),
    path("t/<id:pk>/payouts/reconciliation/", views.reconciliation_page, name="payout-reconciliation"),
]
