import hmac

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from akgen.health import health_report
from core.denied import Denied
from tasks.selectors import suite_summary


@never_cache
def healthz(request):
    """200 while the database answers (degraded broker or workers are reported, not fatal).

    Everyone gets the status; staff and monitors holding AKGEN_HEALTH_TOKEN get the details
    (worker host names, queue figures), which are nobody else's business.
    """
    report = health_report()
    status = 503 if report["status"] == "down" else 200
    if not _may_see_details(request):
        return JsonResponse({"status": report["status"]}, status=status)
    return JsonResponse(report, status=status)


def _may_see_details(request) -> bool:
    if request.user.is_authenticated and request.user.is_staff:
        return True
    token = settings.AKGEN_HEALTH_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


def home(request):
    return render(request, "home.html", {"summary": suite_summary()})


def permission_denied(request, exception=None):
    """The 403 page: what was refused, the permission it needs and who can grant it
    (core.denied.Denied), or the refusal's own sentence for any other PermissionDenied."""
    denied = exception if isinstance(exception, Denied) else None
    message = "" if denied else str(exception or "")
    return render(request, "403.html", {"denied": denied, "message": message}, status=403)
