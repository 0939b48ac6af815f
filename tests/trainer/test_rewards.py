"""The execution rewards (trainer/rewards.py) on known completions, judged by the real evaluator.

The completions of one task (abs_fp16, device_only): its expert kernel, a correct kernel that
computes with scalar GetValue/SetValue (the cost model charges it: slow), the expert with the
operation changed (wrong answer), a missing semicolon (compile error), a kernel calling memcpy
(the static checks reject it as device_code: a cost-model hack), and prose without code.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from bench_runner import tasks, toolchains
from bench_runner.contracts import SUSPICIOUS_SPEEDUP, EvaluationResult, Verdict
from trainer import rewards

TASK, PATH = "abs_fp16", "device_only"
ADVERSARIAL = Path(__file__).resolve().parents[1] / "bench_runner" / "adversarial"
needs_sim = pytest.mark.skipif(not toolchains.get("cpu-sim").availability().ok, reason="cpu-sim unavailable")


def answer(code: str, reasoning: str = "Split the vector over the cores, one Abs per tile.") -> str:
    return f"<think>\n{reasoning}\n</think>\n\nHere is the kernel.\n\n```cpp\n{code}```\n"


def expert() -> str:
    return tasks.get_task(TASK).expert_kernel.read_text(encoding="utf-8")


def completions() -> dict[str, str]:
    """Known completions by name, in the order their rewards must come out (best first)."""
    k = expert()
    assert "Abs(yLocal, xLocal, cnt);" in k
    return {
        "expert": answer(k),
        "correct_but_slow": answer((ADVERSARIAL / "abs_ub_scalar.cpp").read_text(encoding="utf-8")),
        "wrong_answer": answer(k.replace("Abs(yLocal, xLocal, cnt);", "Relu(yLocal, xLocal, cnt);")),
        "compile_error": answer(k.replace("Abs(yLocal, xLocal, cnt);", "Abs(yLocal, xLocal, cnt)")),
        "unparsable": "I would use the vector unit: load a tile, call Abs, store it. (no code)",
    }


def hack_device_code() -> str:
    return answer((ADVERSARIAL / "abs_memcpy.cpp").read_text(encoding="utf-8"))


def conversational(text: str) -> list[dict[str, str]]:
    """A completion as GRPOTrainer hands it over for a conversational dataset."""
    return [{"role": "assistant", "content": text}]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("reward-cache"))


@pytest.fixture(scope="module")
def judged(cache_dir: str) -> dict[str, object]:
    """One batch through the four reward functions as TRL calls them: the known completions, a
    duplicate of the expert (other reasoning, same code) and the device_code hack. The result
    cache is off, so a duplicate evaluated twice would show two different random seeds."""
    if not toolchains.get("cpu-sim").availability().ok:
        pytest.skip("cpu-sim unavailable")
    known = completions()
    batch = [*known.values(), answer(expert(), reasoning="Same kernel, other words."), hack_device_code()]
    names = [*known, "expert_again", "hack_device_code"]
    evaluator = rewards.BatchEvaluator(options=rewards.EvalOptions(cache_dir=cache_dir, use_cache=False), pool_size=2)
    metrics: dict[str, float] = {}
    extra: dict[str, list[object]] = {}
    with evaluator:
        values = {f.__name__: f(prompts=[None] * len(batch), completions=[conversational(t) for t in batch],
                                completion_ids=None, task=[TASK] * len(batch), path=[PATH] * len(batch),
                                trainer_state=None, log_metric=metrics.__setitem__, log_extra=extra.__setitem__)
                  for f in evaluator.reward_funcs()}
        outcomes = evaluator.score([conversational(t) for t in batch], [TASK] * len(batch), [PATH] * len(batch))
    by_name = dict(zip(names, outcomes, strict=True))
    totals = {n: sum(evaluator.weights[c] * values[c][i] for c in rewards.COMPONENTS) for i, n in enumerate(names)}
    return {"values": values, "names": names, "outcomes": by_name, "totals": totals, "evaluator": evaluator,
            "metrics": metrics, "extra": extra}


@needs_sim
def test_rewards_follow_the_documented_order(judged):
    totals, outcomes = judged["totals"], judged["outcomes"]
    order = list(completions())
    assert [totals[n] for n in order] == sorted((totals[n] for n in order), reverse=True), totals
    assert len({totals[n] for n in order}) == len(order), f"ties: {totals}"
    assert outcomes["expert"].result.passed and outcomes["expert"].result.speedup == pytest.approx(1.0, abs=0.05)
    slow = outcomes["correct_but_slow"].result
    assert slow.passed and slow.speedup < 0.5 and outcomes["correct_but_slow"].components()["performance"] < 0
    assert outcomes["wrong_answer"].result.verdict is Verdict.WRONG_ANSWER
    assert outcomes["compile_error"].result.verdict is Verdict.COMPILE_ERROR
    assert outcomes["unparsable"].result is None and "expected exactly one" in outcomes["unparsable"].format_error
    # the totals are what rewards.total_reward documents
    for name, outcome in outcomes.items():
        assert totals[name] == pytest.approx(rewards.total_reward(outcome))


@needs_sim
def test_each_component_is_its_own_reward_function(judged):
    values, names = judged["values"], judged["names"]
    assert list(values) == list(rewards.COMPONENTS)  # TRL logs rewards/<__name__>/mean
    row = {n: {c: values[c][i] for c in rewards.COMPONENTS} for i, n in enumerate(names)}
    assert row["expert"] == {"format": 1.0, "compiles": 1.0, "passes": 1.0, "performance": pytest.approx(0, abs=0.1)}
    assert row["correct_but_slow"] == {"format": 1.0, "compiles": 1.0, "passes": 1.0, "performance": -1.0}
    assert row["wrong_answer"] == {"format": 1.0, "compiles": 1.0, "passes": 0.0, "performance": 0.0}
    assert row["compile_error"] == {"format": 1.0, "compiles": 0.0, "passes": 0.0, "performance": 0.0}
    assert row["unparsable"] == dict.fromkeys(rewards.COMPONENTS, 0.0)
    assert judged["extra"]["verdict"][:5] == ["passed", "passed", "wrong_answer", "compile_error", "unparsable"]
    assert judged["metrics"]["evaluator/completions"] == len(names)


@needs_sim
def test_device_code_hack_earns_no_performance(judged):
    hack = judged["outcomes"]["hack_device_code"]
    assert hack.result.verdict is Verdict.COMPILE_ERROR and hack.result.failure_category == "device_code"
    assert hack.components() == {"format": 1.0, "compiles": 0.0, "passes": 0.0, "performance": 0.0}
    assert judged["totals"]["hack_device_code"] < judged["totals"]["wrong_answer"]


@needs_sim
def test_duplicates_in_a_batch_are_evaluated_once(judged):
    stats, outcomes = judged["evaluator"].last, judged["outcomes"]
    names = judged["names"]
    assert stats.completions == len(names) and stats.unparsable == 1
    assert stats.duplicates == 1 and stats.evaluations == len(names) - 2  # minus the duplicate, the unparsable
    assert judged["evaluator"].totals.completions == len(names)  # four components, one evaluation of the batch
    a, b = outcomes["expert"].result, outcomes["expert_again"].result
    assert a is b and not a.cache["hit"]  # one evaluation (the cache was off), shared by both completions


@needs_sim
def test_repeats_across_steps_come_from_the_cache(cache_dir):
    batch = [conversational(answer(expert()))] * 2
    with rewards.BatchEvaluator(options=rewards.EvalOptions(cache_dir=cache_dir), pool_size=1) as evaluator:
        fmt = evaluator.reward_funcs()[0]
        first = fmt(completions=batch, task=[TASK] * 2, path=[PATH] * 2)
        first_hits = evaluator.last.cache_hits
        second = fmt(completions=batch, task=[TASK] * 2, path=[PATH] * 2)  # the next step, same texts
        assert first == second == [1.0, 1.0]
        assert first_hits == 0 and evaluator.last.evaluations == 1 and evaluator.last.cache_hits == 1
        assert evaluator.totals.completions == 4  # both steps counted


def _passing(result_speedup: float, flags: tuple[str, ...] = ()) -> rewards.Outcome:
    return rewards.Outcome(result=EvaluationResult(verdict=Verdict.PASSED, compiled=True, speedup=result_speedup,
                                                   flags=flags))


@needs_sim
def test_suspicious_or_flagged_results_earn_no_performance(judged):
    real = judged["outcomes"]["expert"].result
    forged = dataclasses.replace(real, speedup=SUSPICIOUS_SPEEDUP * 5, flags=("suspicious_speedup",))
    unmodelled = dataclasses.replace(real, speedup=1.8, flags=("unmodelled_write",))
    below = dataclasses.replace(real, speedup=3.0, flags=("below_traffic_bound",))
    for result in (forged, unmodelled, below):
        assert rewards.performance_term(result) == 0.0, result.flags
        assert rewards.Outcome(result=result).components()["passes"] == 1.0
    assert rewards.performance_term(dataclasses.replace(real, speedup=1.8)) == pytest.approx(0.848, abs=1e-3)


def test_performance_term_is_log_scaled_and_bounded():
    assert rewards.performance_term(_passing(1.0).result) == 0.0
    assert rewards.performance_term(_passing(2.0).result) == pytest.approx(1.0)
    assert rewards.performance_term(_passing(0.5).result) == pytest.approx(-1.0)
    assert rewards.performance_term(_passing(8.0).result) == rewards.PERF_CLIP  # clipped, below the flag threshold
    assert rewards.performance_term(_passing(0.01).result) == -rewards.PERF_CLIP
    wrong = EvaluationResult(verdict=Verdict.WRONG_ANSWER, compiled=True, speedup=3.0)
    assert rewards.performance_term(wrong) == 0.0
    # the best possible wrong answer never reaches the worst correct one
    assert rewards.total_reward(_passing(0.01)) > rewards.total_reward(rewards.Outcome(result=wrong))


def test_weights_are_checked_against_the_order():
    assert rewards.parse_weights(None) == dict(rewards.WEIGHTS)
    assert rewards.parse_weights("passes=3, performance=2")["passes"] == 3.0
    assert rewards.parse_weights({"format": 0.25})["format"] == 0.25
    with pytest.raises(rewards.RewardInputError, match="passes > performance"):
        rewards.parse_weights("passes=0.5")
    with pytest.raises(rewards.RewardInputError, match="format must be > 0"):
        rewards.parse_weights({"format": 0})
    with pytest.raises(rewards.RewardInputError, match="unknown component 'speed'"):
        rewards.parse_weights("speed=1")
    with pytest.raises(rewards.RewardInputError, match="must be a number"):
        rewards.parse_weights("passes=lots")


def test_parsing_follows_the_prompt_rules():
    k = expert()
    # a code block inside the reasoning is not the answer
    with_draft = answer(k, reasoning="Draft:\n```cpp\nint draft;\n```\nthen the real one.")
    assert rewards.parse_completion(with_draft, TASK, PATH).kernel == k
    assert rewards.completion_text(conversational("x")) == "x"
    assert rewards.completion_text([{"role": "assistant", "content": [{"type": "text", "text": "y"}]}]) == "y"
    from bench_runner.errors import SubmissionError

    with pytest.raises(SubmissionError):
        rewards.parse_completion(answer(k) + answer(k), TASK, PATH)  # two blocks
    with pytest.raises(SubmissionError):  # contracts.check_source: a NUL is never evaluated
        rewards.parse_completion(answer(k.replace("KernelAbs op;", "KernelAbs op;\x00")), TASK, PATH)


# --- failures of the evaluator stop the step ------------------------------------------------


def system_error(sub: rewards.Submission, options: rewards.EvalOptions) -> dict:
    """A pool job whose evaluator answered system_error (the machine, not the kernel, failed)."""
    return {"result": EvaluationResult(verdict=Verdict.SYSTEM_ERROR, reason="scratch disk full").to_dict()}


def worker_dies(sub: rewards.Submission, options: rewards.EvalOptions) -> dict:
    os._exit(3)


def never_called(sub: rewards.Submission, options: rewards.EvalOptions) -> dict:
    raise AssertionError("an unparsable completion reached the evaluator")


@pytest.mark.parametrize(("fn", "message"), [(system_error, "system_error: scratch disk full"),
                                             (worker_dies, "reward worker died")])
def test_evaluator_failure_raises_instead_of_scoring_zero(fn, message):
    with (rewards.BatchEvaluator(pool_size=1, evaluate_fn=fn) as evaluator,
          pytest.raises(rewards.RewardInfrastructureError, match=message)):
        evaluator.reward_funcs()[0](completions=[answer(expert())], task=[TASK], path=[PATH])


def test_toolchain_missing_on_this_host_raises():
    if toolchains.get("cann").availability().ok:
        pytest.skip("this host serves cann")
    with (rewards.BatchEvaluator(options=rewards.EvalOptions(toolchain="cann"), pool_size=1) as evaluator,
          pytest.raises(rewards.RewardInfrastructureError, match="ToolchainUnavailableError")):
        evaluator.score([answer(expert())], [TASK], [PATH])


def test_a_task_that_cannot_be_evaluated_is_an_input_error():
    with rewards.BatchEvaluator(pool_size=1) as evaluator:
        with pytest.raises(rewards.RewardInputError, match="unknown task 'no_such_task'"):
            evaluator.score([answer(expert())], ["no_such_task"], [PATH])
        with pytest.raises(rewards.RewardInputError, match="`task` and `path` columns"):
            evaluator.score([answer(expert())], [], [])


def test_unparsable_completions_never_reach_the_evaluator():
    with rewards.BatchEvaluator(pool_size=1, evaluate_fn=never_called) as evaluator:
        out = evaluator.score(["no code", "```cpp\n\n```"], [TASK] * 2, [PATH] * 2)
        assert [o.components()["format"] for o in out] == [0.0, 0.0]
        assert evaluator.last.evaluations == 0 and evaluator._pool is None
