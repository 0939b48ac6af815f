from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from akgen.health import health_report
from tasks.selectors import suite_summary


@never_cache
def healthz(request):
    """200 while the database answers (degraded broker or workers are reported, not fatal)."""
    report = health_report()
    return JsonResponse(report, status=503 if report["status"] == "down" else 200)


def home(request):
    return render(request, "home.html", {"summary": suite_summary()})
