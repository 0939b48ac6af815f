"""The generator's parts: the OpenAI backend against a scripted HTTP endpoint, answer extraction
and format failures, the transformers backend on the tiny model, the vLLM call shape (with a
stand-in module), and resuming from samples.jsonl without the platform."""

from __future__ import annotations

import json
import sys
import types

import pytest

from bench_runner.cli import main as akgen
from tests.trainer.openai_stub import StubOpenAI
from trainer import generate as gen

KERNEL_ANSWER = "Here it is.\n```cpp\n#include \"kernel_operator.h\"\nint k;\n```\n"


def test_split_reasoning_and_extract():
    assert gen.split_reasoning("<think>\nplan\n</think>\n\nanswer") == ("plan", "answer")
    assert gen.split_reasoning("no thinking") == (None, "no thinking")
    kernel, host, error = gen.extract(KERNEL_ANSWER, "device_only")
    assert kernel.startswith("#include") and host is None and error is None
    kernel, host, error = gen.extract("I cannot help with that.", "device_only")
    assert error == "expected exactly one ```cpp block, found 0"
    assert kernel.startswith("#error akgen-format:") and host is None
    kernel, host, error = gen.extract(KERNEL_ANSWER, "host_device")
    assert "kernel.cpp" in error and host == kernel and kernel.startswith("#error akgen-format")
    both = "```cpp\n// file: kernel.cpp\nint k;\n```\n```cpp\n// file: host.cpp\nint h;\n```"
    kernel, host, error = gen.extract(both, "host_device")
    assert error is None and "int k;" in kernel and "int h;" in host


def test_openai_backend_loops_until_k_and_reads_reasoning():
    def respond(body, i):
        if i % 2:
            return {"content": f"<think>inline {i}</think>\n{KERNEL_ANSWER}"}
        return {"content": KERNEL_ANSWER, "reasoning": f"field {i}"}

    with StubOpenAI(respond, max_n=2, fail_first=1) as stub:
        backend = gen.OpenAIBackend(stub.base_url, "stub-model", gen.Decoding(temperature=0.7, max_tokens=64, seed=5,
                                                                              enable_thinking=True), concurrency=1)
        [out] = backend.sample([[{"role": "user", "content": "write add"}]], 5)
    assert len(out) == 5
    assert [c.reasoning for c in out] == ["field 0", "inline 1", "field 2", "inline 3", "field 4"]
    assert all(c.text.startswith("Here it is.") for c in out)
    bodies = stub.requests[1:]  # the first got a 503 and was retried
    assert [b["n"] for b in bodies] == [5, 3, 1]  # asks for what is missing; the endpoint caps n at 2
    assert [b["seed"] for b in bodies] == [5, 7, 9]
    assert bodies[0]["max_tokens"] == 64 and bodies[0]["temperature"] == 0.7
    assert bodies[0]["chat_template_kwargs"] == {"enable_thinking": True}
    assert bodies[0]["messages"] == [{"role": "user", "content": "write add"}]


def test_openai_backend_reports_a_refusing_endpoint():
    backend = gen.OpenAIBackend("http://127.0.0.1:9/v1", "m", gen.Decoding(), retries=0)
    with pytest.raises(gen.GenerateError, match="cannot reach"):
        backend.sample([[{"role": "user", "content": "x"}]], 1)


def test_vllm_backend_call_shape(monkeypatch):
    calls = {}

    class LLM:
        def __init__(self, **kwargs):
            calls["llm"] = kwargs

        def chat(self, conversations, params, **kwargs):
            calls["chat"] = (conversations, params, kwargs)
            completion = types.SimpleNamespace(text=f"<think>r</think>{KERNEL_ANSWER}", finish_reason="stop")
            return [types.SimpleNamespace(outputs=[completion] * params.n) for _ in conversations]

    fake = types.ModuleType("vllm")
    fake.LLM = LLM
    fake.SamplingParams = lambda **kw: types.SimpleNamespace(**kw)
    monkeypatch.setitem(sys.modules, "vllm", fake)
    backend = gen.VLLMBackend("/models/m", gen.Decoding(temperature=0.6, max_tokens=128, seed=1, enable_thinking=False),
                              tensor_parallel_size=2, max_model_len=8192)
    out = backend.sample([[{"role": "user", "content": "a"}], [{"role": "user", "content": "b"}]], 3)
    assert calls["llm"] == {"model": "/models/m", "tensor_parallel_size": 2, "dtype": "auto",
                            "gpu_memory_utilization": 0.9, "seed": 1, "max_model_len": 8192}
    conversations, params, kwargs = calls["chat"]
    assert len(conversations) == 2 and params.n == 3 and params.max_tokens == 128 and params.temperature == 0.6
    assert kwargs["chat_template_kwargs"] == {"enable_thinking": False}
    assert [len(o) for o in out] == [3, 3] and out[0][0].reasoning == "r"


