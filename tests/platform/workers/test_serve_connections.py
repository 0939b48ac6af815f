"""`manage.py serve` on PostgreSQL keeps a bounded number of database connections however many
requests it answers (each request runs in a thread of its own)."""

from __future__ import annotations

import os
import socket
import time
import urllib.request

import pytest
from django.db import connection

from tests.platform.procs import Proc, wait_until_serving
from tests.platform.submissions.test_faults import _env

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _connections(db: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [db])
        return cursor.fetchone()[0]


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="needs PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_serve_does_not_leak_a_connection_per_request(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = _env(tmp_path)
    env.pop("BROKER_URL", None)  # embedded mode on PostgreSQL
    server = Proc(["serve", f"127.0.0.1:{port}", "--worker-threads", "1"], env, tmp_path / "serve.log")
    db = connection.settings_dict["NAME"]
    try:
        wait_until_serving(f"http://127.0.0.1:{port}/healthz", server)
        before = _connections(db)
        for _ in range(30):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/tasks/", timeout=10).read()
        time.sleep(1)
        after = _connections(db)
    finally:
        server.stop()
    assert after <= before + 2, f"{after - before} connections more after 30 requests"
