"""Grant (or with --revoke, take away) a role: annotator, reviewer, admin or curator."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from annotations import roles
from annotations.roles import UnknownRole, role_grant, role_revoke, user_roles


class Command(BaseCommand):
    help = "Grant a role (annotator, reviewer, admin, curator) to a user."

    def add_arguments(self, parser):
        parser.add_argument("--user", required=True, help="the username")
        parser.add_argument("--role", required=True, choices=list(roles.ROLE_NAMES))
        parser.add_argument("--revoke", action="store_true", help="take the role away instead")

    def handle(self, *args, user: str, role: str, revoke: bool, **options):
        person = get_user_model().objects.filter(username=user).first()
        if person is None:
            raise CommandError(f"No user '{user}'. Create the account first (sign up, or createsuperuser).")
        try:
            (role_revoke if revoke else role_grant)(person, role)
        except UnknownRole as exc:
            raise CommandError(str(exc)) from exc
        person = get_user_model().objects.get(pk=person.pk)  # fresh permission caches
        roles = ", ".join(user_roles(person)) or "none"
        self.stdout.write(f"{'Revoked' if revoke else 'Granted'} {role} {'from' if revoke else 'to'} {user}; "
                          f"workspace roles now: {roles}")
