"""Settings of the releases app, each read from Django settings, else the environment.

| name | meaning | default |
|---|---|---|
| AKGEN_RELEASES_DIR | where release folders and zips go | ``<AKGEN_VAR_DIR>/releases`` |
| AKGEN_PSEUDONYM_KEY | HMAC key for pseudonymised user ids | derived from the secret key |
| AKGEN_RELEASE_EVAL_TASKS | the benchmark's evaluation tasks (slugs or operators; tasks.splits) | each suite's splits.toml |
| AKGEN_RELEASE_EVAL_PERCENT | the held-out share of a suite without a list | 20 |
| AKGEN_RELEASE_LICENSE | the dataset card's license | cc-by-4.0 |
"""

from __future__ import annotations

import os

from django.conf import settings

_MISSING = object()


def get(name: str, default=None):
    value = getattr(settings, name, _MISSING)
    if value is not _MISSING:
        return value
    return os.environ.get(name, default)
