"""Explicit input and output serializers of the v1 API (no ModelSerializer magic on input)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from submissions.intake import MAX_REASONING_BYTES
from submissions.models import Path_, TrainingStage, Visibility

TOOLCHAINS = ("cpu-sim", "cann")
MAX_ID = 2**63 - 1


class _StrictString:
    """Refuse numbers and booleans where text is expected (DRF's CharField would stringify them)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


NO_NUL = RegexValidator(r"^[^\x00]*$", "NUL characters are not allowed.")  # documented as a pattern


class TextField(_StrictString, serializers.CharField):
    """Text without NUL characters, or matching `pattern` (one regex, so the schema can state it)."""

    def __init__(self, pattern: str | None = None, pattern_message: str = "Invalid value.", **kwargs):
        kwargs["validators"] = [RegexValidator(pattern, pattern_message) if pattern else NO_NUL]
        super().__init__(**kwargs)
        # DRF's surrogate check loops over every character in Python (milliseconds for a 64 KiB
        # kernel); the UTF-8 encode below finds lone surrogates at C speed instead.
        self.validators = [v for v in self.validators if not isinstance(v, ProhibitSurrogateCharactersValidator)]

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise serializers.ValidationError("Not valid UTF-8 (lone surrogate characters).",
                                              code="surrogate_characters_not_allowed") from exc
        return value


class SlugText(_StrictString, serializers.SlugField):
    pass


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable machine-readable reason, e.g. source_too_large.")
    message = serializers.CharField(help_text="What went wrong, for people.")
    fields = serializers.DictField(child=serializers.CharField(), help_text="Per-field problems.")


# --- submissions -----------------------------------------------------------------------------


class SubmissionInput(serializers.Serializer):
    task = SlugText(max_length=120, help_text="Task slug.")
    path = serializers.ChoiceField(choices=Path_.choices, required=False,
                                   help_text="Default: the run's path, else device_only.")
    kernel = TextField(trim_whitespace=False, allow_blank=True,
                                   help_text="AscendC kernel source (UTF-8, at most 64 KiB or the task spec's source_bytes).")
    host = TextField(trim_whitespace=False, allow_blank=True, allow_null=True, required=False,
                                 help_text="Host source (host_device path only).")
    run = serializers.IntegerField(min_value=1, max_value=MAX_ID, allow_null=True, required=False,
                                   help_text="One of your runs; with sample_index, makes the request idempotent.")
    sample_index = serializers.IntegerField(min_value=0, max_value=2**31 - 1, allow_null=True, required=False)
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC, required=False,
                                         help_text="private: only you and staff can see it (sources, reasoning "
                                                   "and result), and no release takes it.")
    reasoning = TextField(trim_whitespace=False, allow_blank=True, allow_null=True, required=False,
                          help_text=f"The model's reasoning before its answer (its think block; at most "
                                    f"{MAX_REASONING_BYTES // 1024} KiB), stored for training data, never compiled; "
                                    "as visible as the kernel (a public one's page shows it, releases carry it).")


BATCH_HELP = (f"Up to {settings.AKGEN_API_BATCH_MAX} items, each shaped like a single submission; "
              "each is validated and accepted on its own.")


class BatchInput(serializers.Serializer):
    """The envelope only: items are validated one by one so that a bad one fails alone."""

    submissions = serializers.ListField(child=serializers.JSONField(), allow_empty=False,
                                        max_length=settings.AKGEN_API_BATCH_MAX, help_text=BATCH_HELP)


class BatchInputSchema(serializers.Serializer):
    """What the OpenAPI schema documents for a batch."""

    submissions = serializers.ListField(child=SubmissionInput(), min_length=1,
                                        max_length=settings.AKGEN_API_BATCH_MAX, help_text=BATCH_HELP)


class SubmissionCreatedOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField(help_text="queued | running | done | failed")
    url = serializers.URLField(help_text="Where to poll for the verdict.")
    created = serializers.BooleanField(help_text="False when an earlier request already submitted this sample.")


class BatchItemOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="Position in the request's list.")
    ok = serializers.BooleanField()
    status_code = serializers.IntegerField(help_text="What this item would have got as a single request.")
    id = serializers.IntegerField(required=False)
    status = serializers.CharField(required=False)
    url = serializers.URLField(required=False)
    created = serializers.BooleanField(required=False)
    error = ErrorSerializer(required=False)


class BatchOutput(serializers.Serializer):
    accepted = serializers.IntegerField(help_text="Items accepted (new or already submitted).")
    failed = serializers.IntegerField()
    results = BatchItemOutput(many=True)


