"""Property-based fuzzing of every /api/v1/ operation from the published OpenAPI schema.

Schemathesis drives the WSGI app in-process with generated (valid and invalid) requests under a
real API key; no answer may be a 5xx, and each must conform to the documented status codes,
content types and response schemas. Evaluation messages are mocked (the evaluator is not under
test). Bounded: 10 examples per operation here (AKGEN_FUZZ_EXAMPLES=150 passes too; it takes
about two minutes).
"""

import os

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import negative_data_rejection

from tests.platform.factories import make_task

EXAMPLES_PER_OPERATION = int(os.environ.get("AKGEN_FUZZ_EXAMPLES", "10"))


# Loaded from the app's own /api/schema/ endpoint at collection (no database needed for that).
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def wsgi_requests_keep_the_test_transaction(db, fresh_rate_limits):
    """Like Django's test client: a request must not close the connection holding the test's
    transaction (close_old_connections would, since autocommit is off inside it)."""
    fresh_rate_limits.AKGEN_MAX_PENDING_PER_USER = 100_000
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_key(wsgi_requests_keep_the_test_transaction, user, make_key):
    make_task("add")
    return make_key(user, scopes=["submit", "read", "export"])


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema_and_never_fails(case, fuzz_key):
    headers = {"Authorization": f"Token {fuzz_key}"}
    response = case.call(headers=headers)
    assert response.status_code < 500, response.text[:2000]
    excluded = []
    if case.operation.path.endswith("/batch/"):
        # By design a batch validates its items one by one and answers 207 naming each bad item,
        # so an item that breaks the documented item schema does not fail the whole request.
        excluded.append(negative_data_rejection)
    case.validate_response(response, headers=headers, excluded_checks=excluded)


def test_schema_declares_token_auth_and_every_endpoint(client):
    spec = client.get("/api/schema/?format=json").json()
    assert spec["components"]["securitySchemes"]["tokenAuth"]["name"] == "Authorization"
    paths = set(spec["paths"])
    for path in ["/api/v1/submissions/", "/api/v1/submissions/batch/", "/api/v1/submissions/{id}/",
                 "/api/v1/tasks/", "/api/v1/tasks/{slug}/", "/api/v1/models/", "/api/v1/runs/",
                 "/api/v1/runs/{id}/", "/api/v1/me/"]:
        assert path in paths, path
    assert "413" in spec["paths"]["/api/v1/submissions/"]["post"]["responses"]
    assert "207" in spec["paths"]["/api/v1/submissions/batch/"]["post"]["responses"]
