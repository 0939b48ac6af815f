"""Terminal progress for training (steps, loss, tokens/s, ETA) and for generation."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


def fmt_duration(seconds: float | None) -> str:
    if seconds is None or seconds != seconds or seconds < 0:
        return "?"
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def make_training_callback(out: TextIO | None = None) -> Any:
    """A ``transformers.TrainerCallback`` printing one line per log event on the main process."""
    from transformers import TrainerCallback

    class TerminalProgress(TrainerCallback):
        def __init__(self) -> None:
            self.out = out or sys.stderr
            self.started = 0.0
            self.first_step = 0
            self.tokens0 = 0

        def on_train_begin(self, args, state, control, **kwargs):
            self.started = time.monotonic()
            self.first_step = state.global_step
            self.tokens0 = state.num_input_tokens_seen or 0
            if state.is_world_process_zero:
                print(f"[akgen train] {state.max_steps} steps, {args.world_size} process(es), "
                      f"output {args.output_dir}", file=self.out, flush=True)

        def on_log(self, args, state, control, logs=None, **kwargs):
            if not state.is_world_process_zero or not logs or "train_loss" in logs:
                return  # the end-of-training summary is printed by on_train_end
            elapsed = max(time.monotonic() - self.started, 1e-9)
            done = state.global_step - self.first_step
            left = state.max_steps - state.global_step
            eta = elapsed / done * left if done else None
            tokens = (state.num_input_tokens_seen or 0) - self.tokens0
            parts = [f"step {state.global_step}/{state.max_steps}"]
            for key in ("loss", "eval_loss", "rewards/accuracies", "learning_rate"):
                if key in logs:
                    value = logs[key]
                    parts.append(f"{key.split('/')[-1]} {value:.4g}" if isinstance(value, float) else f"{key} {value}")
            if tokens:
                parts.append(f"{tokens / elapsed:,.0f} tokens/s")
            parts.append(f"elapsed {fmt_duration(elapsed)}")
            parts.append(f"ETA {fmt_duration(eta)}")
            print("[akgen train] " + "  ".join(parts), file=self.out, flush=True)

        def on_train_end(self, args, state, control, **kwargs):
            if state.is_world_process_zero:
                print(f"[akgen train] done: {state.global_step} steps in "
                      f"{fmt_duration(time.monotonic() - self.started)}", file=self.out, flush=True)

    return TerminalProgress()


class Counter:
    """A one-line progress counter for generation: ``label done/total … ETA``."""

    def __init__(self, label: str, total: int, out: TextIO | None = None, quiet: bool = False) -> None:
        self.label, self.total, self.done = label, total, 0
        self.out = out or sys.stderr
        self.quiet = quiet
        self.started = time.monotonic()

    def step(self, n: int = 1, note: str = "") -> None:
        self.done += n
        if self.quiet:
            return
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done) if self.done else None
        print(f"[akgen generate] {self.label} {self.done}/{self.total}  elapsed {fmt_duration(elapsed)}  "
              f"ETA {fmt_duration(eta)}" + (f"  {note}" if note else ""), file=self.out, flush=True)
