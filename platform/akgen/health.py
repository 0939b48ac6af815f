"""Health probes for /healthz: is the database reachable, the broker, and are workers alive."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from submissions.waiting import queue_health
from workers.heartbeat import alive_cutoff
from workers.models import WorkerHeartbeat


def database_status() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # report, never raise: a probe must answer
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)[:300]}
    return {"ok": True, "vendor": connection.vendor}


def broker_status() -> dict[str, Any]:
    url = settings.BROKER_URL
    if not url:
        return {"ok": True, "kind": "embedded"}
    try:
        if url.startswith("redis"):
            import redis

            redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
            return {"ok": True, "kind": "redis"}
        import pika

        params = pika.URLParameters(url)
        params.socket_timeout = 2
        params.blocked_connection_timeout = 2
        params.connection_attempts = 1
        pika.BlockingConnection(params).close()
        return {"ok": True, "kind": "rabbitmq"}
    except Exception as exc:
        kind = "redis" if url.startswith("redis") else "rabbitmq"
        return {"ok": False, "kind": kind, "error": f"{type(exc).__name__}: {exc}"[:300]}


def workers_status() -> dict[str, Any]:
    try:
        cutoff = alive_cutoff()
        now = timezone.now()
        rows = list(WorkerHeartbeat.objects.filter(stopped_at__isnull=True).order_by("-last_seen")[:50])
    except Exception as exc:
        return {"ok": False, "alive": 0, "workers": [], "error": str(exc)[:300]}
    workers = [
        {
            "name": row.name,
            "queues": row.queues,
            "embedded": row.embedded,
            "last_seen": row.last_seen.isoformat(),
            "age_s": round((now - row.last_seen).total_seconds(), 1),
            "alive": row.last_seen >= cutoff,
        }
        for row in rows
    ]
    alive = sum(1 for w in workers if w["alive"])
    return {"ok": alive > 0, "alive": alive, "workers": workers}


def evaluations_status() -> dict[str, Any]:
    """Are evaluations moving: expired leases (a worker died mid-run) and overdue waits."""
    try:
        return queue_health().as_dict()
    except Exception as exc:
        return {"ok": False, "error": str(exc)[:300]}


def health_report() -> dict[str, Any]:
    report = {
        "database": database_status(),
        "broker": broker_status(),
        "workers": workers_status(),
    }
    report["evaluations"] = evaluations_status() if report["database"]["ok"] else {"ok": False}
    if not report["database"]["ok"]:
        report["status"] = "down"
    elif report["broker"]["ok"] and report["workers"]["ok"] and report["evaluations"]["ok"]:
        report["status"] = "ok"
    else:
        report["status"] = "degraded"
    return report
