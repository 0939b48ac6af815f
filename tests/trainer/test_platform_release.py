"""Train on a release the platform's exporter builds (platform/releases) from seeded data: the
trainer reads exactly what issue #9's builder writes, checks its manifest hashes and renders its
reasoning; 5 SFT steps, then 5 DPO steps from the SFT output."""

from __future__ import annotations

import json

import pytest

from bench_runner.cli import main as akgen
from tests.trainer.conftest import tiny_args


@pytest.fixture
def built_release(db, settings, tmp_path):
    from releases import services
    from tests.platform.releases.conftest import EVAL_TASK, seed

    settings.AKGEN_RELEASE_EVAL_TASKS = [EVAL_TASK]
    settings.AKGEN_RELEASES_DIR = str(tmp_path / "releases")
    settings.AKGEN_PSEUDONYM_KEY = "test-key"
    seed()
    out = tmp_path / "release"
    services.build_into(out, number=1, data={"validation_percent": 30})
    return out


def test_sft_then_dpo_on_a_platform_built_release(built_release, tiny_model, tmp_path, capsys):
    manifest = json.loads((built_release / "manifest.json").read_text())
    present = [s for s in ("code_cot", "doc_qa", "api_fix", "kernel_fix") if (built_release / s / "train.jsonl").is_file()]
    assert {"code_cot", "api_fix", "kernel_fix"} <= set(present) and (built_release / "dpo" / "train.jsonl").is_file()
    subsets = ",".join(f"{s}=1" for s in present)
    sft = tmp_path / "sft"
    assert akgen(["train", "sft", *tiny_args("tiny-cpu-sft", built_release, tiny_model, sft, "--subsets", subsets,
                                             "--max_length", "1024")]) == 0
    err = capsys.readouterr().err
    for subset in present:
        assert f"template check: {subset}:" in err
    run = json.loads((sft / "akgen_run.json").read_text())
    assert run["release"]["version"] == manifest["version"]
    assert len([r for r in run["log_history"] if "loss" in r]) == 5

    dpo = tmp_path / "dpo"
    assert akgen(["train", "dpo", *tiny_args("tiny-cpu-dpo", built_release, sft, dpo, "--max_length", "1024")]) == 0
    run = json.loads((dpo / "akgen_run.json").read_text())
    assert run["data"]["dpo"]["train"] > 0 and len([r for r in run["log_history"] if "loss" in r]) == 5
