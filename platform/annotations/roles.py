"""Workspace roles as Django groups with model permissions.

``annotator`` may work on items (``annotations.annotate``); ``reviewer`` may also review and
approve (``annotations.review``); ``workspace admin`` manages queues (``annotations.manage``);
``curator`` builds Ascend-CoT releases (``releases.curate``, a permission of the releases app,
named here as data). Code checks the permissions, never group names, so a superuser or a
hand-made group works too.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from core.denied import Need

ANNOTATE = "annotations.annotate"
REVIEW = "annotations.review"
MANAGE = "annotations.manage"
CURATE = "releases.curate"

#: Role (group) name -> the permissions it carries ("app_label.codename").
ROLES: dict[str, tuple[str, ...]] = {
    "annotator": (ANNOTATE,),
    "reviewer": (ANNOTATE, REVIEW),
    "workspace admin": (ANNOTATE, REVIEW, MANAGE),
    "curator": (CURATE,),
}
#: What the roles page and ``grant_role`` call them.
ROLE_NAMES = ("annotator", "reviewer", "admin", "curator")

_BY_ADMIN = "a workspace admin, on the workspace's Roles page or with manage.py grant_role"
ROLES_PAGE = "/workspace/roles/"
#: What a 403 names (core.denied): each permission, the role that carries it and who grants it.
NEED_ANNOTATE = Need("the annotator role", ANNOTATE, _BY_ADMIN, ROLES_PAGE)
NEED_REVIEW = Need("the reviewer role", REVIEW, _BY_ADMIN, ROLES_PAGE)
NEED_MANAGE = Need("the workspace admin role", MANAGE,
                   "another workspace admin on the Roles page, or the operator with manage.py grant_role USER admin",
                   ROLES_PAGE)
NEED_CURATE = Need("the curator role", CURATE, _BY_ADMIN, ROLES_PAGE)
NEED_ANY_ROLE = Need("a workspace role (annotator, reviewer or workspace admin)", ANNOTATE, _BY_ADMIN, ROLES_PAGE)


class UnknownRole(ValueError):
    pass


def roles_ensure() -> dict[str, Group]:
    """Create the role groups with their permissions (idempotent)."""
    groups = {}
    for name, perm_names in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        perms = [Permission.objects.filter(content_type__app_label=app, codename=code).first()
                 for app, code in (p.split(".", 1) for p in perm_names)]
        if all(perms):  # a later app's migrations may not have created its permission yet
            group.permissions.add(*perms)
        groups[name] = group
    return groups


def roles_ensure_after_migrate(sender=None, using="default", **kwargs) -> None:
    from django.contrib.auth.management import create_permissions

    create_permissions(sender, verbosity=0, using=using)
    roles_ensure()


def role_grant(user, role: str) -> None:
    """Put ``user`` in the role's group; raises UnknownRole naming the roles that exist."""
    if role == "admin":
        role = "workspace admin"
    if role not in ROLES:
        raise UnknownRole(f"Unknown role '{role}'; use one of: {', '.join(ROLE_NAMES)}.")
    user.groups.add(roles_ensure()[role])
    for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cache, None)


def role_revoke(user, role: str) -> None:
    if role == "admin":
        role = "workspace admin"
    if role not in ROLES:
        raise UnknownRole(f"Unknown role '{role}'; use one of: {', '.join(ROLE_NAMES)}.")
    group = Group.objects.filter(name=role).first()
    if group is not None:
        user.groups.remove(group)
    for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cache, None)


def can_annotate(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.has_perm(ANNOTATE))


def can_review(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.has_perm(REVIEW))


def can_manage(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.has_perm(MANAGE))


def can_curate(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.has_perm(CURATE))


def user_roles(user) -> list[str]:
    out = []
    if can_annotate(user):
        out.append("annotator")
    if can_review(user):
        out.append("reviewer")
    if can_manage(user):
        out.append("admin")
    if can_curate(user):
        out.append("curator")
    return out


def people_with_roles() -> list[tuple[object, list[str]]]:
    """Everyone in a role group (or a superuser), with their workspace roles."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    users = (get_user_model().objects.filter(Q(groups__name__in=list(ROLES)) | Q(is_superuser=True))
             .distinct().order_by("username"))
    return [(user, user_roles(user)) for user in users]
