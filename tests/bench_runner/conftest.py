"""Shared helpers: a minimal valid task written to a temporary suite, to mutate in tests."""

from __future__ import annotations

from pathlib import Path

import pytest

VALID_TOML = """\
format = 1
slug = "{slug}"
title = "Vector add"
level = 1
category = "elementwise"
shape_mode = "dynamic"
entry = "vadd"
paths = ["device_only", "host_device"]
block_dim = "host"
tiling = true

[[inputs]]
name = "x"
dtype = "float32"
shape = ["N"]

[[inputs]]
name = "y"
dtype = "float32"
shape = ["N"]

[[outputs]]
name = "z"
dtype = "float32"
shape = ["N"]

[[cases]]
name = "small"
dims = { N = 100 }
seed = 1

[[cases]]
name = "big"
dims = { N = 1000 }
seed = 2
"""

REFERENCE = "def golden(inputs, attrs):\n    return {'z': inputs['x'] + inputs['y']}\n"


def write_task(root: Path, slug: str = "vadd", toml: str | None = None, files: dict[str, str | None] | None = None) -> Path:
    folder = root / slug
    (folder / "template").mkdir(parents=True, exist_ok=True)
    (folder / "expert").mkdir(parents=True, exist_ok=True)
    defaults = {
        "task.toml": (toml if toml is not None else VALID_TOML).replace("{slug}", slug),
        "api_desc.md": "# vadd\nz = x + y\n",
        "reference.py": REFERENCE,
        "template/kernel.cpp": "// skeleton\n",
        "template/host.cpp": "// host\n",
        "expert/kernel.cpp": "// expert\n",
    }
    defaults.update(files or {})
    for rel, text in defaults.items():
        path = folder / rel
        if text is None:
            path.unlink(missing_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    root = tmp_path / "suite"
    root.mkdir()
    return root


def written_trial(suite: Path, tmp_path: Path):  # noqa: ANN201 - (task, case, trial, files)
    """The vadd task's second case, one trial drawn for seed 5 and written into ``tmp_path/in``."""
    from bench_runner import launcher, reference, tasks

    task = tasks.load_task(write_task(suite))
    case = task.cases[1]
    inputs = reference.make_inputs(task, case, 5)
    trial = launcher.Trial(0, 5, True, inputs, reference.golden(task, case, inputs))
    folder = tmp_path / "in"
    folder.mkdir()
    return task, case, trial, launcher.write_trial_files(task, 1, trial, folder)
