"""NUL, invalid UTF-8 and deep nesting are the sender's 400 on every page and endpoint, never a 500.

The fuzz walks every URL pattern of the site (admin and static files aside) with its path
arguments filled from seeded rows, and sends each the same bad query values, a bad form field,
and, to the API, over-deep and NUL-holding JSON.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from submissions.models import LanguageModel, Run, Submission
from tests.platform.factories import make_task

pytestmark = pytest.mark.django_db

BAD_QUERIES = ["q=%00", "category=a%00b", "shape_mode=%00", "task=%00", "level=%01", "sort=%ff%fe", "%00=x",
               "verdict=%c3%28", "page=%00", "run=%00", "who=%00"]
PARAM = re.compile(r"<(?:(?P<conv>[^>:]+):)?(?P<name>[^>]+)>")


def _patterns(resolver=None, prefix=""):
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route


def _concrete(route: str, values: dict[str, str]) -> str | None:
    if route.startswith(("admin", "^", "static")) or "(?" in route or "$" in route:
        return None
    return "/" + PARAM.sub(lambda m: values.get(m.group("conv") or "str", "1"), route)


@pytest.fixture
def seeded(user):
    task = make_task("fuzz")
    model = LanguageModel.objects.create(owner=user, name="fuzz-model")
    run = Run.objects.create(model=model, name="fuzz-run")
    sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                    kernel_source="// k\n", sha256="f" * 64, author=user)
    return {"slug": task.slug, "int": str(sub.pk), "id": str(run.pk), "str": "fuzz", "path": "fuzz"}


def test_no_url_answers_bad_input_with_a_server_error(client, user, seeded):
    client.force_login(user)
    urls = sorted({u for u in (_concrete(r, seeded) for r in _patterns()) if u})
    assert len(urls) > 30, urls  # the walk reached the site
    failures = []
    for url in urls:
        for query in BAD_QUERIES:
            response = client.get(f"{url}?{query}")
            if response.status_code >= 500:
                failures.append(f"GET {url}?{query} -> {response.status_code}")
        response = client.post(url, {"title": "a\x00b", "name": "x\x00"})
        if response.status_code >= 500:
            failures.append(f"POST form {url} -> {response.status_code}")
        if url.startswith("/api/"):
            deep = "[" * 5000 + "]" * 5000
            for body in (deep, json.dumps({"task": "a\x00", "kernel": "//"}), '{"runs": ' + "[" * 200 + "]" * 200 + "}"):
                response = client.post(url, body, content_type="application/json")
                if response.status_code >= 500:
                    failures.append(f"POST json {url} {body[:20]!r} -> {response.status_code}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("url", ["/tasks/?q=%00", "/tasks/?category=%00", "/tasks/?shape_mode=%00",
                                 "/api/v1/tasks/?category=%00", "/leaderboard/?soc=%ff"])
def test_bad_query_text_is_a_400_that_says_why(client, user, url):
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 400
    assert "NUL character" in response.content.decode() or "UTF-8" in response.content.decode()


def test_over_deep_json_is_a_400(client, user):
    client.force_login(user)
    response = client.post("/api/v1/submissions/batch/", "[" * 100 + "]" * 100, content_type="application/json")
    assert response.status_code == 400 and "nested deeper" in response.json()["message"]
