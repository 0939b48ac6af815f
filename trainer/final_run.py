"""After RL: the trained model as a platform run on the held-out evaluation tasks.

Why: a GRPO run's own logs are its word; the leaderboard is the judge's. With
``final_run_api_url`` set, ``akgen train grpo`` ends by registering the checkpoint as a model
(stage SFT+RL), creating a run of k samples per task, and running ``akgen generate --tasks eval
--submit --wait`` on it (the transformers backend, in this process), so the model lands on the
leaderboard like any other — scored on the benchmark's evaluation tasks only.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path
from typing import Any

from bench_runner import platform_access
from trainer import generate as gen


def _model_id(platform: gen.Platform, name: str, base_model: str) -> int:
    try:
        return platform.request("POST", "models/", {"name": name, "base_model": base_model,
                                                    "training_stage": "sft_rl"})["id"]
    except gen.GenerateError as exc:
        if "409" not in str(exc):
            raise
        mine = [m for m in platform.paged("models/") if m["name"] == name]
        if not mine:
            raise gen.GenerateError(f"the model name {name!r} is taken by another account: set final_run_model") from None
        return mine[0]["id"]


def submit_final_run(model_dir: str | Path, *, api_url: str, token: str | None, k: int, path: str,
                     model_name: str, base_model: str = "", max_new_tokens: int = 1024,
                     temperature: float = 1.0, wait_timeout: float = 3600.0) -> dict[str, Any]:
    """Register ``model_dir`` and sample the evaluation tasks into a new run; returns generate's
    summary (run id, tasks, submitted, progress with ``scored_on``)."""
    if not token:
        raise gen.GenerateError(f"final_run_api_url needs an API key with the read and submit scopes "
                                f"(${platform_access.TOKEN_ENV})")
    platform = gen.Platform(api_url, token)
    model = _model_id(platform, model_name, base_model)
    run = platform.request("POST", "runs/", {"model": model, "name": f"grpo final k{k}", "samples_per_task": k,
                                             "decoding": {"temperature": temperature}, "path": path})
    parser = argparse.ArgumentParser()
    gen.add_arguments(parser)
    args = parser.parse_args(["--run", str(run["id"]), "--model", str(model_dir), "--backend", "transformers",
                              "--k", str(k), "--tasks", "eval", "--url", api_url, "--submit", "--wait",
                              "--max-tokens", str(max_new_tokens), "--temperature", str(temperature),
                              "--out", str(Path(model_dir) / "final-run"), "--quiet"])
    args.token = token
    args.wait_timeout = wait_timeout
    return gen.generate(args, out=io.StringIO())
