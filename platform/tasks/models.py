from django.db import models


class Level(models.IntegerChoices):
    L1 = 1, "L1 elementwise"
    L2 = 2, "L2 NN operators"
    L3 = 3, "L3 complex"


class Task(models.Model):
    """A benchmark task, identified by its slug; its content lives in versions."""

    slug = models.SlugField(max_length=120, unique=True)
    #: The suite it comes from (tasks/suites.py): "akgen", or e.g. "npukb" for an imported one.
    suite = models.CharField(max_length=40, default="akgen", db_index=True)
    title = models.CharField(max_length=200)
    level = models.PositiveSmallIntegerField(choices=Level.choices, db_index=True)
    category = models.CharField(max_length=60, db_index=True)
    shape_mode = models.CharField(max_length=16, db_index=True)
    dtypes = models.JSONField(default=list)
    paths = models.JSONField(default=list)
    current_version = models.ForeignKey(
        "TaskVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    retired = models.BooleanField(default=False, help_text="No longer in the suite on disk.")

    class Meta:
        ordering = ["level", "slug"]

    def __str__(self) -> str:
        return self.slug


class TaskVersion(models.Model):
    """One content state of a task; results stay attached to the version they were judged on."""

    task = models.ForeignKey(Task, on_delete=models.CASCADE, related_name="versions")
    content_hash = models.CharField(max_length=64)
    spec = models.JSONField()
    api_desc = models.TextField()
    template_kernel = models.TextField(blank=True, default="")
    template_host = models.TextField(blank=True, default="")
    expert_kernel = models.TextField(blank=True, default="", help_text="Staff-only until passed.")
    expert_host = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["task", "content_hash"], name="task_version_unique_hash")
        ]

    def __str__(self) -> str:
        return f"{self.task.slug}@{self.content_hash[:12]}"
