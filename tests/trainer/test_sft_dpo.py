"""Train the tiny model: 5 SFT steps, then 5 DPO steps from the SFT output, on a fixture release;
LoRA with merged output and DPO on precomputed reference log-probs; DPO under torchrun with 2
processes. Every run is checked for recorded losses, the checkpoint, its metadata and a reload."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bench_runner.cli import main as akgen
from tests.trainer.conftest import tiny_args

ROOT = Path(__file__).resolve().parents[2]


def _check_run(out: Path, kind: str, steps: int = 5) -> dict:
    run = json.loads((out / "akgen_run.json").read_text())
    assert run["kind"] == kind
    assert run["release"]["version"] == "2026.12.0-test"
    assert run["git"]["revision"]
    losses = [row["loss"] for row in run["log_history"] if "loss" in row]
    assert len(losses) == steps and all(loss == loss and loss > 0 for loss in losses)
    config = yaml.safe_load((out / "akgen_config.yaml").read_text())
    assert config["max_steps"] == steps and config["release"]
    return run


def _reload_and_generate(folder: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForCausalLM.from_pretrained(folder)
    enc = tok.apply_chat_template([{"role": "user", "content": "Write add."}], add_generation_prompt=True,
                                  return_tensors="pt", return_dict=True)
    with torch.no_grad():
        out = model.generate(**enc, max_new_tokens=4, do_sample=False, pad_token_id=tok.pad_token_id)
    assert out.shape[1] > enc["input_ids"].shape[1]


@pytest.fixture(scope="module")
def sft_out(tiny_model, release, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sft") / "full"
    assert akgen(["train", "sft", *tiny_args("tiny-cpu-sft", release, tiny_model, out)]) == 0
    return out


def test_sft_then_dpo(sft_out, release, tmp_path, capsys):
    run = _check_run(sft_out, "sft")
    assert run["data"]["code_cot"]["train"] == 12 and run["data"]["_mixed"]["train"] == 42
    assert any("reasoning and answer present" in line for line in run["template_checks"])
    assert (sft_out / "model.safetensors").is_file() and (sft_out / "chat_template.jinja").is_file()
    # The checkpoint keeps the inference template, not the training variant with generation markers.
    assert "endgeneration" not in (sft_out / "chat_template.jinja").read_text()
    _reload_and_generate(sft_out)

    dpo_out = tmp_path / "dpo"
    rc = akgen(["train", "dpo", "--config", "tiny-cpu-dpo", "--release", str(release),
                "--model_name_or_path", str(sft_out), "--output_dir", str(dpo_out)])
    assert rc == 0
    err = capsys.readouterr().err
    assert "step 5/5" in err and "tokens/s" in err and "ETA" in err
    run = _check_run(dpo_out, "dpo")
    assert run["data"]["reference"].startswith("the starting model, reloaded")
    assert run["log_history"][0]["loss"] == pytest.approx(0.6931, abs=1e-3)  # policy == reference at step 1
    _reload_and_generate(dpo_out)


def test_lora_sft_merged_then_dpo_on_precomputed_logps(tiny_model, release, tmp_path):
    lora = tmp_path / "lora"
    assert akgen(["train", "sft", *tiny_args("tiny-cpu-sft", release, tiny_model, lora, "--use_peft",
                                             "--lora_r", "4", "--lora_target_modules", "q_proj", "v_proj")]) == 0
    _check_run(lora, "sft")
    assert (lora / "adapter_config.json").is_file() and (lora / "merged" / "config.json").is_file()
    assert akgen(["train", "merge-lora", str(lora), "--out", str(tmp_path / "remerged"), "--dtype", "float32"]) == 0
    _reload_and_generate(tmp_path / "remerged")
    assert akgen(["train", "dpo", *tiny_args("tiny-cpu-dpo", release, lora, tmp_path / "x")]) == 2  # adapter
    dpo = tmp_path / "dpo"
    assert akgen(["train", "dpo", *tiny_args("tiny-cpu-dpo", release, lora / "merged", dpo,
                                             "--precompute_ref_log_probs", "true")]) == 0
    run = _check_run(dpo, "dpo")
    assert run["data"]["reference"] == "precomputed log-probs of the starting model"


def test_bad_input_stops_before_any_model_is_loaded(tiny_model, release, tmp_path, capsys, monkeypatch):
    import trl

    monkeypatch.setattr(trl, "SFTTrainer", None)  # reaching the trainer would raise TypeError
    cases = [
        (["--model_name_or_path", str(tmp_path / "no-model")], "does not exist"),
        (["--subsets", "code_cot=1,kernel_fix=1", "--release", str(tmp_path)], "no manifest.json"),
        (["--subsets", '{"dpo": 1}'], "cannot be used for sft"),
        (["--eval_strategy", "steps", "--eval_split", "test"], "split of code_cot, doc_qa, api_fix, kernel_fix is empty"),
    ]
    for extra, message in cases:
        args = tiny_args("tiny-cpu-sft", release, tiny_model, tmp_path / "out") + extra
        assert akgen(["train", "sft", *args]) == 2, extra
        assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_cli_without_the_train_extra(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "trl" else real(name, *a))
    assert akgen(["train", "sft", "--config", "tiny-cpu-sft"]) == 3
    assert "needs the `train` extra (missing: trl)" in capsys.readouterr().err


@pytest.mark.slow
def test_dpo_under_torchrun_with_two_processes(sft_out, release, tmp_path):
    torchrun = shutil.which("torchrun", path=str(Path(sys.executable).parent))
    assert torchrun, "torchrun comes with torch"
    out = tmp_path / "ddp"
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [torchrun, "--standalone", "--nproc_per_node", "2", "-m", "trainer.dpo",
         *tiny_args("tiny-cpu-dpo", release, sft_out, out, "--per_device_train_batch_size", "2")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "2 process(es)" in proc.stderr
    assert proc.stderr.count("[akgen train] done") == 1  # progress printed by rank 0 only
    _check_run(out, "dpo")
