"""The admin: staff accounts and roles (Django's own), and read-only views of the tournament records.

Entries, receipts, ID checks and the audit log are changed only through services (audited), never here.
"""

from django.contrib import admin

from tournament.models import AuditEvent, DisplayToken, Entry, IdCheck, Player, Purchase, StaffProfile, Tournament


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "venue", "start_at", "status", "current_level")


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("last_name", "first_name", "nickname", "date_of_birth")
    search_fields = ("last_name", "first_name", "nickname")
    exclude = ("id_hmac",)


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "player", "kind", "status", "finish_place")
    list_filter = ("tournament", "status")
    exclude = ("id_hmac",)


@admin.register(Purchase)
class PurchaseAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "kind", "status", "amount", "fee", "chips", "created_by")
    list_filter = ("tournament", "kind", "status")


@admin.register(IdCheck)
class IdCheckAdmin(ReadOnlyAdmin):
    list_display = ("player", "purpose", "document_type", "number_last4", "checked_by", "checked_at")
    exclude = ("number_hmac",)


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "seq", "type", "actor_label", "at")
    list_filter = ("tournament", "type")


@admin.register(DisplayToken)
class DisplayTokenAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "label", "created_at", "revoked_at")
    exclude = ("token_hash",)


@admin.register(StaffProfile)
class StaffProfileAdmin(admin.ModelAdmin):
    """A staff member's language, and the tournaments a Floor, Cashier or Dealer works only (empty: every one).
    A change closes that member's open sockets that it no longer allows (live/apps.py)."""

    list_display = ("user", "language", "works")
    filter_horizontal = ("tournaments",)

    @admin.display(description="works")
    def works(self, profile) -> str:
        return ", ".join(t.name for t in profile.tournaments.all()) or "every tournament"
