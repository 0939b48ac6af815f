"""The queue form of the workspace: what a workspace admin sets when creating or editing a queue."""

from __future__ import annotations

from django import forms

from annotations.models import QueueKind


class QueueForm(forms.Form):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=80, help_text="The queue's address: /workspace/q/<slug>/ (fixed once created).")
    kind = forms.ChoiceField(choices=QueueKind.choices)
    description = forms.CharField(max_length=300, required=False)
    guidelines = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 10}),
                                 help_text="Markdown, shown beside every item of the queue.")
    overlap_target = forms.IntegerField(min_value=1, max_value=10, initial=1,
                                        help_text="Annotators per item (2 or more gives agreement figures).")
    is_open = forms.BooleanField(required=False, initial=True,
                                 help_text="Open: any annotator may pick items; closed: assigned items only.")
