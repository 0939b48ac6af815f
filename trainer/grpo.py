"""`akgen train grpo --config FILE`: online RL with TRL's GRPOTrainer, the evaluator as the reward.

The prompts are the bundled task suite's (``bench_runner.prompt.build_prompt``), restricted to
the **training split** (``bench_runner.splits``: held-out operators are refused, even when named);
every row carries its ``task`` and ``path`` so the reward functions know what to evaluate. Every
sampled completion is parsed, compiled, run, verified and timed on cpu-sim
(``trainer/rewards.py``: format, compiles, passes and a bounded performance term, each logged as
``rewards/<name>/mean``). An evaluator failure stops training (exit status 3) instead of
becoming a zero reward. The checkpoint is saved like SFT/DPO's, with ``akgen_config.yaml`` and
``akgen_run.json`` (log history, the tasks, the reward definition and the evaluator's counts).
docs/grpo.md has the recipes and how to run on GPU hosts with vLLM generation.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from bench_runner import platform_access
from trainer import config as cfg
from trainer import heldout, rewards
from trainer.errors import TrainerInputError
from trainer.progress import make_training_callback
from trainer.sft import _end, load_tokenizer, model_init_kwargs, quiet_default_printers, say

#: ``path`` values of a recipe and the evaluation paths each one trains on.
PATHS: dict[str, tuple[str, ...]] = {"device_only": ("device_only",), "host_device": ("host_device",),
                                     "all": ("device_only", "host_device")}
#: Exit statuses of ``main`` (the CLI's: 2 bad input, 3 the evaluator cannot run).
EXIT_INPUT = 2
EXIT_INFRA = 3


@dataclass
class GRPOArguments:
    """What to train on and how rewards are computed (the rest of a recipe is TRL's GRPOConfig
    and ModelConfig)."""

    tasks: str | None = field(
        default=None,
        metadata={"help": "Comma-separated task slugs (default: every task of the training split). A task of a "
                          "held-out operator is refused: GRPO trains on the training split only."})
    path: str = field(default="device_only",
                      metadata={"help": "Evaluation path of the prompts: device_only, host_device, or all (both, "
                                        "where a task offers them)."})
    max_tasks: int | None = field(default=None, metadata={"help": "Keep the first N selected tasks (suite order)."})
    reward_pool_size: int | None = field(
        default=None, metadata={"help": "Evaluator processes per training process (default: min(CPU count, "
                                        "distinct completions of a batch))."})
    component_weights: dict[str, float] | str | None = field(
        default=None,
        metadata={"help": "Override reward component weights: YAML mapping or 'passes=2,performance=1' "
                          f"(components {', '.join(rewards.COMPONENTS)}; defaults in trainer/rewards.py WEIGHTS). "
                          "TRL's reward_weights is set from them."})
    toolchain: str = field(default="cpu-sim", metadata={"help": "The evaluator's toolchain (cpu-sim or cann)."})
    reward_cache_dir: str | None = field(
        default=None, metadata={"help": "bench_runner's cache folder (default AKGEN_CACHE_DIR or ~/.cache/akgen)."})
    reward_use_cache: bool = field(default=True, metadata={"help": "Answer repeated submissions from bench_runner's "
                                                                   "result cache."})
    reward_timeout_s: float | None = field(
        default=None, metadata={"help": "Stop training if one batch's evaluation takes longer (seconds)."})
    reward_backend: str = field(
        default="local", metadata={"help": "Where rollouts are judged: local (a process pool on this host) or "
                                           "platform (the batch API and the platform's workers; trainer/"
                                           "platform_rewards.py; key in AKGEN_TOKEN)."})
    reward_api_url: str = field(default="http://127.0.0.1:8000",
                                metadata={"help": "The platform for reward_backend: platform."})
    heldout_eval_steps: int = field(
        default=0, metadata={"help": "Every N steps (and at the end) sample heldout_k completions for each of the "
                                     "first heldout_max_tasks held-out evaluation tasks and log heldout/pass@k "
                                     "(trainer/heldout.py); 0: off."})
    heldout_k: int = field(default=4, metadata={"help": "Samples per held-out task (the pass@k budget)."})
    heldout_max_tasks: int | None = field(default=8, metadata={"help": "Held-out tasks measured (suite order)."})
    heldout_max_new_tokens: int = field(default=1024, metadata={"help": "Tokens per held-out sample."})
    final_run_api_url: str | None = field(
        default=None, metadata={"help": "After training, register the model on this platform and sample the "
                                        "evaluation tasks into a new run (heldout_k per task, trainer/final_run.py; "
                                        "key in AKGEN_TOKEN), so it lands on the leaderboard."})
    final_run_model: str | None = field(default=None, metadata={"help": "The model's name there (default: the "
                                                                         "output folder's name)."})
    check_only: bool = field(default=False, metadata={"help": "Select the tasks, build the prompts and check the "
                                                              "model path and weights, then stop."})


def parse(argv: list[str] | None) -> tuple[GRPOArguments, Any, Any]:
    """(GRPO args, TRL GRPOConfig, TRL ModelConfig) from ``--config FILE|RECIPE`` and flags."""
    from trl import GRPOConfig, ModelConfig, TrlParser

    parser = TrlParser((GRPOArguments, GRPOConfig, ModelConfig), prog="akgen train grpo")
    argv = list(sys.argv[1:] if argv is None else argv)
    cfg._check_config_file(argv)  # a shipped recipe's name → its file, or a clear error
    return parser.parse_args_and_config(args=argv)


# --- the prompts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """The training tasks, the (task, path) rows made of them and the split that chose them."""

    rows: tuple[tuple[str, str], ...]
    split_version: str
    split_source: str
    train_tasks: int
    held_out_tasks: int

    def summary(self) -> dict[str, Any]:
        return {"kind": "task_suite", "version": f"split {self.split_version}", "split_source": self.split_source,
                "train_tasks": self.train_tasks, "held_out_tasks": self.held_out_tasks,
                "tasks": sorted({slug for slug, _ in self.rows}), "rows": len(self.rows)}


def select_tasks(args: GRPOArguments) -> Selection:
    """The (task, path) rows to train on: the training split, filtered by ``tasks``, ``path``
    and ``max_tasks``. Raises TrainerInputError naming unknown or held-out tasks."""
    from bench_runner import splits, tasks

    if args.path not in PATHS:
        raise TrainerInputError(f"path: expected one of {', '.join(PATHS)}, got {args.path!r}")
    suite = tasks.load_suite()
    if suite.errors:
        raise TrainerInputError(f"the task suite has {len(suite.errors)} malformed task(s), first: {suite.errors[0]} "
                                "(run `akgen suite validate`)")
    by_slug = {t.slug: t for t in suite.tasks}
    split = splits.split_list(tasks.suite_dir(), list(by_slug))
    train = splits.select(list(by_slug), "train", split)
    chosen = _requested(args.tasks, by_slug, split) if args.tasks else train
    if args.max_tasks is not None:
        if args.max_tasks < 1:
            raise TrainerInputError(f"max_tasks must be at least 1, got {args.max_tasks}")
        chosen = chosen[:args.max_tasks]
    rows = tuple((slug, p) for slug in chosen for p in PATHS[args.path] if p in by_slug[slug].paths)
    if not rows:
        raise TrainerInputError(f"no training task offers the {args.path} path among {', '.join(chosen) or 'none'}")
    return Selection(rows=rows, split_version=split.version, split_source=split.source, train_tasks=len(train),
                     held_out_tasks=len(by_slug) - len(train))


def _requested(text: str, by_slug: dict[str, Any], split: Any) -> list[str]:
    names = list(dict.fromkeys(s.strip() for s in text.split(",") if s.strip()))
    unknown = [s for s in names if s not in by_slug]
    if unknown:
        raise TrainerInputError(f"tasks: unknown task(s) {', '.join(unknown)} (`akgen suite list` lists them)")
    held = [s for s in names if split.is_eval(s)]
    if held:
        raise TrainerInputError(
            f"tasks: {', '.join(held)} belong to held-out operators (evaluation split {split.version}, "
            f"{split.source}); GRPO trains on the training split only")
    return names


def build_dataset(selection: Selection) -> Any:
    """A ``datasets.Dataset`` of conversational prompts with ``task`` and ``path`` columns (TRL
    hands extra columns to the reward functions as keyword arguments)."""
    from datasets import Dataset

    from bench_runner import prompt, tasks

    return Dataset.from_list([
        {"prompt": [{"role": "user", "content": prompt.build_prompt(tasks.get_task(slug), path)}],
         "task": slug, "path": path}
        for slug, path in selection.rows])


def prompt_lengths(tokenizer: Any, dataset: Any) -> dict[str, int]:
    """Prompt token counts as the chat template renders them (GRPO does not truncate prompts: a
    vLLM ``vllm_max_model_length`` must hold the longest plus ``max_completion_length``)."""
    texts = [tokenizer.apply_chat_template(row["prompt"], tokenize=False, add_generation_prompt=True)
             for row in dataset]
    counts = [len(ids) for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]]
    return {"max": max(counts), "mean": round(sum(counts) / len(counts))}


def check_batch_fits(selection: Selection, train_args: Any) -> None:
    """One generation batch takes generation_batch_size / num_generations distinct prompts, and
    TRL drops an incomplete batch: with fewer prompts, training would stop at step 0."""
    per_batch = train_args.generation_batch_size // train_args.num_generations
    if len(selection.rows) < per_batch:
        raise TrainerInputError(
            f"{len(selection.rows)} prompt(s) cannot fill one generation batch of {per_batch} prompts "
            f"(generation_batch_size {train_args.generation_batch_size} / num_generations "
            f"{train_args.num_generations}): select more tasks or lower per_device_train_batch_size")


# --- the run -----------------------------------------------------------------------------------


def make_evaluator(args: GRPOArguments, train_args: Any) -> rewards.BatchEvaluator:
    """The batch evaluator, with TRL's ``reward_weights`` set from the component weights (a
    recipe that sets reward_weights to anything else is refused: one place for the weights)."""
    try:
        weights = rewards.parse_weights(args.component_weights)
        common = {"weights": weights, "timeout_s": args.reward_timeout_s}
        if args.reward_backend == "platform":
            from trainer.platform_rewards import PlatformBatchEvaluator

            evaluator = PlatformBatchEvaluator(api_url=args.reward_api_url, token=platform_access.platform_token(),
                                               **common)
        elif args.reward_backend == "local":
            evaluator = rewards.BatchEvaluator(
                options=rewards.EvalOptions(toolchain=args.toolchain, cache_dir=args.reward_cache_dir,
                                            use_cache=args.reward_use_cache),
                pool_size=args.reward_pool_size, **common)
        else:
            raise TrainerInputError(f"reward_backend must be local or platform, not {args.reward_backend!r}")
    except rewards.RewardError as exc:
        raise TrainerInputError(str(exc)) from None
    wanted = evaluator.reward_weights()
    if train_args.reward_weights is not None and [float(w) for w in train_args.reward_weights] != wanted:
        raise TrainerInputError(f"reward_weights {train_args.reward_weights} disagree with the component weights "
                                f"{dict(weights)}: set component_weights (by name) and leave reward_weights unset")
    train_args.reward_weights = wanted
    return evaluator


def reward_callback() -> Any:
    """A ``TrainerCallback`` printing each logging step's reward components (main process)."""
    from transformers import TrainerCallback

    class RewardLine(TrainerCallback):
        def on_log(self, args, state, control, logs=None, **kwargs):
            if not state.is_world_process_zero or not logs or "reward" not in logs:
                return
            parts = [f"{name} {logs[f'rewards/{name}/mean']:.3g}" for name in rewards.COMPONENTS
                     if f"rewards/{name}/mean" in logs]
            evaluated = logs.get("evaluator/evaluations")
            say(f"step {state.global_step} reward {logs['reward']:.3g} (" + ", ".join(parts) + ")"
                + (f", {evaluated:g} evaluations/batch" if evaluated is not None else ""))

    return RewardLine()


