"""Create an API token for scripts: prints only the key on stdout."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from accounts.services import token_create
from core.errors import Rejected


class Command(BaseCommand):
    help = "Create an API token for a user and print the key (shown only this once)."

    def add_arguments(self, parser):
        parser.add_argument("--user", required=True, help="username")
        parser.add_argument("--scopes", default="submit,read", help="comma-separated: submit,read,export")
        parser.add_argument("--name", default="cli", help="a label shown in the profile")
        parser.add_argument("--expires-days", type=int, default=None, help="expire after N days (default: never)")

    def handle(self, *args, user, scopes, name, expires_days, **options):
        owner = get_user_model().objects.filter(username=user).first()
        if owner is None:
            raise CommandError(f"No user named '{user}'.")
        if expires_days is not None and expires_days < 1:
            raise CommandError("--expires-days must be at least 1.")
        expires_at = timezone.now() + timedelta(days=expires_days) if expires_days else None
        try:
            new = token_create(user=owner, name=name, scopes=scopes, expires_at=expires_at)
        except Rejected as exc:
            raise CommandError(exc.message) from exc
        self.stderr.write(f"Created {new.token.prefix} for {owner.username} with scopes "
                          f"{','.join(new.token.scopes)}; the key is not stored and cannot be shown again.")
        self.stdout.write(new.key)
