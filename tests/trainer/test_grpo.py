"""`akgen train grpo`: two GRPO steps of the tiny recipe on CPU with the real evaluator as reward,
the training-split rule, and the recipes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_runner import splits, tasks
from trainer import grpo, rewards

STEPS = 2


def _run_file(out: Path) -> dict:
    return json.loads((out / "akgen_run.json").read_text(encoding="utf-8"))


def test_two_grpo_steps_of_the_tiny_recipe(tiny_model, tmp_path):
    out = tmp_path / "tiny-grpo"
    code = grpo.main(["--config", "tiny-cpu-grpo", "--model_name_or_path", str(tiny_model), "--output_dir", str(out),
                      "--max_steps", str(STEPS), "--reward_cache_dir", str(tmp_path / "cache"),
                      "--heldout_eval_steps", "1", "--heldout_k", "2", "--heldout_max_tasks", "2",
                      "--heldout_max_new_tokens", "16"])
    assert code == 0
    run = _run_file(out)
    _, train_args, _ = grpo.parse(["--config", "tiny-cpu-grpo"])
    per_step = train_args.generation_batch_size  # completions sampled (and judged) per step
    assert per_step == 4

    # held-out pass@k on a fixed budget at every step: 2 evaluation tasks x k=2, never trained on
    held = [row for row in run["log_history"] if "heldout/pass@2" in row]
    assert [row["step"] for row in held] == list(range(1, STEPS + 1))
    assert all(row["heldout/completions"] == 4 and row["heldout/tasks"] == 2 for row in held)
    assert all(0.0 <= row["heldout/pass@1"] <= row["heldout/pass@2"] <= 1.0 for row in held)

    # every completion was judged: parsed and evaluated, or scored unparsable, none skipped
    judged = run["data"]["rewards"]["evaluator"]
    assert judged["completions"] == STEPS * per_step + 4 * STEPS  # training rollouts + held-out samples
    assert judged["unparsable"] + judged["evaluations"] + judged["duplicates"] == judged["completions"]

    # one log row per step, with each reward component logged on its own
    steps = [row for row in run["log_history"] if "reward" in row]
    assert [row["step"] for row in steps] == list(range(1, STEPS + 1))
    for row in steps:
        for name in rewards.COMPONENTS:
            assert f"rewards/{name}/mean" in row and f"rewards/{name}/std" in row
        assert row["evaluator/completions"] == per_step
        weighted = sum(rewards.WEIGHTS[n] * row[f"rewards/{n}/mean"] for n in rewards.COMPONENTS)
        assert row["reward"] == pytest.approx(weighted, abs=1e-5)  # TRL's reward_weights are ours
    assert run["kind"] == "grpo" and run["data"]["rewards"]["weights"] == dict(rewards.WEIGHTS)

    # trained on training tasks only
    listed = splits.split_list(tasks.suite_dir(), run["release"]["tasks"])
    assert run["release"]["tasks"] == ["add_fp16_static", "relu_fp32_dynamic"]
    assert not any(listed.is_eval(slug) for slug in run["release"]["tasks"])

    # the checkpoint loads with transformers
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(out)
    tokenizer = AutoTokenizer.from_pretrained(out)
    assert model.config.vocab_size == len(tokenizer)
    assert (out / "akgen_config.yaml").read_text().startswith("# akgen train grpo")


TINY_TASKS = ("add_fp16_static", "relu_fp32_dynamic")  # the tiny recipe's


def scripted_rollout(prompts: list, trainer) -> dict[str, list]:
    """TRL's rollout_func: instead of sampling the tiny model (whose text never parses), answer
    each group of num_generations prompts with its task's expert kernel, then prose without code."""
    tok = trainer.processing_class
    out: dict[str, list] = {"prompt_ids": [], "completion_ids": [], "logprobs": []}
    for i, prompt in enumerate(prompts):
        text = prompt[0]["content"]
        task = next(tasks.get_task(s) for s in TINY_TASKS if tasks.get_task(s).title in text)
        reply = ("```cpp\n" + task.expert_kernel.read_text(encoding="utf-8") + "```\n" if i % 2 == 0
                 else "Use the vector unit.")
        rendered = tok.apply_chat_template(prompt, add_generation_prompt=True, tokenize=False)
        completion = tok(reply, add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
        out["prompt_ids"].append(tok(rendered, add_special_tokens=False)["input_ids"])
        out["completion_ids"].append(completion)
        out["logprobs"].append([0.0] * len(completion))
    return out


def test_grpo_steps_reward_expert_answers_through_the_real_evaluator(tiny_model, tmp_path, monkeypatch):
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    out = tmp_path / "scripted"
    args, train_args, model_args = grpo.parse([
        "--config", "tiny-cpu-grpo", "--model_name_or_path", str(tiny_model), "--output_dir", str(out),
        "--max_steps", str(STEPS), "--reward_cache_dir", str(tmp_path / "cache")])
    metrics = grpo.run_grpo(args, train_args, model_args, rollout_func=scripted_rollout)
    steps = [row for row in _run_file(out)["log_history"] if "reward" in row]
    assert len(steps) == STEPS
    for row in steps:  # half the completions are expert kernels: they parse, compile and pass
        assert row["rewards/format/mean"] == row["rewards/compiles/mean"] == row["rewards/passes/mean"] == 0.5
        assert abs(row["rewards/performance/mean"]) < 0.05  # the expert is the speedup baseline
        assert row["evaluator/evaluations"] == 2 and row["evaluator/unparsable"] == 2
    assert steps[0]["evaluator/cache_hits"] == 0 and steps[1]["evaluator/cache_hits"] == 2  # step 2: the cache
    assert metrics["evaluator/completions"] == STEPS * train_args.generation_batch_size == 8
    assert metrics["evaluator/evaluations"] + metrics["evaluator/unparsable"] == 8


def test_the_prompts_are_the_training_split_only():
    args = grpo.GRPOArguments(path="all")
    selection = grpo.select_tasks(args)
    slugs = [t.slug for t in tasks.load_suite().tasks]
    listed = splits.split_list(tasks.suite_dir(), slugs)
    chosen = {slug for slug, _ in selection.rows}
    assert chosen == set(splits.select(slugs, "train", listed))
    assert {p for _, p in selection.rows} == {"device_only", "host_device"}
    assert selection.held_out_tasks == len(slugs) - len(chosen) > 0

    small = grpo.select_tasks(grpo.GRPOArguments(tasks="add_fp16_static,relu_fp32_dynamic"))
    dataset = grpo.build_dataset(small)
    assert dataset.column_names == ["prompt", "task", "path"]  # task and path reach the reward functions
    row = dataset[0]
    assert row["task"] == "add_fp16_static" and row["path"] == "device_only"
    assert row["prompt"][0]["role"] == "user" and "## Rules" in row["prompt"][0]["content"]


def test_held_out_tasks_are_refused(tiny_model, capsys):
    from bench_runner.cli import main

    held = next(t.slug for t in tasks.load_suite().tasks
                if splits.split_list(tasks.suite_dir(), [t.slug]).is_eval(t.slug))
    code = main(["train", "grpo", "--config", "tiny-cpu-grpo", "--model_name_or_path", str(tiny_model),
                 "--tasks", held])
    assert code == 2
    assert f"{held} belong to held-out operators" in capsys.readouterr().err
    # one prompt cannot fill a generation batch of two (TRL would stop at step 0, silently)
    code = main(["train", "grpo", "--config", "tiny-cpu-grpo", "--model_name_or_path", str(tiny_model),
                 "--tasks", "add_fp16_static"])
    assert code == 2 and "cannot fill one generation batch of 2 prompts" in capsys.readouterr().err


def test_reward_weights_have_one_source(tiny_model, capsys):
    base = ["--config", "tiny-cpu-grpo", "--model_name_or_path", str(tiny_model), "--check_only", "true"]
    assert grpo.main([*base, "--reward_weights", "1", "1", "1", "1"]) == 2
    assert "set component_weights (by name)" in capsys.readouterr().err
    assert grpo.main([*base, "--component_weights", "passes=0.5"]) == 2
    assert "passes > performance" in capsys.readouterr().err
    assert grpo.main([*base, "--component_weights", "passes=3"]) == 0


@pytest.mark.parametrize("recipe", ["tiny-cpu-grpo", "qwen3-8b-grpo", "qwen3-32b-grpo"])
def test_grpo_recipes_parse(recipe):
    gpu = [] if recipe.startswith("tiny") else ["--bf16", "false"]  # bf16 needs a GPU to parse
    args, train_args, model_args = grpo.parse(["--config", recipe, "--learning_rate", "3e-4", *gpu])
    assert train_args.learning_rate == 3e-4 and model_args.model_name_or_path and train_args.output_dir
    assert train_args.generation_batch_size % train_args.num_generations == 0
    assert args.path in grpo.PATHS
    if recipe.startswith("qwen3"):
        assert train_args.use_vllm and train_args.vllm_mode in ("colocate", "server")
        assert train_args.max_completion_length >= 4096 and train_args.vllm_max_model_length > 8192
    else:
        assert train_args.use_cpu and not train_args.use_vllm


def test_heldout_pass_at_k_is_the_unbiased_estimator_over_tasks():
    from bench_runner.contracts import EvaluationResult
    from trainer import heldout

    assert heldout.pass_at_k(4, 1, 1) == pytest.approx(0.25) and heldout.pass_at_k(4, 1, 2) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        heldout.pass_at_k(1, 0, 2)
    ok = rewards.Outcome(result=EvaluationResult.from_dict({"verdict": "passed", "speedup": 1.0}))
    bad = rewards.Outcome(result=EvaluationResult.from_dict({"verdict": "wrong_answer"}))
    held = heldout.HeldOut(rows=(("a", "device_only", []), ("b", "device_only", [])), k=2, split_version="v")
    figures = heldout.summarize([ok, bad, bad, rewards.Outcome(format_error="no block")], held)
    assert figures["heldout/pass@1"] == pytest.approx(0.25) and figures["heldout/pass@2"] == pytest.approx(0.5)
    assert figures["heldout/compile@1"] == pytest.approx(0.75)  # a: both compiled; b: one of two
    prompts = heldout.heldout_prompts("device_only", 2, 3)
    listed = splits.split_list(tasks.suite_dir(), [t.slug for t in tasks.load_suite().tasks])
    assert len(prompts.rows) == 3 and all(listed.is_eval(slug) for slug, _, _ in prompts.rows)
