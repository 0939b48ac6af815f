"""The recipe dataclasses (parsed by TRL's ``TrlParser``: a YAML file via ``--config``, every
field overridable on the command line) and what is saved beside a checkpoint."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trainer.errors import TrainerInputError

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = Path(__file__).resolve().parent / "configs"


@dataclass
class ReleaseArguments:
    """What to train on (the rest of a recipe is TRL's SFTConfig/DPOConfig and ModelConfig)."""

    release: str | None = field(default=None, metadata={"help": "Ascend-CoT release folder (has manifest.json)."})
    subsets: dict[str, float] | str | None = field(
        default=None,
        metadata={"help": "Subsets and mixing weights: YAML mapping, JSON, or 'code_cot=1,doc_qa=0.5'. A weight "
                          "of 1 takes every record once, 0.5 a random half, 2 every record twice. Default: "
                          "every conversational subset (sft) or dpo (dpo) at weight 1."})
    extra_datasets: list[dict[str, Any]] | str | None = field(
        default=None,
        metadata={"help": "Outside datasets mixed into the training split (never into evaluation): a YAML list "
                          "of {path, weight, split, name}, or JSON text. path: a .jsonl/.json/.parquet file, a "
                          "folder of them, or a folder written by datasets' save_to_disk; weight as in subsets "
                          "(default 1); split: for folders (default train); name: its key extra:NAME in the "
                          "counts (default the file name). Records in the TRL format of the kind trained."})
    eval_split: str | None = field(default="validation", metadata={"help": "Split used when eval_strategy is on."})
    reasoning_key: str = field(
        default="reasoning_content",
        metadata={"help": "The assistant-message key the chat template reads reasoning from (Qwen3, DeepSeek, "
                          "GLM: reasoning_content; gpt-oss: thinking). The release's `reasoning` maps to it."})
    max_records_per_subset: int | None = field(default=None, metadata={"help": "Cap per subset (smoke runs)."})
    max_truncated_fraction: float = field(
        default=0.0,
        metadata={"help": "The share of records (0 to 1) that may be longer than max_length and be cut by TRL "
                          "(truncated, or dropped when no loss token survives). Default 0: training stops if "
                          "any record would be cut, saying which and by how much."})
    merge_lora: bool = field(default=True, metadata={"help": "After LoRA SFT, also save the merged model under "
                                                               "OUTPUT_DIR/merged (what DPO starts from)."})
    ref_model_name_or_path: str | None = field(
        default=None, metadata={"help": "DPO: the reference model (default: the starting model itself, reloaded; "
                                        "none with precompute_ref_log_probs or LoRA)."})
    check_only: bool = field(default=False, metadata={"help": "Check the release, model path and chat template, "
                                                              "then stop before loading the model."})
    verify_hashes: bool = field(default=True, metadata={"help": "Check files against manifest.json's sha256."})


def parse(kind: str, argv: list[str] | None) -> tuple[ReleaseArguments, Any, Any]:
    """(release args, SFTConfig or DPOConfig, ModelConfig) from ``--config FILE`` and flags."""
    from trl import DPOConfig, ModelConfig, SFTConfig, TrlParser

    training = SFTConfig if kind == "sft" else DPOConfig
    parser = TrlParser((ReleaseArguments, training, ModelConfig), prog=f"akgen train {kind}")
    argv = list(sys.argv[1:] if argv is None else argv)
    _check_config_file(argv)
    release_args, train_args, model_args = parser.parse_args_and_config(args=argv)
    return release_args, train_args, model_args


def _check_config_file(argv: list[str]) -> None:
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--config" and i + 1 < len(argv) else (
            arg.split("=", 1)[1] if arg.startswith("--config=") else None)
        if value is not None and not Path(value).is_file():
            builtin = CONFIGS / f"{value}.yaml"
            if builtin.is_file():
                argv[i + 1 if arg == "--config" else i] = (str(builtin) if arg == "--config"
                                                           else f"--config={builtin}")
            else:
                shipped = ", ".join(sorted(p.stem for p in CONFIGS.glob("*.yaml")))
                raise TrainerInputError(f"config file {value} does not exist (shipped recipes: {shipped})")


def check_model_path(name: str | None, what: str = "model_name_or_path") -> None:
    """A local path must exist and hold a model; a hub id (``org/name``) is left to the loader."""
    if not name:
        raise TrainerInputError(f"no {what}: set it in the config or pass --{what}")
    path = Path(name).expanduser()
    if path.exists():
        if not path.is_dir() or not (path / "config.json").is_file():
            hint = (" (it is a LoRA adapter: start from its merged/ folder)"
                    if (path / "adapter_config.json").is_file() else "")
            raise TrainerInputError(f"{what} {name} is not a model folder: no config.json{hint}")
        return
    if (name.startswith(("/", "./", "../", "~", ".")) or name.count("/") >= 2
            or Path(name.split("/")[0]).is_dir()):  # runs/x where runs/ is a local folder
        raise TrainerInputError(f"{what} {name} does not exist")
    if os.environ.get("HF_HUB_OFFLINE", "") in ("1", "true", "yes"):
        from huggingface_hub import try_to_load_from_cache

        if not isinstance(try_to_load_from_cache(name, "config.json"), str):
            raise TrainerInputError(f"{what} {name} is neither a local folder nor in the hub cache "
                                    "(HF_HUB_OFFLINE is set)")


def git_revision() -> dict[str, Any]:
    def run(*args: str) -> str | None:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10,
                                  check=True).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return None

    revision = run("rev-parse", "HEAD")
    status = run("status", "--porcelain", "--untracked-files=no", "--", "trainer", "bench_runner")
    return {"revision": revision, "dirty": bool(status) if status is not None else None}


def config_dict(*parts: Any) -> dict[str, Any]:
    """The flat field→value mapping of the parsed dataclasses: a YAML that reproduces the run."""
    out: dict[str, Any] = {}
    for part in parts:
        values = part.to_dict() if hasattr(part, "to_dict") else dataclasses.asdict(part)
        for f in dataclasses.fields(part):
            if f.init and f.name in values:
                out[f.name] = _plain(values[f.name])
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(getattr(value, "value", value))


def write_run_files(output_dir: str | Path, *, kind: str, config: dict[str, Any], release: dict[str, Any],
                    counts: dict[str, Any], checks: list[str], metrics: dict[str, Any],
                    log_history: list[dict[str, Any]], extra_datasets: list[dict[str, Any]] | None = None) -> Path:
    """``akgen_config.yaml`` (re-runnable with --config) and ``akgen_run.json`` (config, release
    version, the outside datasets mixed in with their sha256, git revision, data counts and token
    lengths, template checks, metrics and the loss history)."""
    import yaml

    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "akgen_config.yaml").write_text(
        f"# akgen train {kind}: the exact configuration of this run (release {release.get('version')})\n"
        + yaml.safe_dump(config, sort_keys=True), encoding="utf-8")
    body = {"kind": kind, "release": release, "extra_datasets": extra_datasets or [], "git": git_revision(),
            "data": counts, "template_checks": checks,
            "metrics": metrics, "log_history": log_history, "config": config}
    path = out / "akgen_run.json"
    path.write_text(json.dumps(body, indent=2, default=str) + "\n", encoding="utf-8")
    return path