def test_vllm_import_is_lazy():
    import subprocess

    code = "import trainer.generate, bench_runner.cli, sys; print('vllm' in sys.modules, 'torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_transformers_backend_on_the_tiny_model(tiny_model):
    backend = gen.TransformersBackend(str(tiny_model), gen.Decoding(temperature=1.0, max_tokens=8, seed=0))
    [out] = backend.sample([[{"role": "user", "content": "Write the add kernel."}]], 3)
    assert len(out) == 3 and all(c.finish_reason in ("stop", "length") for c in out)
    assert all(isinstance(c.raw, str) for c in out)


def test_offline_generation_saves_raw_completions_and_resumes(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("AKGEN_API_TOKEN", raising=False)
    monkeypatch.delenv("AKGEN_TOKEN", raising=False)
    with StubOpenAI(lambda body, i: {"content": KERNEL_ANSWER if i % 2 else "no code"}) as stub:
        args = ["generate", "--run", "7", "--model", "stub", "--backend", "openai", "--base-url", stub.base_url,
                "--k", "2", "--tasks", "add_fp16_static", "--out", str(tmp_path), "--json", "--quiet"]
        assert akgen(args) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["sampled"] == 2 and summary["format_errors"] == 1 and summary["submitted"] == 0
        rows = [json.loads(line) for line in (tmp_path / "samples.jsonl").read_text().splitlines()]
        assert [r["sample_index"] for r in rows] == [0, 1]
        assert rows[0]["raw"] == "no code" and rows[0]["format_error"] and rows[1]["format_error"] is None
        prompt = stub.requests[0]["messages"][0]["content"]
        assert "add" in prompt and "exactly one ```cpp code block" in prompt
        assert akgen(args) == 0  # everything sampled already: no new request
        assert len(stub.requests) == 1
    assert akgen(["generate", "--run", "7", "--model", "m", "--backend", "openai", "--base-url", "x",
                  "--submit"]) == 1
    assert "need an API key" in capsys.readouterr().err


def test_suite_limits_the_platforms_task_list_stub_platform():
    """`--suite npukb` asks the platform for that suite's tasks only (the HTTP side is a stub
    here; tests/platform/tasks/test_suites.py checks the API's ?suite= filter for real)."""
    asked = []

    class Recorder:
        def paged(self, path, params=None):
            asked.append((path, params))
            return [{"slug": "equal_fp16", "paths": ["device_only"]}]

        def request(self, method, path, params=None):
            return {"prompts": {"device_only": "P"}}

    assert gen.task_prompts(Recorder(), None, "device_only", "npukb") == {"equal_fp16": "P"}
    assert asked == [("tasks/", {"suite": "npukb"})]


def test_reasoning_is_trimmed_to_the_platforms_limit_keeping_its_end():
    text = "plan " * 100 + "FINAL PLAN: tile by 2048"
    assert gen.trim_reasoning(text, None) == text and gen.trim_reasoning(None, 10) is None
    cut = gen.trim_reasoning(text, 120)
    assert len(cut.encode()) <= 120 and cut.startswith(gen.TRIMMED_MARK) and cut.endswith("FINAL PLAN: tile by 2048")
    wide = "思" * 100  # never split a character
    assert len(gen.trim_reasoning(wide, 90).encode()) <= 90 and gen.trim_reasoning(wide, 90).endswith("思")