def run_grpo(args: GRPOArguments, train_args: Any, model_args: Any,
             rollout_func: Any = None) -> dict[str, Any] | None:
    """Check, train, save; returns the final metrics (None with check_only).

    ``rollout_func`` is TRL's (experimental) hook that replaces generation — a scripted
    policy in tests, or another inference backend; None samples from the model (or vLLM).
    """
    cfg.check_model_path(model_args.model_name_or_path)
    selection = select_tasks(args)
    check_batch_fits(selection, train_args)
    dataset = build_dataset(selection)
    tokenizer = load_tokenizer(train_args, model_args)
    lengths = prompt_lengths(tokenizer, dataset)
    evaluator = make_evaluator(args, train_args)
    say(f"{len(selection.rows)} prompts from {len(selection.summary()['tasks'])} training tasks (split "
        f"{selection.split_version}: {selection.held_out_tasks} held-out tasks excluded); prompt tokens max "
        f"{lengths['max']}, mean {lengths['mean']}; reward weights {dict(evaluator.weights)}")
    if args.check_only:
        say("checks passed (check_only: stopping before the model is loaded)")
        return None
    try:
        extra = []
        if args.heldout_eval_steps > 0:
            if args.heldout_k < 1:
                raise TrainerInputError(f"heldout_k must be at least 1, got {args.heldout_k}")
            paths = PATHS[args.path]
            held = heldout.heldout_prompts(paths[0], args.heldout_k, args.heldout_max_tasks)
            say(f"held-out pass@{held.k}: {len(held.rows)} evaluation tasks every {args.heldout_eval_steps} steps")
            extra.append(heldout.heldout_callback(evaluator, held, every=args.heldout_eval_steps,
                                                  max_new_tokens=args.heldout_max_new_tokens,
                                                  temperature=train_args.temperature, report=say))
        trainer = build_trainer(evaluator, dataset, tokenizer, train_args, model_args, rollout_func=rollout_func,
                                callbacks=extra)
        result = trainer.train(resume_from_checkpoint=train_args.resume_from_checkpoint)
    finally:
        evaluator.close()
    trainer.save_model(train_args.output_dir)
    metrics = dict(result.metrics, **{f"evaluator/{k}": v for k, v in evaluator.totals.as_dict().items()})
    if trainer.is_world_process_zero():
        tokenizer.save_pretrained(train_args.output_dir)
        counts = {"rows": len(selection.rows), "prompt_tokens": lengths,
                  "rewards": {"components": list(rewards.COMPONENTS), "weights": dict(evaluator.weights),
                              "performance": f"clip(log{rewards.PERF_LOG_BASE:g}(speedup), -{rewards.PERF_CLIP:g}, "
                                             f"{rewards.PERF_CLIP:g}) if passed and vouched, else 0",
                              "evaluator": evaluator.totals.as_dict()}}
        path = cfg.write_run_files(
            train_args.output_dir, kind="grpo", config=cfg.config_dict(args, train_args, model_args),
            release=selection.summary(), counts=counts,
            checks=[f"training split only: {selection.train_tasks} tasks of split {selection.split_version}"],
            metrics=metrics, log_history=trainer.state.log_history)
        say(f"saved the model and {path.name} to {train_args.output_dir}")
        if args.final_run_api_url:
            metrics["final_run"] = _final_run(args, train_args, model_args)
            body = json.loads(path.read_text(encoding="utf-8"))
            body["final_run"] = metrics["final_run"]
            path.write_text(json.dumps(body, indent=2, default=str) + "\n", encoding="utf-8")
    _end(trainer)
    return metrics


