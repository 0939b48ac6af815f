"""GRPO rewards through the platform (issue #21): the batch API, a live test instance and a real
dramatiq worker (in this process, on a queue of its own) compile and run the rollouts on cpu-sim,
and every reward component equals what the local process pool gives for the same completions."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.trainer.test_closed_loop import TASK, _evaluator_missing, eval_queue  # noqa: F401 (a fixture)
from trainer import rewards
from trainer.platform_rewards import PlatformBatchEvaluator


def _completions() -> list[str]:
    expert = (TASK / "expert" / "kernel.cpp").read_text(encoding="utf-8")
    return [
        f"<think>tile it</think>\n```cpp\n{expert}```\n",  # passes
        f"```cpp\n{expert.replace('Add(', 'Sub(', 1)}```\n",  # compiles, wrong answer
        "```cpp\n#include \"kernel_operator.h\"\nint broken( {\n```\n",  # compile error
        "I would tile the vectors over every core.",  # unparsable: never sent
        f"<think>tile it</think>\n```cpp\n{expert}```\n",  # a duplicate: judged once
    ]


@pytest.fixture
def reward_key(db, live_server, tmp_path):
    from django.contrib.auth import get_user_model

    from accounts.services import token_create
    from tasks.services import task_sync_from_suite

    shutil.copytree(TASK, tmp_path / "suite" / TASK.name)
    report = task_sync_from_suite(root=tmp_path / "suite")
    assert report.created == [TASK.name], report
    user = get_user_model().objects.create_user("rollouts", password="x", is_staff=True)  # a high tier
    return token_create(user=user, name="grpo", scopes=["read", "submit"]).key


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_platform_rewards_equal_the_local_ones_through_a_real_worker(live_server, eval_queue, reward_key):  # noqa: F811
    missing = _evaluator_missing()
    if missing:
        pytest.skip(f"the cpu-sim evaluator cannot run here: {missing}")
    from dramatiq import Worker

    from submissions.models import Submission

    texts = _completions()
    tasks, paths = [TASK.name] * len(texts), ["device_only"] * len(texts)
    broker, queue = eval_queue
    worker = Worker(broker, queues={queue}, worker_threads=2, worker_timeout=100)
    worker.start()
    try:
        remote = PlatformBatchEvaluator(api_url=live_server.url, token=reward_key, timeout_s=240, poll_s=0.2)
        got = remote.score(texts, tasks, paths)
    finally:
        worker.stop(timeout=10_000)
    assert Submission.objects.count() == 3 and remote.last.evaluations == 3 and remote.last.duplicates == 1
    assert set(Submission.objects.values_list("visibility", flat=True)) == {"private"}  # rollouts, not results
    with rewards.BatchEvaluator(pool_size=2) as local:
        want = local.score(texts, tasks, paths)
    assert [o.components() for o in got] == [o.components() for o in want]
    assert [o.verdict for o in got] == ["passed", "wrong_answer", "compile_error", "unparsable", "passed"]
    totals = [rewards.total_reward(o) for o in got]
    assert totals[0] > totals[1] > totals[2] > totals[3] == 0


@pytest.mark.django_db(transaction=True)
def test_no_worker_is_an_infrastructure_error_not_a_zero_reward(live_server, reward_key, monkeypatch):
    from submissions import intake

    monkeypatch.setattr(intake, "evaluation_send", lambda evaluation: None)  # nobody will judge them
    remote = PlatformBatchEvaluator(api_url=live_server.url, token=reward_key, timeout_s=1.0, poll_s=0.1)
    with pytest.raises(rewards.RewardInfrastructureError, match="still unjudged after 1 s"):
        remote.score(_completions()[:1], [TASK.name], ["device_only"])
    with pytest.raises(rewards.RewardInfrastructureError, match="API key"):
        PlatformBatchEvaluator(api_url=live_server.url, token=None)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_grpo_ends_with_a_run_on_the_evaluation_tasks(live_server, eval_queue, reward_key, tiny_model, tmp_path,  # noqa: F811
                                                      monkeypatch):
    """`final_run_api_url`: the trained model is registered (SFT+RL), samples k per evaluation task
    through `akgen generate --tasks eval`, and a real worker judges them: the run is scored on the
    evaluation split only, like any model on the leaderboard."""
    missing = _evaluator_missing()
    if missing:
        pytest.skip(f"the cpu-sim evaluator cannot run here: {missing}")
    from dramatiq import Worker

    from submissions.models import LanguageModel, Run
    from tasks.services import task_sync_from_suite
    from trainer import grpo

    held = TASK.parent / "abs_fp16"  # an evaluation task (splits.toml), with its derived _static twin
    shutil.copytree(held, tmp_path / "suite" / held.name)
    task_sync_from_suite(root=tmp_path / "suite")
    monkeypatch.setenv("AKGEN_TOKEN", reward_key)
    broker, queue = eval_queue
    worker = Worker(broker, queues={queue}, worker_threads=2, worker_timeout=100)
    worker.start()
    out = tmp_path / "tiny-grpo-final"
    try:
        code = grpo.main(["--config", "tiny-cpu-grpo", "--model_name_or_path", str(tiny_model), "--output_dir",
                          str(out), "--max_steps", "1", "--reward_cache_dir", str(tmp_path / "cache"),
                          "--heldout_k", "2", "--heldout_max_new_tokens", "16", "--final_run_api_url", live_server.url])
    finally:
        worker.stop(timeout=10_000)
    assert code == 0
    final = json.loads((out / "akgen_run.json").read_text())["final_run"]
    run = Run.objects.get(pk=final["run"])
    assert run.model.training_stage == "sft_rl" and run.model.name == out.name
    assert final["scored_on"] == "eval" and final["tasks"] == 2  # abs_fp16 and abs_fp16_static, nothing else
    assert run.submissions.count() == 4 and LanguageModel.objects.count() == 1
    assert set(run.submissions.values_list("task__slug", flat=True)) == {"abs_fp16", "abs_fp16_static"}
