"""`manage.py bootstrap_demo`: a demo admin for the embedded set-up, created once, and a starter
queue of each kind in the expert workspace, so a fresh install is not a dead end."""

from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from annotations.models import Queue
from annotations.services import queue_create


class Command(BaseCommand):
    help = ("Create the demo admin account once and print its credentials (kept in var/); create a starter "
            "workspace queue of each kind when there is none.")

    def handle(self, *args, **options) -> None:
        User = get_user_model()
        credentials_file = Path(settings.VAR_DIR) / "demo-admin.txt"
        username = "admin"
        if User.objects.filter(username=username).exists() and credentials_file.exists():
            password = credentials_file.read_text().strip()
            verb = "Demo admin (existing)"
        else:
            password = secrets.token_urlsafe(12)
            user, _ = User.objects.get_or_create(
                username=username, defaults={"email": "admin@localhost"}
            )
            user.is_staff = True
            user.is_superuser = True
            user.set_password(password)
            user.save()
            credentials_file.parent.mkdir(parents=True, exist_ok=True)
            credentials_file.write_text(password + "\n")
            credentials_file.chmod(0o600)
            verb = "Demo admin created"
        self.stdout.write(self.style.SUCCESS(f"{verb}: username '{username}', password '{password}'"))
        made = starter_queues()
        if made:
            self.stdout.write(f"Starter workspace queues: {', '.join(made)} (/workspace/; fill them by a rule)")


#: (slug, name, kind, guidelines) of the queues a fresh install starts with.
STARTER_QUEUES = (
    ("explain-starter", "Explain expert kernels", "explain",
     "Explain how the kernel partitions the work, pipelines it and meets the hardware rules; link each "
     "section to the lines it is about."),
    ("fix-starter", "Fix failing kernels", "fix",
     "Find the root cause of the failure, name its category and fix the kernel until the evaluator passes it."),
    ("docqa-starter", "AscendC questions", "docqa",
     "Answer the question accurately and concisely; give the reasoning that leads to the answer."),
)


def starter_queues() -> list[str]:
    """A queue of each kind, only when the workspace has none (never touches existing queues)."""
    if Queue.objects.exists():
        return []
    for slug, name, kind, guidelines in STARTER_QUEUES:
        queue_create(by=None, slug=slug, name=name, kind=kind, guidelines=guidelines)
    return [slug for slug, *_ in STARTER_QUEUES]
