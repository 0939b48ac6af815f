"""Who may call what: 401 without a usable key, 403 without the scope, the browser session with
CSRF enforced on writes."""

import pytest
from rest_framework.test import APIClient

KERNEL = "extern \"C\" __global__ __aicore__ void k() {}\n"
SUBMIT = {"task": "add", "path": "device_only", "kernel": KERNEL}


@pytest.mark.parametrize("path", ["/api/v1/runs/", "/api/v1/models/", "/api/v1/me/", "/api/v1/runs/1/",
                                  "/api/v1/releases/"])
def test_anonymous_gets_401(db, path):
    response = APIClient().get(path)
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "Token"


def test_public_data_answers_anonymous_gets_and_writes_still_need_a_key(task, user):
    """Tasks, public submissions and the boards are public on the pages, so here too; a private
    submission stays 404 and nothing can be written without a key."""
    from submissions.models import Submission
    from tests.platform.leaderboard.conftest import judge

    public = judge(task=task, kernel="// public\n", outcome="passed", speedup=1.0, author=user)
    private = judge(task=task, kernel="// private\n", outcome="passed", speedup=1.0, author=user,
                    visibility="private")
    anon = APIClient()
    assert [t["slug"] for t in anon.get("/api/v1/tasks/").json()["results"]] == ["add"]
    assert anon.get("/api/v1/tasks/add/").json()["slug"] == "add"
    listed = [s["id"] for s in anon.get("/api/v1/submissions/").json()["results"]]
    assert listed == [public.pk]
    assert anon.get(f"/api/v1/submissions/{public.pk}/").json()["kernel"] == "// public\n"
    assert anon.get(f"/api/v1/submissions/{private.pk}/").status_code == 404
    before = Submission.objects.count()
    refused = anon.post("/api/v1/submissions/", SUBMIT, format="json")
    assert refused.status_code == 401 and refused.json()["code"] == "not_authenticated"
    assert anon.post("/api/v1/submissions/batch/", {"submissions": [SUBMIT]}, format="json").status_code == 401
    assert Submission.objects.count() == before


def test_read_only_key_cannot_submit(task, user, make_key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {make_key(user, scopes=['read'])}")
    assert client.get("/api/v1/tasks/").status_code == 200
    for path, payload in [("/api/v1/submissions/", SUBMIT), ("/api/v1/submissions/batch/", {"submissions": [SUBMIT]}),
                          ("/api/v1/models/", {"name": "m"}), ("/api/v1/runs/", {"model": 1, "name": "r"})]:
        response = client.post(path, payload, format="json")
        assert response.status_code == 403, path
        assert response.json()["code"] == "insufficient_scope"
        assert "'submit'" in response.json()["message"]


def test_submit_only_key_cannot_read(task, user, make_key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {make_key(user, scopes=['submit'])}")
    response = client.post("/api/v1/submissions/", SUBMIT, format="json")
    assert response.status_code == 201
    read = client.get(response.json()["url"])
    assert read.status_code == 403 and read.json()["code"] == "insufficient_scope"


def test_export_only_key_has_neither(task, user, make_key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {make_key(user, scopes=['export'])}")
    assert client.get("/api/v1/tasks/").status_code == 403
    assert client.post("/api/v1/submissions/", SUBMIT, format="json").status_code == 403


def test_browser_session_reads_and_writes_with_csrf(task, user):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.get("/api/v1/me/").status_code == 200
    response = client.post("/api/v1/submissions/", SUBMIT, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied" and "CSRF" in response.json()["message"]
    client.get("/accounts/profile/")  # sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    response = client.post("/api/v1/submissions/", SUBMIT, format="json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201


def test_token_requests_need_no_csrf(task, api):
    api.enforce_csrf_checks = True
    assert api.post("/api/v1/submissions/", SUBMIT, format="json").status_code == 201
