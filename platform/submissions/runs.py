"""Registering what submits: a person's language models and their runs (a model sampling k
kernels per task with one decoding configuration). A run's samples come in through
submissions.intake, which checks that the run is the caller's."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from submissions.errors import Conflict, NotYours, SubmissionRejected
from submissions.models import LanguageModel, Path_, Run, TrainingStage

TOOLCHAINS = ("cpu-sim", "cann")


def llm_create(*, owner, name: str, base_model: str = "", training_stage: str = TrainingStage.BASE,
               parameters: str = "", link: str = "") -> LanguageModel:
    name = (name or "").strip()
    if not name:
        raise SubmissionRejected("invalid_model", "'name' is required.", {"name": "required"})
    if training_stage not in TrainingStage.values:
        raise SubmissionRejected("invalid_model", f"'training_stage' must be one of {', '.join(TrainingStage.values)}.",
                                 {"training_stage": "invalid choice"})
    try:
        with transaction.atomic():
            return LanguageModel.objects.create(
                owner=owner, name=name, base_model=base_model or "", training_stage=training_stage,
                parameters=parameters or "", link=link or "",
            )
    except IntegrityError as exc:
        raise Conflict("name_taken", f"A model named '{name}' already exists.",
                                 {"name": "already taken"}) from exc


def run_create(*, owner, model_id: int, name: str, samples_per_task: int = 1, decoding: dict | None = None,
               path: str = Path_.DEVICE_ONLY, toolchain: str = "cpu-sim") -> Run:
    model = LanguageModel.objects.filter(pk=model_id, owner=owner).first()
    if model is None:
        raise NotYours("unknown_model", f"You have no model with id {model_id}.",
                       {"model": "not one of your models"})
    name = (name or "").strip()
    if not name:
        raise SubmissionRejected("invalid_run", "'name' is required.", {"name": "required"})
    if not 1 <= int(samples_per_task) <= 1000:
        raise SubmissionRejected("invalid_run", "'samples_per_task' must be between 1 and 1000.",
                                 {"samples_per_task": "1..1000"})
    if path not in Path_.values:
        raise SubmissionRejected("invalid_run", f"'path' must be one of {', '.join(Path_.values)}.",
                                 {"path": "invalid choice"})
    if toolchain not in TOOLCHAINS:
        raise SubmissionRejected("invalid_run", f"'toolchain' must be one of {', '.join(TOOLCHAINS)}.",
                                 {"toolchain": "invalid choice"})
    if decoding is not None and not isinstance(decoding, dict):
        raise SubmissionRejected("invalid_run", "'decoding' must be a JSON object.", {"decoding": "not an object"})
    return Run.objects.create(model=model, name=name, samples_per_task=int(samples_per_task),
                              decoding=decoding or {}, path=path, toolchain=toolchain)
