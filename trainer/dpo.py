"""`akgen train dpo --config FILE`: direct preference optimisation on a release's ``dpo`` subset.

It starts from the SFT output (``model_name_or_path``; after LoRA SFT, its ``merged/`` folder).
The reference model is, in order: ``ref_model_name_or_path`` when given; none with
``precompute_ref_log_probs: true`` (log-probs computed once before training, no second model
kept) or with LoRA (the adapter disabled is the reference); else the starting model reloaded
from its path.
"""

from __future__ import annotations

import sys
from typing import Any

from trainer import config as cfg
from trainer import lengths, templates
from trainer.errors import TrainerInputError
from trainer.progress import make_training_callback
from trainer.sft import (
    _end,
    check_lengths,
    confirm_kept,
    load_tokenizer,
    model_init_kwargs,
    prepare_data,
    quiet_default_printers,
    say,
    summary_line,
)


def prepare_dpo(release_args: cfg.ReleaseArguments, train_args: Any, model_args: Any) -> dict[str, Any]:
    """Every check that needs no model weights, the length of every pair included."""
    cfg.check_model_path(model_args.model_name_or_path)
    if release_args.ref_model_name_or_path:
        cfg.check_model_path(release_args.ref_model_name_or_path, "ref_model_name_or_path")
    ready = prepare_data(release_args, train_args, kind="dpo")
    prepared = ready["prepared"]
    tokenizer = load_tokenizer(train_args, model_args)
    override = templates.load_template_file(getattr(train_args, "chat_template_path", None))
    template = templates.training_template(tokenizer, assistant_only_loss=False, override=override)
    checks = templates.check_samples(tokenizer, template, prepared.samples, kind="dpo",
                                     reasoning_key=release_args.reasoning_key)
    for check in checks:
        say("template check: " + check.line())
    if override:
        tokenizer.chat_template = override  # DPOTrainer renders with the tokenizer's own template
    report = lengths.report_dpo(tokenizer, prepared, train_args, eval_split=release_args.eval_split)
    check_lengths(report, release_args, prepared)
    return {**ready, "tokenizer": tokenizer, "checks": checks, "lengths": report}


def reference_kind(release_args: cfg.ReleaseArguments, train_args: Any, model_args: Any) -> str:
    if release_args.ref_model_name_or_path:
        return f"model {release_args.ref_model_name_or_path}"
    if model_args.use_peft:
        return "the starting model (LoRA adapter disabled)"
    if train_args.precompute_ref_log_probs:
        return "precomputed log-probs of the starting model"
    return f"the starting model, reloaded from {model_args.model_name_or_path}"


def build_dpo_trainer(ready: dict[str, Any], release_args: cfg.ReleaseArguments, train_args: Any,
                      model_args: Any) -> Any:
    """The DPOTrainer on the prepared pairs (models are loaded here), checked to have kept every pair."""
    from trl import DPOTrainer, get_peft_config

    train_args.model_init_kwargs = model_init_kwargs(train_args, model_args)
    ref_model = None
    if release_args.ref_model_name_or_path:
        from transformers import AutoModelForCausalLM

        ref_model = AutoModelForCausalLM.from_pretrained(release_args.ref_model_name_or_path,
                                                         **train_args.model_init_kwargs)
    trainer = DPOTrainer(model=model_args.model_name_or_path, ref_model=ref_model, args=train_args,
                         train_dataset=ready["prepared"].train, eval_dataset=ready["prepared"].eval,
                         processing_class=ready["tokenizer"], peft_config=get_peft_config(model_args),
                         callbacks=[make_training_callback()])
    confirm_kept(trainer, ready, train_args)
    return trainer


def run_dpo(release_args: cfg.ReleaseArguments, train_args: Any, model_args: Any) -> dict[str, Any] | None:
    ready = prepare_dpo(release_args, train_args, model_args)
    counts = ready["prepared"].counts
    ref = reference_kind(release_args, train_args, model_args)
    say(summary_line(ready, unit="preference pairs") + f"; reference: {ref}")
    if release_args.check_only:
        say("checks passed (check_only: stopping before the model is loaded)")
        return None

    trainer = build_dpo_trainer(ready, release_args, train_args, model_args)
    quiet_default_printers(trainer)
    result = trainer.train(resume_from_checkpoint=train_args.resume_from_checkpoint)
    trainer.save_model(train_args.output_dir)
    metrics = dict(result.metrics)
    if ready["prepared"].eval is not None:
        metrics.update(trainer.evaluate())
    if trainer.is_world_process_zero():
        ready["tokenizer"].save_pretrained(train_args.output_dir)
        counts = dict(counts, reference=ref)
        path = cfg.write_run_files(
            train_args.output_dir, kind="dpo", config=cfg.config_dict(release_args, train_args, model_args),
            release=ready["release"].summary(), counts=counts, checks=[c.line() for c in ready["checks"]],
            metrics=metrics, log_history=trainer.state.log_history, extra_datasets=ready["prepared"].extras)
        say(f"saved the model and {path.name} to {train_args.output_dir}")
    _end(trainer)
    return metrics


def main(argv: list[str] | None = None) -> int:
    try:
        release_args, train_args, model_args = cfg.parse("dpo", argv)
        run_dpo(release_args, train_args, model_args)
    except TrainerInputError as exc:
        print(f"akgen train dpo: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
