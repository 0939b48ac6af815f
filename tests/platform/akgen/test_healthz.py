"""/healthz against the real services the suite runs on."""

import pytest
from django.utils import timezone

from workers.heartbeat import beat
from workers.models import WorkerHeartbeat

TOKEN = "monitor-secret-123"


@pytest.fixture(autouse=True)
def health_token(settings):
    settings.AKGEN_HEALTH_TOKEN = TOKEN


def _get(client):
    return client.get("/healthz", headers={"Authorization": f"Bearer {TOKEN}"})


@pytest.mark.django_db
def test_healthz_reports_database_broker_and_no_worker(client, settings):
    response = _get(client)
    assert response.status_code == 200
    body = response.json()
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["broker"]["kind"] == ("rabbitmq" if settings.BROKER_URL.startswith("amqp") else body["broker"]["kind"])
    assert body["workers"] == {"ok": False, "alive": 0, "workers": []}
    assert body["evaluations"]["ok"] is True and body["evaluations"]["expired_leases"] == 0
    assert body["status"] == "degraded"


@pytest.mark.django_db
def test_healthz_counts_only_fresh_heartbeats(client):
    beat(name="host-a:1", queues=["eval.cpu-sim"], embedded=False)
    beat(name="host-b:2", queues=["eval.cann-910b"], embedded=False)
    WorkerHeartbeat.objects.filter(name="host-b:2").update(
        last_seen=timezone.now() - timezone.timedelta(minutes=10)
    )
    body = _get(client).json()
    by_name = {w["name"]: w for w in body["workers"]["workers"]}
    assert by_name["host-a:1"]["alive"] is True
    assert by_name["host-b:2"]["alive"] is False
    assert body["workers"]["alive"] == 1


@pytest.mark.django_db
def test_healthz_reports_unreachable_broker(client, settings):
    settings.BROKER_URL = "amqp://guest:guest@127.0.0.1:1/%2F"
    body = _get(client).json()
    assert body["broker"]["ok"] is False
    assert "error" in body["broker"]
    assert body["status"] == "degraded"


@pytest.mark.django_db
def test_healthz_reports_expired_leases_and_overdue_evaluations(client, task, settings):
    from submissions.models import EvalStatus, Evaluation, Submission

    beat(name="host-a:1", queues=["eval.cpu-sim"], embedded=False)
    assert _get(client).json()["status"] == "ok"
    now = timezone.now()

    def evaluation(**fields):
        sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                        kernel_source="// k\n", sha256=str(len(fields)) * 64)
        return Evaluation.objects.create(submission=sub, **fields)

    evaluation(status=EvalStatus.RUNNING, lease_until=now - timezone.timedelta(seconds=5), enqueued_at=now)
    body = _get(client).json()
    assert body["evaluations"]["expired_leases"] == 1 and body["evaluations"]["overdue"] == 0
    assert body["status"] == "degraded"
    Evaluation.objects.update(lease_until=now + timezone.timedelta(minutes=1))
    evaluation(status=EvalStatus.QUEUED, enqueued_at=now - timezone.timedelta(seconds=settings.AKGEN_EVAL_OVERDUE_S + 5))
    body = _get(client).json()
    assert body["evaluations"]["expired_leases"] == 0 and body["evaluations"]["overdue"] == 1
    assert body["evaluations"]["oldest_wait_s"] >= settings.AKGEN_EVAL_OVERDUE_S
    assert body["status"] == "degraded"


@pytest.mark.django_db
def test_healthz_details_are_for_staff_and_the_health_token(client, django_user_model):
    beat(name="host-secret:4242", queues=["eval.cpu-sim"], embedded=False)
    public = client.get("/healthz")
    assert public.status_code == 200 and public.json() == {"status": "ok"}
    wrong = client.get("/healthz", headers={"Authorization": "Bearer guess"})
    assert "workers" not in wrong.json()
    assert _get(client).json()["workers"]["workers"][0]["name"] == "host-secret:4242"
    client.force_login(django_user_model.objects.create_user("ops", is_staff=True))
    assert "workers" in client.get("/healthz").json()
