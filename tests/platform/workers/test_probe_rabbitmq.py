"""A message really travels through RabbitMQ to a dramatiq worker that writes to the database."""

import os
import uuid

import dramatiq
import pytest
from dramatiq import Worker
from dramatiq.brokers.rabbitmq import RabbitmqBroker

from workers.models import WorkerHeartbeat
from workers.services import ProbeTimeout, probe_send, probe_wait

pytestmark = pytest.mark.rabbitmq

needs_rabbitmq = pytest.mark.skipif(
    not os.environ.get("BROKER_URL", "").startswith("amqp"),
    reason="BROKER_URL does not point at RabbitMQ (scripts/test sets it)",
)


@pytest.fixture
def fresh_queue():
    broker = dramatiq.get_broker()
    name = f"test.probe.{uuid.uuid4().hex[:8]}"
    broker.declare_queue(name)
    yield broker, name
    if isinstance(broker, RabbitmqBroker):
        broker.channel.queue_delete(name)
        broker.channel.queue_delete(f"{name}.DQ")
        broker.channel.queue_delete(f"{name}.XQ")


@needs_rabbitmq
@pytest.mark.django_db(transaction=True)
def test_probe_round_trip_through_rabbitmq(fresh_queue):
    broker, queue = fresh_queue
    assert isinstance(broker, RabbitmqBroker)
    worker = Worker(broker, queues={queue}, worker_threads=1, worker_timeout=100)
    worker.start()
    try:
        token = probe_send(queue=queue)
        row = probe_wait(token=token, timeout_s=20)
    finally:
        worker.stop(timeout=5000)
    assert row.last_probe == token
    assert row.last_probe_at is not None
    # The heartbeat middleware registered the worker with the queue it consumes.
    assert queue in WorkerHeartbeat.objects.get(name=row.name).queues


@needs_rabbitmq
@pytest.mark.django_db(transaction=True)
def test_probe_times_out_when_no_worker_consumes_the_queue(fresh_queue):
    _, queue = fresh_queue
    token = probe_send(queue=queue)
    with pytest.raises(ProbeTimeout, match="rundramatiq"):
        probe_wait(token=token, timeout_s=1)
