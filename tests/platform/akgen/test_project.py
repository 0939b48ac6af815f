"""Project-level invariants: migrations match models, the stdlib `platform` is not shadowed."""

import io
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.django_db
def test_migrations_are_up_to_date():
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # makemigrations --check exits 1 when a migration is missing
        pytest.fail(f"models changed without a migration:\n{out.getvalue()} (exit {exc.code})")


def test_stdlib_platform_module_under_pytest():
    assert platform.system() == "Linux"
    assert "site-packages" not in platform.__file__
    assert Path(platform.__file__).parent != ROOT / "platform"


def test_stdlib_platform_module_in_django_process():
    code = "import platform; print(platform.system(), platform.__file__)"
    proc = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    system, path = proc.stdout.split()[-2:]
    assert system == "Linux"
    assert not path.startswith(str(ROOT / "platform"))


def test_check_deploy_is_clean_with_production_variables(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/akgen",
        "BROKER_URL": "amqp://guest:guest@127.0.0.1:5672/%2F",
        "AKGEN_SECRET_KEY": "k" * 20 + "Q7#z!pL0x9" * 4,
        "AKGEN_ALLOWED_HOSTS": "akgen.example.org",
        "AKGEN_VAR_DIR": str(tmp_path),
    }
    proc = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env=env,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_production_mode_refuses_to_start_without_secret_key(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/akgen",
        "BROKER_URL": "amqp://guest:guest@127.0.0.1:5672/%2F",
        "AKGEN_VAR_DIR": str(tmp_path),
    }
    proc = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env=env,
    )
    assert proc.returncode != 0
    assert "AKGEN_SECRET_KEY must be set" in proc.stderr
