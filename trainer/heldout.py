"""pass@k on the held-out evaluation tasks while GRPO trains, on a fixed sample budget.

Why: the reward goes up on the training tasks by construction; whether the policy writes better
kernels for operators it never trained on is the question the benchmark asks. Every
``heldout_eval_steps`` steps the current model samples ``heldout_k`` completions for each of the
first ``heldout_max_tasks`` evaluation tasks (bench_runner.splits), the reward's evaluator judges
them, and ``heldout/compile@1``, ``heldout/pass@1`` and ``heldout/pass@k`` (the unbiased
estimator over the k samples, averaged over tasks) go into the log history. The budget is fixed,
so the figures of two steps are comparable. Nothing of these tasks is ever trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

from trainer.rewards import BatchEvaluator, Outcome


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k of n samples with c correct: 1 - C(n-c, k) / C(n, k)."""
    if n < k:
        raise ValueError(f"pass@{k} needs at least {k} samples, got {n}")
    return 1.0 - comb(n - c, k) / comb(n, k)


@dataclass(frozen=True)
class HeldOut:
    """The evaluation prompts: (task, path, prompt messages)."""

    rows: tuple[tuple[str, str, list[dict[str, str]]], ...]
    k: int
    split_version: str


def heldout_prompts(path: str, k: int, max_tasks: int | None) -> HeldOut:
    """The first ``max_tasks`` held-out tasks offering ``path`` (suite order), with their prompts."""
    from bench_runner import prompt, splits, tasks

    suite = tasks.load_suite().tasks
    listed = splits.split_list(tasks.suite_dir(), [t.slug for t in suite])
    chosen = [t for t in suite if listed.is_eval(t.slug) and path in t.paths][:max_tasks]
    rows = tuple((t.slug, path, [{"role": "user", "content": prompt.build_prompt(t, path)}]) for t in chosen)
    return HeldOut(rows=rows, k=k, split_version=listed.version)


def summarize(outcomes: list[Outcome], heldout: HeldOut) -> dict[str, float]:
    """compile@1, pass@1 and pass@k over the tasks (outcomes in row order, k per row)."""
    k, at1, atk, comp = heldout.k, [], [], []
    for i in range(len(heldout.rows)):
        mine = outcomes[i * k:(i + 1) * k]
        passed = sum(bool(o.result and o.result.passed) for o in mine)
        compiled = sum(bool(o.result and o.result.compiled) for o in mine)
        at1.append(pass_at_k(k, passed, 1))
        atk.append(pass_at_k(k, passed, k))
        comp.append(pass_at_k(k, compiled, 1))
    n = max(len(heldout.rows), 1)
    return {"heldout/compile@1": sum(comp) / n, "heldout/pass@1": sum(at1) / n, f"heldout/pass@{k}": sum(atk) / n,
            "heldout/tasks": float(len(heldout.rows)), "heldout/completions": float(len(outcomes))}


def sample(model: Any, tokenizer: Any, heldout: HeldOut, *, max_new_tokens: int,
           temperature: float = 1.0) -> list[str]:
    """k completions per held-out prompt from the current model (sampling, no gradients)."""
    import torch

    texts: list[str] = []
    was_training = model.training
    model.eval()
    try:
        for _, _, messages in heldout.rows:
            enc = tokenizer.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt",
                                                return_dict=True).to(model.device)
            with torch.no_grad():
                out = model.generate(**enc, do_sample=True, temperature=temperature, max_new_tokens=max_new_tokens,
                                     num_return_sequences=heldout.k, pad_token_id=tokenizer.pad_token_id)
            start = enc["input_ids"].shape[1]
            texts += tokenizer.batch_decode(out[:, start:], skip_special_tokens=True)
    finally:
        model.train(was_training)
    return texts


def heldout_callback(evaluator: BatchEvaluator, heldout: HeldOut, *, every: int, max_new_tokens: int,
                     temperature: float, report: Any = None) -> Any:
    """A ``TrainerCallback`` that measures the held-out pass@k every ``every`` steps and at the end."""
    from transformers import TrainerCallback

    class HeldOutEval(TrainerCallback):
        def __init__(self) -> None:
            self.done_at: set[int] = set()

        def _measure(self, state: Any, model: Any, tokenizer: Any) -> None:
            if state.global_step in self.done_at or not heldout.rows or not state.is_world_process_zero:
                return
            self.done_at.add(state.global_step)
            texts = sample(model, tokenizer, heldout, max_new_tokens=max_new_tokens, temperature=temperature)
            tasks = [slug for slug, _, _ in heldout.rows for _ in range(heldout.k)]
            paths = [path for _, path, _ in heldout.rows for _ in range(heldout.k)]
            figures = summarize(evaluator.score(texts, tasks, paths), heldout)
            state.log_history.append({"step": state.global_step, **figures})
            if report is not None:
                report(f"step {state.global_step} held-out ({len(heldout.rows)} tasks × k={heldout.k}, split "
                       f"{heldout.split_version}): " + ", ".join(f"{k.split('/')[1]} {v:.3g}" for k, v in
                                                               figures.items() if "@" in k))

        def on_step_end(self, args, state, control, model=None, processing_class=None, **kwargs):
            if every > 0 and state.global_step % every == 0:
                self._measure(state, model, processing_class or kwargs.get("tokenizer"))

        def on_train_end(self, args, state, control, model=None, processing_class=None, **kwargs):
            if every > 0:
                self._measure(state, model, processing_class or kwargs.get("tokenizer"))

    return HeldOutEval()
