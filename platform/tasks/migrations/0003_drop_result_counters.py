# Written by hand: a task's results are the leaderboard's aggregates now (TaskVerdictCount and
# the ranked kernels, written only by leaderboard.aggregates); the copies on TaskVersion go.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tasks", "0002_task_version_result_counters"),
        ("leaderboard", "0002_verdict_counts_dismissals"),  # its backfill counts before these go
    ]

    operations = [
        migrations.RemoveField(model_name="taskversion", name="judged_count"),
        migrations.RemoveField(model_name="taskversion", name="passed_count"),
        migrations.RemoveField(model_name="taskversion", name="best_speedup"),
    ]
