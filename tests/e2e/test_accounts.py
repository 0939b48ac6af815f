"""Sign up, then in the profile: register a model and a run, create an API key (shown once), use
it against the API, revoke it. The profile page is screenshotted for review; the API docs load
under the site's CSP."""

from __future__ import annotations

import json
import uuid
from urllib.request import Request, urlopen

import pytest

from accounts.models import ApiToken
from submissions.models import LanguageModel, Run

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def isolated(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"


def _api(base: str, path: str, key: str) -> tuple[int, dict]:
    request = Request(base + path, headers={"Authorization": f"Token {key}"})
    try:
        with urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except Exception as exc:  # HTTPError carries the JSON error body
        return exc.code, json.loads(exc.read())


@pytest.mark.django_db(transaction=True)
def test_signup_profile_tokens_models_runs(live_server, page, screenshot):
    base = live_server.url
    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password1]", "a sturdy passphrase 42")
    page.fill("input[name=password2]", "a sturdy passphrase 42")
    page.click("button[type=submit]")
    page.wait_for_url("**/accounts/profile/")

    form = page.locator("[data-testid=model-form]")
    form.locator("input[name=name]").fill("tiny-coder-7b")
    form.locator("input[name=base_model]").fill("Qwen2.5-Coder-7B-Instruct")
    form.locator("select[name=training_stage]").select_option("sft_rl")
    form.locator("input[name=parameters]").fill("7B")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("text=Model tiny-coder-7b registered")
    model = LanguageModel.objects.get(name="tiny-coder-7b")

    form = page.locator("[data-testid=run-form]")
    form.locator("input[name=name]").fill("k4-t0.8")
    form.locator("input[name=samples_per_task]").fill("4")
    form.locator("textarea[name=decoding]").fill('{"temperature": 0.8, "top_p": 0.95}')
    form.locator("button[type=submit]").click()
    page.wait_for_selector("text=Run tiny-coder-7b/k4-t0.8 created")
    run = Run.objects.get(model=model)
    assert run.samples_per_task == 4 and run.decoding["top_p"] == 0.95

    form = page.locator("[data-testid=token-form]")
    form.locator("input[name=name]").fill("eval-script")
    form.locator("select[name=expires_in_days]").select_option("90")
    form.locator("button[type=submit]").click()
    key = page.locator("[data-testid=new-key-value]").inner_text().strip()
    assert key.startswith("akg_")
    assert page.locator("[data-testid=token-table] .state-active").count() == 1
    assert page.console_errors == []
    path = screenshot(page, "profile")
    assert path.stat().st_size > 20_000

    status, me = _api(base, "/api/v1/me/", key)
    assert status == 200 and me["username"] == "ada" and me["scopes"] == ["submit", "read"]
    status, progress = _api(base, f"/api/v1/runs/{run.pk}/", key)
    assert status == 200 and progress["progress"]["k"] == 4

    # Shown once: reloading the profile lists the key by prefix only.
    page.goto(base + "/accounts/profile/")
    html = page.content()
    assert key[:12] in html and key not in html

    page.locator("[data-testid=token-table] button:has-text('Revoke')").click()
    page.wait_for_selector("text=Token revoked")
    assert ApiToken.objects.get(prefix=key[:12]).revoked_at is not None
    status, error = _api(base, "/api/v1/me/", key)
    assert status == 401 and error["code"] == "token_revoked"


@pytest.mark.django_db(transaction=True)
def test_api_docs_render_under_csp(live_server, page):
    page.goto(live_server.url + "/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title", timeout=15_000)
    assert "akgen API" in page.locator(".swagger-ui .info .title").inner_text()
    page.wait_for_selector("text=/api/v1/submissions/batch/")
    assert page.console_errors == []
    # The docs are not a dead end: a bar leads back to the site.
    page.locator('[data-testid="api-docs-nav"] >> text=Leaderboard').click()
    page.wait_for_url(live_server.url + "/leaderboard/")
