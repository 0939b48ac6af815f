"""Fixtures for the ascend_sim tests (helpers live in simtools.py)."""

from __future__ import annotations

import pytest

from .simtools import Sim


@pytest.fixture(scope="session")
def sim(tmp_path_factory: pytest.TempPathFactory) -> Sim:
    return Sim(tmp_path_factory.mktemp("ascend_sim"))
