"""Ascend-CoT releases: numbered, immutable training sets built from the platform's data.

A Release row is created with its filters (status ``queued``); a worker builds the files
(``building``, with progress) and marks it ``ready`` with the zip's sha256, or ``failed`` with
the reason. The files live under ``settings.AKGEN_RELEASES_DIR/<number>/`` and are never
rewritten once ready.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ReleaseStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    BUILDING = "building", "Building"
    READY = "ready", "Ready"
    FAILED = "failed", "Failed"


class Release(models.Model):
    number = models.PositiveIntegerField(unique=True)
    title = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=ReleaseStatus.choices, default=ReleaseStatus.QUEUED,
                              db_index=True)
    filters = models.JSONField(default=dict, help_text="The canonical filters (releases.filters).")
    stage = models.CharField(max_length=40, blank=True, default="")
    records_done = models.PositiveIntegerField(default=0)
    records_expected = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict, blank=True, help_text="Records per subset and split.")
    sha256 = models.CharField(max_length=64, blank=True, default="", help_text="Of the zip.")
    zip_bytes = models.BigIntegerField(default=0)
    git_revision = models.CharField(max_length=64, blank=True, default="")
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-number"]
        permissions = [("curate", "Can build Ascend-CoT releases")]

    def __str__(self) -> str:
        return f"Ascend-CoT v{self.number}"

    @property
    def is_finished(self) -> bool:
        return self.status in (ReleaseStatus.READY, ReleaseStatus.FAILED)

    @property
    def percent(self) -> int:
        if self.status == ReleaseStatus.READY:
            return 100
        if not self.records_expected:
            return 0
        return min(99, round(100 * self.records_done / self.records_expected))

    @property
    def total_records(self) -> int:
        return sum(sum(splits.values()) for splits in (self.counts or {}).get("subsets", {}).values())
