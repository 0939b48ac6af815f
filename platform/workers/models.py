from django.db import models


class WorkerHeartbeat(models.Model):
    """One row per worker process, refreshed while it runs.

    /healthz and the reconciler read it to tell a live worker from one that died without
    saying goodbye (a SIGKILLed process never runs its shutdown hooks).
    """

    name = models.CharField(max_length=200, unique=True)
    hostname = models.CharField(max_length=200)
    pid = models.IntegerField()
    queues = models.JSONField(default=list)
    embedded = models.BooleanField(default=False)
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField(db_index=True)
    stopped_at = models.DateTimeField(null=True, blank=True)
    last_probe = models.CharField(max_length=64, blank=True, default="")
    last_probe_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-last_seen"]

    def __str__(self) -> str:
        return self.name
