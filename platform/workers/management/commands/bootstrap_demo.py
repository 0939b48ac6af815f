"""`manage.py bootstrap_demo`: a demo admin for the embedded set-up, created once."""

from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the demo admin account once and print its credentials (kept in var/)."

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
