"""How every command that talks to a platform names it: one flag and one variable for each.

Why: `akgen export` read ``--url``/``AKGEN_URL`` and ``--token``/``AKGEN_TOKEN`` while
`akgen generate` read ``--api-url``/``AKGEN_API_URL`` and ``AKGEN_API_TOKEN``, so a model team
set four variables for one platform. Every command now takes ``--url`` and ``--token``,
defaulting to ``AKGEN_URL`` and ``AKGEN_TOKEN``; the old names still work and say so once.
"""

from __future__ import annotations

import argparse
import os
import sys

URL_ENV = "AKGEN_URL"
TOKEN_ENV = "AKGEN_TOKEN"
DEFAULT_URL = "http://127.0.0.1:8000"
#: Old name -> the name to use instead.
DEPRECATED_ENV = {"AKGEN_API_URL": URL_ENV, "AKGEN_API_TOKEN": TOKEN_ENV}
DEPRECATED_FLAGS = {"--api-url": "--url"}
_warned: set[str] = set()


def _deprecated(old: str, new: str) -> None:
    if old not in _warned:
        _warned.add(old)
        print(f"[akgen] {old} is deprecated: use {new} (it is read for now)", file=sys.stderr)


def _env(name: str) -> str | None:
    value = os.environ.get(name)
    if value:
        return value
    for old, new in DEPRECATED_ENV.items():
        if new == name and os.environ.get(old):
            _deprecated(old, new)
            return os.environ[old]
    return None


def platform_url() -> str:
    """``AKGEN_URL`` (or the deprecated ``AKGEN_API_URL``), else the local default."""
    return _env(URL_ENV) or DEFAULT_URL


def platform_token() -> str | None:
    """``AKGEN_TOKEN`` (or the deprecated ``AKGEN_API_TOKEN``), else None."""
    return _env(TOKEN_ENV)


class _Url(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        if option_string in DEPRECATED_FLAGS:
            _deprecated(option_string, DEPRECATED_FLAGS[option_string])
        setattr(namespace, self.dest, values)


def add_arguments(p: argparse.ArgumentParser, *, scopes: str) -> None:
    """``--url`` (alias: the deprecated ``--api-url``) and ``--token`` on ``p``; both resolved at
    parse time from the environment when not given (``scopes``: what the key needs, for help)."""
    p.add_argument("--url", "--api-url", dest="url", action=_Url, default=None,
                   help=f"the platform (default ${URL_ENV} or {DEFAULT_URL})")
    p.add_argument("--token", default=None, help=f"an API key with the {scopes} scope(s) (default ${TOKEN_ENV})")


def resolve(args: argparse.Namespace) -> argparse.Namespace:
    """Fill ``args.url`` / ``args.token`` from the environment where the flags were not given."""
    if not getattr(args, "url", None):
        args.url = platform_url()
    if not getattr(args, "token", None):
        args.token = platform_token()
    return args