class EvaluationOutput(serializers.Serializer):
    toolchain = serializers.CharField()
    soc = serializers.CharField()
    status = serializers.CharField()
    stage = serializers.CharField()
    verdict = serializers.CharField()
    compiled = serializers.BooleanField(allow_null=True)
    passed = serializers.BooleanField(allow_null=True)
    speedup = serializers.FloatField(allow_null=True)
    cycles = serializers.IntegerField(allow_null=True)
    attempt = serializers.IntegerField()
    error = serializers.CharField(help_text="Why it was not judged: the evaluator's refusal of the input; "
                                            "infrastructure detail only for staff, as on the page.")
    result = serializers.JSONField(allow_null=True, help_text="The evaluator's full result object.")
    enqueued_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class SubmissionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    task = serializers.CharField(source="task.slug")
    task_version = serializers.CharField(source="task_version.content_hash")
    path = serializers.CharField()
    run = serializers.IntegerField(source="run_id", allow_null=True)
    sample_index = serializers.IntegerField(allow_null=True)
    visibility = serializers.CharField()
    sha256 = serializers.CharField()
    created_at = serializers.DateTimeField()
    status = serializers.CharField(help_text="Of the main evaluation: queued | running | done | failed")
    verdict = serializers.CharField(help_text="passed, wrong_answer, compile_error, … (empty until done)")
    result = serializers.JSONField(allow_null=True)
    queue_position = serializers.IntegerField(allow_null=True, help_text="1 = next to be evaluated; null unless "
                                              "queued (given on the detail endpoint only).")
    evaluations = EvaluationOutput(many=True)
    kernel = serializers.CharField(source="kernel_source")
    host = serializers.CharField(source="host_source", allow_null=True)
    reasoning = serializers.CharField(required=False, help_text="The reasoning the submitter sent with the kernel "
                                      "(may be empty); present where the submission's page shows it "
                                      "(submissions.selectors.Shown).")


# --- tasks -------------------------------------------------------------------------------------


class TaskOutput(serializers.Serializer):
    slug = serializers.CharField()
    url = serializers.URLField()
    title = serializers.CharField()
    level = serializers.IntegerField()
    category = serializers.CharField()
    shape_mode = serializers.CharField()
    dtypes = serializers.ListField(child=serializers.CharField())
    paths = serializers.ListField(child=serializers.CharField())
    suite = serializers.CharField(help_text="The suite the task belongs to (akgen, or an imported one).")
    version = serializers.CharField(allow_null=True, help_text="Content hash of the current version.")
    split = serializers.ChoiceField(choices=["eval", "train"], help_text="eval: a held-out evaluation task of the "
                                    "benchmark (kept out of training releases); train: the others.")


class TaskResultsOutput(serializers.Serializer):
    judged = serializers.IntegerField(help_text="Evaluations of the current version with a verdict.")
    passed = serializers.IntegerField()
    unjudged = serializers.IntegerField(help_text="Ended without a verdict (infrastructure failures).")
    pending = serializers.IntegerField()
    best_speedup = serializers.FloatField(allow_null=True, help_text="The task board's best (ranked toolchain).")
    toolchain = serializers.CharField()
    verdicts = serializers.DictField(child=serializers.IntegerField())


class TaskDetailOutput(TaskOutput):
    results = TaskResultsOutput(help_text="Results, from the same aggregates as the task page and its board.")
    api_desc = serializers.CharField()
    template_kernel = serializers.CharField()
    template_host = serializers.CharField()
    spec = serializers.JSONField()
    prompt = serializers.CharField(help_text="The prompt a model is given (device_only path when offered).")
    prompts = serializers.DictField(child=serializers.CharField(),
                                    help_text="The prompt for each path the task offers.")


# --- models and runs ---------------------------------------------------------------------------


class ModelInput(serializers.Serializer):
    name = TextField(max_length=120)
    base_model = TextField(max_length=200, required=False, allow_blank=True, default="")
    training_stage = serializers.ChoiceField(choices=TrainingStage.choices, default=TrainingStage.BASE)
    parameters = TextField(max_length=40, required=False, allow_blank=True, default="",
                                       help_text="e.g. 7B")
    link = TextField(max_length=200, required=False, allow_blank=True, default="",
                     pattern=r"^(https?://[^\x00-\x20\x7f-\x9f]+)?$", pattern_message="Must be an http(s) URL.",
                     help_text="A page about the model (http or https).")


class ModelOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    base_model = serializers.CharField()
    training_stage = serializers.CharField()
    parameters = serializers.CharField()
    link = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    created_at = serializers.DateTimeField()


class RunInput(serializers.Serializer):
    model = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="Id of one of your models.")
    name = TextField(max_length=120)
    samples_per_task = serializers.IntegerField(min_value=1, max_value=1000, default=1, help_text="k")
    decoding = serializers.DictField(required=False, default=dict,
                                     help_text="Decoding configuration, e.g. {\"temperature\": 0.8}.")
    path = serializers.ChoiceField(choices=Path_.choices, default=Path_.DEVICE_ONLY)
    toolchain = serializers.ChoiceField(choices=[(t, t) for t in TOOLCHAINS], default="cpu-sim")


class RunOutput(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    html_url = serializers.URLField(help_text="The run's page: task x sample grid, pass@k per task, failures.")
    model = serializers.IntegerField(source="model_id")
    model_name = serializers.CharField(source="model.name")
    name = serializers.CharField()
    samples_per_task = serializers.IntegerField()
    decoding = serializers.JSONField()
    path = serializers.CharField()
    toolchain = serializers.CharField()
    created_at = serializers.DateTimeField()


class TaskProgressOutput(serializers.Serializer):
    task = serializers.CharField()
    submitted = serializers.IntegerField()
    pending = serializers.IntegerField()
    evaluated = serializers.IntegerField(help_text="n: finished with a verdict")
    failed = serializers.IntegerField(help_text="infrastructure failures (not counted in n)")
    compiled = serializers.IntegerField()
    passed = serializers.IntegerField(help_text="c")
    pass_at_1 = serializers.FloatField(allow_null=True)
    pass_at_k = serializers.FloatField(allow_null=True, help_text="1 − C(n−c,k)/C(n,k); null while n < k")
    split = serializers.ChoiceField(choices=["eval", "train"], help_text="eval: a held-out evaluation task")


class RunProgressOutput(serializers.Serializer):
    k = serializers.IntegerField()
    submitted = serializers.IntegerField()
    pending = serializers.IntegerField()
    evaluated = serializers.IntegerField()
    failed = serializers.IntegerField()
    compiled = serializers.IntegerField()
    passed = serializers.IntegerField()
    tasks_complete = serializers.IntegerField(help_text="Tasks with at least k evaluated samples.")
    pass_at_1 = serializers.FloatField(allow_null=True, help_text="Mean over tasks with an evaluated sample.")
    pass_at_k = serializers.FloatField(allow_null=True, help_text="Mean over tasks with k evaluated samples.")
    scored_on = serializers.ChoiceField(choices=["eval", "train", "mixed", "none"],
                                        help_text="The split of the counted tasks: eval = the benchmark's held-out "
                                                  "evaluation tasks only (benchmark mode).")
    eval_tasks = serializers.IntegerField(help_text="Counted tasks that are evaluation tasks.")
    train_tasks = serializers.IntegerField(help_text="Counted tasks that are not.")
    restricted_to = serializers.ChoiceField(choices=["eval", "train", "all"], help_text="The ?split= asked for.")
    tasks = TaskProgressOutput(many=True)


class RunDetailOutput(RunOutput):
    progress = RunProgressOutput()


# --- the caller ------------------------------------------------------------------------------


class LimitOutput(serializers.Serializer):
    key = serializers.CharField()
    limit = serializers.IntegerField()
    used = serializers.IntegerField()
    remaining = serializers.IntegerField()
    reset_at = serializers.IntegerField(help_text="Epoch seconds when the window ends.")
    window_s = serializers.IntegerField()


class WorkerTimeOutput(serializers.Serializer):
    used_s = serializers.FloatField(help_text="Worker time your evaluations took in the window.")
    budget_s = serializers.FloatField(help_text="Beyond this, new submissions get 429 until the window moves on.")
    window_s = serializers.IntegerField()


class MeOutput(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField(allow_null=True, help_text="Prefix of the API key used, if any.")
    scopes = serializers.ListField(child=serializers.CharField())
    pending = serializers.IntegerField(help_text="Your evaluations queued or running.")
    max_pending = serializers.IntegerField()
    tier = serializers.ChoiceField(choices=["new", "trusted"], help_text="Trusted accounts get larger allowances.")
    worker_time = WorkerTimeOutput()
    batch_max = serializers.IntegerField()
    max_source_bytes = serializers.IntegerField()
    max_request_bytes = serializers.IntegerField()
    rate_limits = serializers.DictField(child=LimitOutput(many=True))
