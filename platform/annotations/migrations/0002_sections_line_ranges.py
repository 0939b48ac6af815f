"""Sections link several line ranges: a stored [from, to] pair becomes [[from, to]]."""

from django.db import migrations


def _ranges(sections):
    changed = False
    for section in sections or []:
        lines = section.get("lines") if isinstance(section, dict) else None
        if isinstance(lines, list) and len(lines) == 2 and all(isinstance(n, int) for n in lines):
            section["lines"] = [lines]
            changed = True
    return changed


def forwards(apps, schema_editor):
    Annotation = apps.get_model("annotations", "Annotation")
    for annotation in Annotation.objects.exclude(sections=[]).iterator():
        if _ranges(annotation.sections):
            annotation.save(update_fields=["sections"])


def backwards(apps, schema_editor):
    Annotation = apps.get_model("annotations", "Annotation")
    for annotation in Annotation.objects.exclude(sections=[]).iterator():
        for section in annotation.sections or []:
            lines = section.get("lines") if isinstance(section, dict) else None
            if isinstance(lines, list) and lines and isinstance(lines[0], list):
                section["lines"] = lines[0]  # only the first range survives going back
        annotation.save(update_fields=["sections"])


class Migration(migrations.Migration):
    dependencies = [("annotations", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
