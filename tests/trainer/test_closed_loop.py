"""The closed loop: generate → evaluate → leaderboard.

A scripted OpenAI-compatible endpoint on 127.0.0.1 answers with the expert kernel of
add_fp16_static for some samples, with prose (no code block: a format failure) and with broken
C++ for others. ``akgen generate --submit --wait`` sends them to a live test instance of the
platform whose dramatiq worker (in this process, on a queue of its own) really compiles and runs
them on cpu-sim; the run's pass@k comes back through the API and the leaderboard has its row.
Re-running the generator submits nothing twice.
"""

from __future__ import annotations

import io
import json
import shutil
import uuid
import warnings
from pathlib import Path

import dramatiq
import pytest
from dramatiq.brokers.rabbitmq import RabbitmqBroker

from tests.trainer.openai_stub import StubOpenAI
from trainer import generate as gen

ROOT = Path(__file__).resolve().parents[2]
TASK = ROOT / "bench_runner" / "suites" / "npukb" / "add_fp16_static"
K = 4


def _evaluator_missing() -> str | None:
    try:
        from bench_runner import toolchains

        availability = toolchains.get("cpu-sim").availability()
    except Exception as exc:  # noqa: BLE001 (any failure means the evaluator cannot run here)
        return f"{type(exc).__name__}: {exc}"
    if not availability.ok:
        return availability.reason
    if not (TASK / "expert" / "kernel.cpp").is_file():
        return f"{TASK} has no expert kernel"
    return None


@pytest.fixture
def eval_queue(settings):
    """This test's evaluations go to a queue of its own on whatever broker the settings give."""
    from workers.actors import evaluate_cpu_sim

    settings.AKGEN_RATE_KEY_PREFIX = f"test:{uuid.uuid4().hex}:"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    broker = dramatiq.get_broker()
    name = f"test.eval.{uuid.uuid4().hex[:10]}"
    if isinstance(broker, RabbitmqBroker):
        del broker.connection
    broker.declare_queue(name)
    original = evaluate_cpu_sim.queue_name
    evaluate_cpu_sim.queue_name = name
    try:
        yield broker, name
    finally:
        evaluate_cpu_sim.queue_name = original
        if isinstance(broker, RabbitmqBroker):
            try:
                del broker.connection
                for queue in (name, f"{name}.DQ", f"{name}.XQ"):
                    broker.channel.queue_delete(queue)
            except Exception as exc:  # noqa: BLE001 (best effort; the queue name is unique)
                warnings.warn(f"could not delete test queue {name}: {exc}", stacklevel=1)


def _respond(expert: str):
    def respond(body, i):
        kind = i % K
        if kind in (0, 1):
            return {"content": f"```cpp\n{expert}```\n", "reasoning": "Tile the vectors over every core."}
        if kind == 2:
            return {"content": "<think>hmm</think>\nI would add the two tensors element by element."}
        return {"content": "```cpp\n#include \"kernel_operator.h\"\nthis is not C++;\n```"}

    return respond


def _args(**overrides) -> gen.argparse.Namespace:
    parser = gen.argparse.ArgumentParser()
    gen.add_arguments(parser)
    args = parser.parse_args(["--run", "0", "--model", "stub"])
    for key, value in overrides.items():
        setattr(args, key, value)
    return args


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_generate_evaluate_leaderboard(live_server, eval_queue, tmp_path):
    missing = _evaluator_missing()
    if missing:
        pytest.skip(f"the cpu-sim evaluator cannot run here: {missing}")
    from django.contrib.auth import get_user_model
    from dramatiq import Worker

    from accounts.services import token_create
    from leaderboard.selectors import Filters, model_leaderboard
    from tasks.services import task_sync_from_suite

    shutil.copytree(TASK, tmp_path / "suite" / TASK.name)
    report = task_sync_from_suite(root=tmp_path / "suite")
    assert report.created == [TASK.name] and not report.errors, report
    user = get_user_model().objects.create_user("trainer-bot", password="generated kernels only")
    token = token_create(user=user, name="generator", scopes=["read", "submit"]).key
    platform = gen.Platform(live_server.url, token)
    model = platform.request("POST", "models/", {"name": "tiny-stub-sft", "base_model": "tiny-qwen3",
                                                 "training_stage": "sft"})
    run = platform.request("POST", "runs/", {"model": model["id"], "name": "closed loop", "samples_per_task": K,
                                             "decoding": {"temperature": 0.8}, "path": "device_only"})

    broker, queue = eval_queue
    worker = Worker(broker, queues={queue}, worker_threads=1, worker_timeout=100)
    worker.start()
    expert = (TASK / "expert" / "kernel.cpp").read_text(encoding="utf-8")
    try:
        with StubOpenAI(_respond(expert)) as stub:
            out = io.StringIO()
            args = _args(run=run["id"], backend="openai", base_url=stub.base_url, k=K, tasks=TASK.name,
                         url=live_server.url, token=token, out=str(tmp_path / "gen"), submit=True, wait=True,
                         wait_timeout=240.0, quiet=False)
            summary = gen.generate(args, out=out)
            assert summary["sampled"] == K and summary["submitted"] == K and summary["format_errors"] == 1
            progress = summary["progress"]
            # Resumable: a second run samples and submits nothing.
            again = gen.generate(_args(**{**vars(args), "wait": False}), out=io.StringIO())
            assert again["submitted"] == 0 and again["skipped"] == K
            assert len(stub.requests) == 1 and stub.requests[0]["n"] == K
    finally:
        worker.stop(timeout=10_000)

    assert "pass@4" in out.getvalue() and TASK.name in out.getvalue()
    detail = platform.run(run["id"])["progress"]
    assert detail == progress
    assert (detail["submitted"], detail["evaluated"], detail["pending"]) == (K, K, 0)
    assert detail["passed"] == 2 and detail["compiled"] == 2
    [row] = detail["tasks"]
    assert row["pass_at_1"] == pytest.approx(0.5) and row["pass_at_k"] == pytest.approx(1.0)
    assert detail["pass_at_k"] == pytest.approx(1.0)

    subs = {s["sample_index"]: s for s in platform.paged("submissions/", {"run": run["id"]})}
    assert [subs[i]["verdict"] for i in range(K)] == ["passed", "passed", "compile_error", "compile_error"]
    assert "akgen-format" in json.dumps(subs[2]["result"]["diagnostics"])
    saved = [json.loads(line) for line in (tmp_path / "gen" / "samples.jsonl").read_text().splitlines()]
    assert [s["submission"] for s in saved] == [subs[i]["id"] for i in range(K)]
    assert saved[2]["raw"].startswith("<think>hmm</think>") and saved[0]["reasoning"]
    # The reasoning reaches the platform with its sample (releases put it into SFT and DPO records).
    stored = platform.request("GET", f"submissions/{subs[0]['id']}/")
    assert stored["reasoning"] == saved[0]["reasoning"] == "Tile the vectors over every core."

    rows = [r for r in model_leaderboard(Filters()) if not r.baseline and r.run_id == run["id"]]
    assert len(rows) == 1 and rows[0].model_name == "tiny-stub-sft"
    board = platform.request("GET", "leaderboard/models/")["rows"]
    assert [r["model"] for r in board if r["run"] == run["id"]] == ["tiny-stub-sft"]
