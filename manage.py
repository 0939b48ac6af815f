#!/usr/bin/env python
"""Django's command-line utility for the akgen platform.

`platform/` is put on sys.path as a source folder (it is not a package: a package named
`platform` would shadow the standard library module of that name).
"""

import os
import sys
from pathlib import Path


def main() -> None:
    source_folder = str(Path(__file__).resolve().parent / "platform")
    sys.path.insert(0, source_folder)
    # Child processes (rundramatiq execs the dramatiq CLI) must find the apps too.
    inherited = os.environ.get("PYTHONPATH", "")
    if source_folder not in inherited.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (source_folder, inherited) if p)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "akgen.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
