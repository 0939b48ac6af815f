"""Fill a workspace queue by one of its rules, and optionally assign it to annotators."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from annotations import services
from annotations.errors import WorkspaceError
from annotations.models import Queue


class Command(BaseCommand):
    help = "Run a queue-filling rule (new_failure_categories, most_common_failure, passing_sample, expert_kernels)."

    def add_arguments(self, parser):
        parser.add_argument("--queue", required=True, help="the queue's slug")
        parser.add_argument("--rule", required=True, choices=sorted(services.RULES))
        parser.add_argument("--assign", nargs="*", default=[], metavar="USER",
                            help="then assign items below the overlap target to these annotators")

    def handle(self, *args, queue: str, rule: str, assign: list[str], **options):
        target = Queue.objects.filter(slug=queue).first()
        if target is None:
            raise CommandError(f"No queue '{queue}'; create it in the admin (/admin/annotations/queue/).")
        try:
            added = services.queue_fill(target, rule, by=None)
            self.stdout.write(f"{len(added)} item(s) added to {target.slug}")
            if assign:
                people = list(get_user_model().objects.filter(username__in=assign))
                created = services.assign(target, people)
                self.stdout.write(f"{len(created)} assignment(s) made")
        except WorkspaceError as exc:
            raise CommandError(exc.message) from exc
