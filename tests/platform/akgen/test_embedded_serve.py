"""What a newcomer meets after `scripts/serve` (issue #22): the embedded default (SQLite, an
in-process worker) with DEBUG off shows the site's own error pages — no URLconf dump on a 404 —
and keeps working over plain HTTP: static files come from static/, and signing in works
(cookies are not HTTPS-only, no redirect to HTTPS)."""

from __future__ import annotations

import http.cookiejar
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.platform.procs import ROOT, Proc, wait_until_serving

pytestmark = pytest.mark.slow


def _env(tmp_path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "BROKER_URL")}
    env.update(AKGEN_VAR_DIR=str(tmp_path), AKGEN_DEBUG="0", PYTHONUNBUFFERED="1")  # what scripts/serve sets
    return env


def test_the_embedded_default_shows_its_own_error_pages_over_plain_http(tmp_path):
    env = _env(tmp_path)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True,
                   timeout=300)
    subprocess.run([sys.executable, "manage.py", "shell", "-c",
                    "from django.contrib.auth import get_user_model as g; g().objects.create_user('newcomer', "
                    "password='a long pass phrase')"], cwd=ROOT, env=env, check=True, timeout=120)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    server = Proc(["serve", f"127.0.0.1:{port}", "--worker-threads", "1"], env, tmp_path / "serve.log")
    try:
        wait_until_serving(f"{base}/healthz", server)
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{base}/no/such/page/", timeout=10)
        page = missing.value.read().decode()
        assert missing.value.code == 404 and 'data-testid="error-page"' in page
        assert "URLconf" not in page and "Using the URLconf" not in page and "DEBUG = True" not in page
        css = urllib.request.urlopen(f"{base}/static/css/app.css", timeout=10)
        assert css.status == 200 and b".topbar" in css.read()
        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        form = browser.open(f"{base}/accounts/login/", timeout=10).read().decode()
        token = form.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
        body = urllib.parse.urlencode({"username": "newcomer", "password": "a long pass phrase",
                                       "csrfmiddlewaretoken": token}).encode()
        signed_in = browser.open(urllib.request.Request(f"{base}/accounts/login/", data=body,
                                                        headers={"Referer": f"{base}/accounts/login/"}), timeout=10)
        assert signed_in.url.startswith(base) and "newcomer" in signed_in.read().decode()
        assert any(c.name == "sessionid" and not c.secure for c in jar)
    finally:
        server.stop()
