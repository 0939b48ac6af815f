from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("submissions", "0004_verdict_contract"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="evaluation",
            index=models.Index(fields=["started_at"], name="evaluation_started_at"),
        ),
    ]
