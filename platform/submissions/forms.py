"""The browser's forms: a submission (submissions.intake validates it), a model and a run
(the profile page's; submissions.runs registers them). They only shape input."""

from __future__ import annotations

import json

from django import forms

from submissions.errors import SubmissionRejected
from submissions.models import LanguageModel, Path_, TrainingStage, Visibility

_FIELD_OF = {"kernel": "kernel", "host": "host", "path": "path", "visibility": "visibility"}


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


class SubmissionForm(forms.Form):
    path = forms.ChoiceField(choices=Path_.choices, widget=forms.RadioSelect)
    kernel = forms.CharField(
        strip=False, required=False,
        widget=forms.Textarea(attrs={"data-editor": "cpp", "rows": 28, "spellcheck": "false",
                                     "class": "code-input", "aria-label": "Kernel source (kernel.cpp)"}),
    )
    host = forms.CharField(
        strip=False, required=False,
        widget=forms.Textarea(attrs={"data-editor": "cpp", "rows": 20, "spellcheck": "false",
                                     "class": "code-input", "aria-label": "Host source (host.cpp)"}),
    )
    visibility = forms.ChoiceField(choices=Visibility.choices, initial=Visibility.PUBLIC,
                                   widget=forms.RadioSelect)

    def __init__(self, *args, paths: list[str] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        offered = [(value, label) for value, label in Path_.choices if not paths or value in paths]
        self.fields["path"].choices = offered

    # Browsers post textareas with CRLF line ends (HTML spec); sources are stored with LF so the
    # same kernel hashes, caches and diffs the same whether it came from the browser or the API.
    def clean_kernel(self) -> str:
        return _lf(self.cleaned_data["kernel"])

    def clean_host(self) -> str:
        return _lf(self.cleaned_data["host"])

    def add_rejection(self, exc: SubmissionRejected) -> None:
        """Show a service rejection on the form: its message on top, its fields next to them."""
        self.add_error(None, exc.message)
        for name, problem in exc.fields.items():
            target = _FIELD_OF.get(name)
            if target and target in self.fields:
                self.add_error(target, problem)


class ModelForm(forms.Form):
    name = forms.CharField(max_length=120, help_text="Unique across the site, e.g. qwen2.5-coder-7b-akc-sft.")
    base_model = forms.CharField(max_length=200, required=False)
    training_stage = forms.ChoiceField(choices=TrainingStage.choices, initial=TrainingStage.BASE)
    parameters = forms.CharField(max_length=40, required=False, help_text="e.g. 7B")
    link = forms.URLField(max_length=200, required=False, assume_scheme="https")


class RunForm(forms.Form):
    model = forms.ModelChoiceField(queryset=LanguageModel.objects.none(), empty_label=None)
    name = forms.CharField(max_length=120, initial="k1-greedy")
    samples_per_task = forms.IntegerField(min_value=1, max_value=1000, initial=1, label="Samples per task (k)")
    decoding = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                               initial='{"temperature": 0.0}', help_text="A JSON object.")
    path = forms.ChoiceField(choices=Path_.choices, initial=Path_.DEVICE_ONLY)
    toolchain = forms.ChoiceField(choices=[("cpu-sim", "cpu-sim"), ("cann", "cann")], initial="cpu-sim")

    def __init__(self, *args, owner=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["model"].queryset = LanguageModel.objects.filter(owner=owner).order_by("name")

    def clean_decoding(self) -> dict:
        text = (self.cleaned_data.get("decoding") or "").strip()
        if not text:
            return {}
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise forms.ValidationError(f"Not valid JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise forms.ValidationError("Must be a JSON object, e.g. {\"temperature\": 0.8}.")
        return value
