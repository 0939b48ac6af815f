# Written by hand: the verdict contract of bench_runner.contracts (schema 2).

from django.db import migrations, models


def backfill_suspicious(apps, schema_editor):
    """Copy the evaluator's own `suspicious` out of results judged before the column existed."""
    Evaluation = apps.get_model("submissions", "Evaluation")
    batch = []
    for ev in Evaluation.objects.filter(status="done", passed=True).only("pk", "result").iterator(chunk_size=2000):
        if isinstance(ev.result, dict) and ev.result.get("suspicious") is True:
            ev.suspicious = True
            batch.append(ev)
        if len(batch) >= 2000:
            Evaluation.objects.bulk_update(batch, ["suspicious"])
            batch = []
    Evaluation.objects.bulk_update(batch, ["suspicious"])


VERDICTS = ["passed", "wrong_answer", "compile_error", "runtime_error", "timeout", "sandbox_violation",
            "system_error"]


class Migration(migrations.Migration):

    dependencies = [
        ("submissions", "0003_evaluation_failure_category"),
    ]

    operations = [
        migrations.AddField(
            model_name="evaluation",
            name="suspicious",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="evaluation",
            name="verdict",
            field=models.CharField(blank=True, choices=[(v, v.replace("_", " ")) for v in VERDICTS], db_index=True,
                                   default="", max_length=32),
        ),
        migrations.RunPython(backfill_suspicious, migrations.RunPython.noop),
    ]
