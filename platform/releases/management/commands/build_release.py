"""Build a release in this process, or re-send unfinished ones to the releases queue."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from releases.models import Release
from releases.services import release_build, release_resend_unfinished


class Command(BaseCommand):
    help = "Build release NUMBER here (--number), or re-send queued/stale releases to the queue (--resend)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--number", type=int, help="build this release now, in this process")
        parser.add_argument("--resend", action="store_true", help="re-send queued releases to the worker queue")
        parser.add_argument("--stale-minutes", type=float, default=120,
                            help="with --resend: also re-queue builds started longer ago than this (120)")

    def handle(self, *args, number: int | None, resend: bool, stale_minutes: float, **options) -> None:
        if number is not None:
            release = Release.objects.filter(number=number).first()
            if release is None:
                raise CommandError(f"no release {number}")
            built = release_build(release.pk, force=True)
            if built is None:
                raise CommandError(f"release {number} is {release.status}; only queued or stuck builds are built")
            self.stdout.write(f"release v{number}: {built.status} {built.error[:500]}".rstrip())
            return
        if resend:
            n = release_resend_unfinished(building_older_than_s=stale_minutes * 60)
            self.stdout.write(f"re-sent {n} release(s)")
            return
        raise CommandError("give --number N or --resend")
