"""The suite's database is a real PostgreSQL when run through scripts/test."""

import os

import pytest
from django.db import connection, transaction

from workers.heartbeat import beat
from workers.models import WorkerHeartbeat

pytestmark = pytest.mark.postgres


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="DATABASE_URL does not point at PostgreSQL (scripts/test sets it)",
)
@pytest.mark.django_db(transaction=True)
def test_real_postgresql_row_locks_skip_what_another_session_holds():
    """Workers claim rows with SKIP LOCKED; prove the server really does it."""
    import psycopg

    assert connection.vendor == "postgresql"
    beat(name="w1", queues=["q"], embedded=False)
    beat(name="w2", queues=["q"], embedded=False)
    params = connection.get_connection_params()
    with transaction.atomic():
        held = WorkerHeartbeat.objects.select_for_update().get(name="w1")
        # A second, independent session must skip the locked row.
        with psycopg.connect(**params, autocommit=False) as other:
            rows = other.execute(
                "SELECT name FROM workers_workerheartbeat ORDER BY name FOR UPDATE SKIP LOCKED"
            ).fetchall()
        assert held.name == "w1"
        assert [r[0] for r in rows] == ["w2"]
