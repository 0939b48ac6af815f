from django.contrib import admin

from leaderboard.models import Quarantine, Report


@admin.register(Quarantine)
class QuarantineAdmin(admin.ModelAdmin):
    list_display = ("submission", "reason", "created_by", "created_at")
    raw_id_fields = ("submission",)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("submission", "reporter", "reason", "resolved", "created_at")
    list_filter = ("resolved",)
    raw_id_fields = ("submission",)
