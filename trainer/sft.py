"""`akgen train sft --config FILE`: supervised fine-tuning on an Ascend-CoT release with TRL.

Full-parameter or LoRA (``use_peft: true``), single process, ``torchrun`` or ``accelerate
launch`` (DeepSpeed ZeRO-3 for the large recipes; see docs/training.md). Before any model is
loaded the release, the subsets and outside datasets, the records, the model path, the chat
template and every record's token length (nothing may be cut silently) are checked.
"""

from __future__ import annotations

import sys
from typing import Any

from trainer import config as cfg
from trainer import data, lengths, templates
from trainer.errors import TrainerInputError
from trainer.progress import make_training_callback


def say(msg: str) -> None:
    import os

    if os.environ.get("RANK", "0") == "0":
        print(f"[akgen train] {msg}", file=sys.stderr, flush=True)


def eval_on(train_args: Any) -> bool:
    return str(getattr(train_args.eval_strategy, "value", train_args.eval_strategy)) != "no"


def quiet_default_printers(trainer: Any) -> None:
    """Our progress line replaces transformers' tqdm bar and its dict printer."""
    from transformers.trainer_callback import PrinterCallback, ProgressCallback

    trainer.remove_callback(PrinterCallback)
    trainer.remove_callback(ProgressCallback)


def model_init_kwargs(train_args: Any, model_args: Any) -> dict[str, Any]:
    kwargs = {"revision": model_args.model_revision, "trust_remote_code": trust_remote_code(train_args, model_args),
              "attn_implementation": model_args.attn_implementation, "dtype": model_args.dtype}
    kwargs.update(train_args.model_init_kwargs or {})
    return {k: v for k, v in kwargs.items() if v is not None}


def trust_remote_code(train_args: Any, model_args: Any) -> bool:
    return bool(getattr(train_args, "trust_remote_code", False) or getattr(model_args, "trust_remote_code", False))


def load_tokenizer(train_args: Any, model_args: Any) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(model_args.model_name_or_path, revision=model_args.model_revision,
                                         trust_remote_code=trust_remote_code(train_args, model_args))


def prepare_data(release_args: cfg.ReleaseArguments, train_args: Any, *, kind: str) -> dict[str, Any]:
    """Open the release, parse the weights and outside datasets, read, check and mix the records."""
    release = data.open_release(release_args.release, verify_hashes=release_args.verify_hashes)
    extras = data.parse_extra_datasets(release_args.extra_datasets)
    default = dict.fromkeys(data.CONVERSATIONAL, 1.0) if kind == "sft" else {"dpo": 1.0}
    weights = data.parse_weights(release_args.subsets, default=default, others=bool(extras))
    prepared = data.prepare(release, weights, kind=kind, reasoning_key=release_args.reasoning_key,
                            seed=train_args.seed, eval_split=release_args.eval_split if eval_on(train_args) else None,
                            need_eval=eval_on(train_args),
                            max_records_per_subset=release_args.max_records_per_subset, extra=extras)
    return {"release": release, "prepared": prepared}


def check_lengths(report: lengths.LengthReport, release_args: cfg.ReleaseArguments, prepared: data.Prepared) -> None:
    """Print the length summary, stop if records would be cut beyond the tolerance, keep the numbers."""
    say(report.summary_line())
    warning = lengths.enforce(report, max_truncated_fraction=release_args.max_truncated_fraction)
    if warning:
        say(warning)
    prepared.counts["_lengths"] = report.as_dict()


def prepare_sft(release_args: cfg.ReleaseArguments, train_args: Any, model_args: Any) -> dict[str, Any]:
    """Every check that needs no model weights; returns what training needs."""
    cfg.check_model_path(model_args.model_name_or_path)
    ready = prepare_data(release_args, train_args, kind="sft")
    prepared = ready["prepared"]
    tokenizer = load_tokenizer(train_args, model_args)
    original_template = tokenizer.chat_template
    override = templates.load_template_file(train_args.chat_template_path)
    template = templates.training_template(tokenizer, assistant_only_loss=train_args.assistant_only_loss,
                                           override=override)
    checks = templates.check_samples(tokenizer, template, prepared.samples, kind="sft",
                                     reasoning_key=release_args.reasoning_key,
                                     assistant_only_loss=train_args.assistant_only_loss)
    for check in checks:
        say("template check: " + check.line())
    report = lengths.report_sft(tokenizer, template, prepared, train_args, eval_split=release_args.eval_split)
    check_lengths(report, release_args, prepared)
    return {**ready, "tokenizer": tokenizer, "template": template, "lengths": report,
            "original_template": override or original_template, "checks": checks}


