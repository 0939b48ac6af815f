from django.contrib import admin

from releases.models import Release


@admin.register(Release)
class ReleaseAdmin(admin.ModelAdmin):
    """Read-only: releases are immutable; build them from /releases/new/ or the API."""

    list_display = ("number", "title", "status", "records_done", "created_by", "created_at", "finished_at")
    list_filter = ("status",)
    search_fields = ("title",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
