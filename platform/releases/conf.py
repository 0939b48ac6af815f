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

from core.conf import setting

#: Settings, else the environment (one rule for every app: core.conf).
get = setting
