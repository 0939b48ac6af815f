"""A refusal that says what was missing and who can grant it.

Views raise :class:`Denied` (a ``PermissionDenied``); the site's 403 page
(``akgen.views.permission_denied``) shows the action, the permission and who grants it, and the
API's error body carries the same sentence. The apps that own a permission define its
:class:`Need` next to it (``annotations.roles``); the staff flag, which Django owns, is here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied


@dataclass(frozen=True)
class Need:
    """What an action needs and who can give it to an account."""

    #: For a person: "the reviewer role".
    label: str
    #: The permission checked ("annotations.review"), or "staff" for Django's staff flag.
    permission: str
    #: Who can grant it, and where.
    granted_by: str
    #: The page where it is granted, for those who may open it ("" when there is none).
    grant_path: str = ""


class Denied(PermissionDenied):
    """Raised by a view when the signed-in user lacks ``need`` to do ``action``."""

    def __init__(self, action: str, need: Need) -> None:
        self.action = action
        self.need = need
        super().__init__(f"{action} needs {need.label} ({need.permission}); {need.granted_by} can grant it.")


STAFF = Need("a staff account", "staff",
             "a superuser, in the admin site (Users → Staff status) or with manage.py createsuperuser", "/admin/")


def staff_required(action: str):
    """A page for staff: anonymous visitors are sent to log in, others get a 403 saying why
    (unlike Django's staff_member_required, which sends everyone to the admin's login)."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not request.user.is_staff:
                raise Denied(action, STAFF)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