def _final_run(args: GRPOArguments, train_args: Any, model_args: Any) -> dict[str, Any]:
    from trainer.final_run import submit_final_run
    from trainer.generate import GenerateError

    try:
        summary = submit_final_run(
            train_args.output_dir, api_url=args.final_run_api_url, token=platform_access.platform_token(),
            k=args.heldout_k, path=PATHS[args.path][0],
            model_name=args.final_run_model or os.path.basename(os.path.normpath(train_args.output_dir)),
            base_model=str(model_args.model_name_or_path), max_new_tokens=args.heldout_max_new_tokens,
            temperature=train_args.temperature)
    except GenerateError as exc:
        raise rewards.RewardInfrastructureError(f"the final run could not be submitted: {exc}") from exc
    progress = summary.get("progress") or {}
    say(f"final run {summary['run']} on the platform: {summary['tasks']} evaluation tasks x k={args.heldout_k}, "
        f"scored on {progress.get('scored_on')}, pass@1 {progress.get('pass_at_1')}")
    return {"run": summary["run"], "tasks": summary["tasks"], "scored_on": progress.get("scored_on"),
            "pass_at_1": progress.get("pass_at_1"), "pass_at_k": progress.get("pass_at_k")}


def build_trainer(evaluator: rewards.BatchEvaluator, dataset: Any, tokenizer: Any, train_args: Any,
                  model_args: Any, rollout_func: Any = None, callbacks: list[Any] | None = None) -> Any:
    """TRL's GRPOTrainer with one reward function per component (the model is loaded here)."""
    from trl import GRPOTrainer, get_peft_config

    train_args.model_init_kwargs = model_init_kwargs(train_args, model_args)
    trainer = GRPOTrainer(model=model_args.model_name_or_path, reward_funcs=evaluator.reward_funcs(),
                          args=train_args, train_dataset=dataset, processing_class=tokenizer,
                          peft_config=get_peft_config(model_args), rollout_func=rollout_func,
                          callbacks=[make_training_callback(), reward_callback(), *(callbacks or [])])
    quiet_default_printers(trainer)
    return trainer


def main(argv: list[str] | None = None) -> int:
    try:
        args, train_args, model_args = parse(argv)
        run_grpo(args, train_args, model_args)
    except TrainerInputError as exc:
        print(f"akgen train grpo: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except rewards.RewardInputError as exc:
        print(f"akgen train grpo: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except rewards.RewardInfrastructureError as exc:
        print(f"akgen train grpo: stopped: {exc}", file=sys.stderr)
        return EXIT_INFRA
    return 0


if __name__ == "__main__":
    sys.exit(main())
