# Written by hand: task verdict counts, unjudged samples and reviewers' dismissals as their own rows.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def count_verdicts(apps, schema_editor):
    """Fill TaskVerdictCount from what was judged before it existed (rebuild_leaderboard does the same)."""
    Evaluation = apps.get_model("submissions", "Evaluation")
    TaskVerdictCount = apps.get_model("leaderboard", "TaskVerdictCount")
    rows = (Evaluation.objects.filter(status__in=["done", "failed"], submission__quarantine__isnull=True)
            .values("submission__task_version_id", "submission__task_id", "toolchain", "soc", "verdict", "status",
                    "compiled").annotate(n=models.Count("pk")))
    merged = {}
    for r in rows:
        judged = r["status"] == "done"
        key = (r["submission__task_version_id"], r["toolchain"], r["soc"], r["verdict"] if judged else "system_error",
               bool(r["compiled"]) and judged)
        merged.setdefault(key, [r["submission__task_id"], 0])[1] += r["n"]
    TaskVerdictCount.objects.bulk_create([
        TaskVerdictCount(task_version_id=k[0], toolchain=k[1], soc=k[2], verdict=k[3], compiled=k[4], task_id=v[0],
                         count=v[1]) for k, v in merged.items()], batch_size=2000)


class Migration(migrations.Migration):

    dependencies = [
        ("leaderboard", "0001_initial"),
        ("submissions", "0004_verdict_contract"),
        ("tasks", "0002_task_version_result_counters"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="runtaskstat",
            name="n_unjudged",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="rankedkernel",
            name="flagged",
            field=models.BooleanField(default=False, help_text="Suspiciously fast, by the evaluator's record."),
        ),
        migrations.CreateModel(
            name="Dismissal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("created_by", models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL,
                                                 related_name="+", to=settings.AUTH_USER_MODEL)),
                ("submission", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE,
                                                    related_name="dismissal", to="submissions.submission")),
            ],
        ),
        migrations.CreateModel(
            name="TaskVerdictCount",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("toolchain", models.CharField(max_length=32)),
                ("soc", models.CharField(max_length=32)),
                ("verdict", models.CharField(max_length=32)),
                ("compiled", models.BooleanField()),
                ("count", models.PositiveIntegerField(default=0)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                ("task", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="verdict_counts",
                                           to="tasks.task")),
                ("task_version", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                   related_name="verdict_counts", to="tasks.taskversion")),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("task_version", "toolchain", "soc", "verdict",
                                                                "compiled"), name="task_verdict_count_key")],
            },
        ),
        migrations.RunPython(count_verdicts, migrations.RunPython.noop),
    ]
