"""`manage.py probe_worker --queue Q`: is any worker consuming Q right now?"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from workers.services import ProbeTimeout, probe_send, probe_wait


class Command(BaseCommand):
    help = "Send a probe message to a queue and report which worker answered."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--queue", default="eval.cpu-sim")
        parser.add_argument("--timeout", type=float, default=10.0)

    def handle(self, *args, queue: str, timeout: float, **options) -> None:
        token = probe_send(queue=queue)
        try:
            row = probe_wait(token=token, timeout_s=timeout)
        except ProbeTimeout as exc:
            raise CommandError(f"queue '{queue}': {exc}") from exc
        self.stdout.write(f"queue '{queue}' answered by {row.name} (queues: {', '.join(row.queues)})")
