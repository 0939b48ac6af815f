"""Shared fixtures: the tiny model (built once per session) and a fixture release."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.trainer.release_fixture import write_release

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def _need_train_extra() -> None:
    pytest.importorskip("torch", reason="the trainer tests need the `train` extra")
    pytest.importorskip("trl", reason="the trainer tests need the `train` extra")


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    _need_train_extra()
    from trainer.tiny import make_tiny_model

    return make_tiny_model(tmp_path_factory.mktemp("tiny") / "model")


@pytest.fixture(scope="session")
def release(tmp_path_factory) -> Path:
    return write_release(tmp_path_factory.mktemp("release") / "ascend-cot")


def tiny_args(config: str, release: Path, model: Path, out: Path, *extra: str) -> list[str]:
    return ["--config", config, "--release", str(release), "--model_name_or_path", str(model),
            "--output_dir", str(out), *extra]
