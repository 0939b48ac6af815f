from django.conf import settings
from django.db import models


class Scope(models.TextChoices):
    SUBMIT = "submit", "submit — create submissions, models and runs"
    READ = "read", "read — tasks, your submissions, runs"
    EXPORT = "export", "export — download dataset releases"


class ApiToken(models.Model):
    """A personal API key: `akg_XXXXXXXX_<secret>`.

    Only the visible prefix (`akg_XXXXXXXX`, unique, used for the lookup) and the SHA-256 of the
    32-byte secret are stored; the full key is shown once, when it is created.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=80)
    prefix = models.CharField(max_length=16, unique=True)
    secret_sha256 = models.CharField(max_length=64)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix} ({self.name})"

    def has_scope(self, scope: str) -> bool:
        return scope in (self.scopes or [])

    def state(self, now) -> str:
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return "active"


class RateCounter(models.Model):
    """A fixed-window request counter, used when no Redis is configured.

    Incremented with one atomic `INSERT … ON CONFLICT DO UPDATE SET count = count + 1 RETURNING`,
    so concurrent requests never lose a count (accounts.ratelimit).
    """

    key = models.CharField(max_length=200)
    window = models.BigIntegerField(help_text="Window start, in seconds since the epoch.")
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "window"], name="ratecounter_unique_key_window")]

    def __str__(self) -> str:
        return f"{self.key}@{self.window}={self.count}"
