"""One vocabulary for every command that talks to a platform (issue #22): --url/--token and
AKGEN_URL/AKGEN_TOKEN; the old names of `akgen generate` still work and say they are deprecated."""

from __future__ import annotations

import argparse

import pytest

from bench_runner import platform_access
from bench_runner.cli import build_parser


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ("AKGEN_URL", "AKGEN_TOKEN", "AKGEN_API_URL", "AKGEN_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    platform_access._warned.clear()


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    platform_access.add_arguments(p, scopes="read")
    return platform_access.resolve(p.parse_args(argv))


def test_the_new_names_and_their_defaults(monkeypatch):
    assert (_parse([]).url, _parse([]).token) == (platform_access.DEFAULT_URL, None)
    monkeypatch.setenv("AKGEN_URL", "http://env:1")
    monkeypatch.setenv("AKGEN_TOKEN", "t-env")
    assert (_parse([]).url, _parse([]).token) == ("http://env:1", "t-env")
    assert (_parse(["--url", "http://flag:2", "--token", "t-flag"]).url) == "http://flag:2"


def test_the_old_names_still_work_and_say_so(monkeypatch, capsys):
    monkeypatch.setenv("AKGEN_API_URL", "http://old:3")
    monkeypatch.setenv("AKGEN_API_TOKEN", "t-old")
    args = _parse([])
    assert (args.url, args.token) == ("http://old:3", "t-old")
    err = capsys.readouterr().err
    assert "AKGEN_API_URL is deprecated: use AKGEN_URL" in err and "AKGEN_API_TOKEN is deprecated" in err
    assert _parse(["--api-url", "http://oldflag:4"]).url == "http://oldflag:4"
    assert "--api-url is deprecated: use --url" in capsys.readouterr().err
    monkeypatch.setenv("AKGEN_URL", "http://new:5")  # the new name wins
    assert _parse([]).url == "http://new:5"


@pytest.mark.parametrize("command", [["generate", "--run", "1", "--model", "m"], ["export", "--preview"]])
def test_every_platform_command_takes_the_same_flags(command):
    args = build_parser().parse_args([*command, "--url", "http://x:9", "--token", "k"])
    assert (args.url, args.token) == ("http://x:9", "k")
