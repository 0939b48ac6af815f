"""The real vLLM engine: runs only where vLLM imports and a CUDA GPU is present, i.e. in the
separate `generate` environment on a GPU host (docs/training.md):

    .venv-generate/bin/python -m pytest -m vllm tests/trainer/test_vllm.py
"""

from __future__ import annotations

import importlib.util
import json

import pytest


def _gpu_and_vllm() -> str | None:
    if importlib.util.find_spec("vllm") is None:
        return "vLLM is not installed here (it lives in its own environment: docs/training.md)"
    try:
        import torch
    except ImportError:
        return "torch is not installed"
    if not torch.cuda.is_available():
        return "no CUDA GPU"
    return None


pytestmark = [pytest.mark.vllm, pytest.mark.skipif(_gpu_and_vllm() is not None, reason=str(_gpu_and_vllm()))]


@pytest.fixture(scope="module")
def vllm_tiny(tmp_path_factory):
    from trainer.tiny import make_tiny_model

    # vLLM's attention backends want head_dim 64.
    return make_tiny_model(tmp_path_factory.mktemp("vllm") / "tiny", hidden_size=128, num_heads=2, num_kv_heads=1,
                           head_dim=64)


def test_vllm_backend_samples_k_per_prompt(vllm_tiny):
    from trainer.generate import Decoding, VLLMBackend

    backend = VLLMBackend(str(vllm_tiny), Decoding(temperature=1.0, max_tokens=16, seed=0), max_model_len=4096,
                          gpu_memory_utilization=0.3)
    out = backend.sample([[{"role": "user", "content": "Write the add kernel."}],
                          [{"role": "user", "content": "Write the relu kernel."}]], 4)
    assert [len(o) for o in out] == [4, 4]
    assert all(c.finish_reason in ("stop", "length") for o in out for c in o)


def test_generate_with_vllm_offline(vllm_tiny, tmp_path, monkeypatch, capsys):
    from bench_runner.cli import main as akgen

    monkeypatch.delenv("AKGEN_API_TOKEN", raising=False)
    monkeypatch.delenv("AKGEN_TOKEN", raising=False)
    rc = akgen(["generate", "--run", "1", "--model", str(vllm_tiny), "--backend", "vllm", "--k", "3",
                "--tasks", "add_fp16_static", "--max-tokens", "32", "--max-model-len", "4096",
                "--out", str(tmp_path), "--json", "--quiet"])
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["sampled"] == 3
    rows = [json.loads(line) for line in (tmp_path / "samples.jsonl").read_text().splitlines()]
    assert len(rows) == 3 and all(r["kernel"] for r in rows)  # a random tiny model: format failures, kept
