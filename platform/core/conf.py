"""How an app's own setting is read: from Django settings, else the environment, else a default.

Every app reads its ``AKGEN_*`` settings through :func:`setting`, so a value set in
``settings.py`` always wins over the environment, the same way in every app (releases,
tasks.splits, ...). Each app documents its own settings where it reads them.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings

_MISSING = object()


def setting(name: str, default: Any = None) -> Any:
    """``settings.<name>`` if Django's settings define it, else ``$<name>``, else ``default``."""
    value = getattr(settings, name, _MISSING)
    if value is not _MISSING:
        return value
    return os.environ.get(name, default)