def confirm_kept(trainer: Any, ready: dict[str, Any], train_args: Any) -> None:
    """After TRL prepared its datasets: every record the length check let through is still there."""
    if getattr(train_args, "packing", False):
        return  # packed blocks, not records
    prepared, report = ready["prepared"], ready["lengths"]
    cut_allowed = bool(report.over)
    note = lengths.check_kept("training", prepared.counts["_mixed"]["train"], len(trainer.train_dataset),
                              cut_allowed=cut_allowed)
    if prepared.eval is not None and trainer.eval_dataset is not None:
        note = lengths.check_kept("evaluation", len(prepared.eval), len(trainer.eval_dataset),
                                  cut_allowed=cut_allowed) or note
    if note:
        say(note)


def build_sft_trainer(ready: dict[str, Any], train_args: Any, model_args: Any) -> Any:
    """The SFTTrainer on the prepared data (the model is loaded here), checked to have kept every record."""
    from trl import SFTTrainer, get_peft_config

    tokenizer = ready["tokenizer"]
    tokenizer.chat_template = ready["template"]  # has generation markers: TRL uses it as it is
    train_args.chat_template_path = None  # applied above
    train_args.model_init_kwargs = model_init_kwargs(train_args, model_args)
    trainer = SFTTrainer(model=model_args.model_name_or_path, args=train_args,
                         train_dataset=ready["prepared"].train, eval_dataset=ready["prepared"].eval,
                         processing_class=tokenizer, peft_config=get_peft_config(model_args),
                         callbacks=[make_training_callback()])
    tokenizer.chat_template = ready["original_template"]  # the checkpoint keeps the inference template
    confirm_kept(trainer, ready, train_args)
    return trainer


def summary_line(ready: dict[str, Any], unit: str = "training records") -> str:
    """``release V: code_cot 12×1, extra:mine 40×0.5 → 32 training records``."""
    counts = ready["prepared"].counts
    return f"release {ready['release'].version}: " + ", ".join(
        f"{k} {v['train']}" + (f"×{v['weight']:g}" if "weight" in v else "") for k, v in counts.items()
        if not k.startswith("_")) + f" → {counts['_mixed']['train']} {unit}"


def run_sft(release_args: cfg.ReleaseArguments, train_args: Any, model_args: Any) -> dict[str, Any] | None:
    ready = prepare_sft(release_args, train_args, model_args)
    counts = ready["prepared"].counts
    say(summary_line(ready))
    if release_args.check_only:
        say("checks passed (check_only: stopping before the model is loaded)")
        return None

    trainer = build_sft_trainer(ready, train_args, model_args)
    tokenizer = ready["tokenizer"]
    quiet_default_printers(trainer)
    result = trainer.train(resume_from_checkpoint=train_args.resume_from_checkpoint)
    trainer.save_model(train_args.output_dir)
    metrics = dict(result.metrics)
    if ready["prepared"].eval is not None:
        metrics.update(trainer.evaluate())
    if model_args.use_peft and release_args.merge_lora:
        _save_merged(trainer, tokenizer, train_args.output_dir)
    if trainer.is_world_process_zero():
        tokenizer.save_pretrained(train_args.output_dir)
        path = cfg.write_run_files(
            train_args.output_dir, kind="sft", config=cfg.config_dict(release_args, train_args, model_args),
            release=ready["release"].summary(), counts=counts, checks=[c.line() for c in ready["checks"]],
            metrics=metrics, log_history=trainer.state.log_history, extra_datasets=ready["prepared"].extras)
        say(f"saved the model and {path.name} to {train_args.output_dir}")
    _end(trainer)
    return metrics


def _save_merged(trainer: Any, tokenizer: Any, output_dir: str) -> None:
    from pathlib import Path

    if trainer.is_deepspeed_enabled and trainer.accelerator.state.deepspeed_plugin.zero_stage == 3:
        say("LoRA under ZeRO-3: merge the adapter after training (docs/training.md), not saving merged/")
        return
    model = trainer.accelerator.unwrap_model(trainer.model)
    if trainer.is_world_process_zero():
        merged = model.merge_and_unload()
        target = Path(output_dir) / "merged"
        merged.save_pretrained(target)
        tokenizer.save_pretrained(target)
        say(f"merged LoRA model saved to {target}")


def _end(trainer: Any) -> None:
    """Wait for rank 0's files, then finish the trackers and the process group together (a rank
    tearing the group down while another still writes leaves that one hanging at exit)."""
    trainer.accelerator.wait_for_everyone()
    end = getattr(trainer, "end", None)
    if callable(end):
        end()


def main(argv: list[str] | None = None) -> int:
    try:
        release_args, train_args, model_args = cfg.parse("sft", argv)
        run_sft(release_args, train_args, model_args)
    except TrainerInputError as exc:
        print(f"akgen train sft: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
