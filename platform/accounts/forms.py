from __future__ import annotations

import json

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from accounts.models import Scope
from submissions.models import LanguageModel, Path_, TrainingStage

EXPIRY_CHOICES = [("30", "30 days"), ("90", "90 days"), ("365", "1 year"), ("", "Never")]


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional; only for password resets.")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class TokenForm(forms.Form):
    name = forms.CharField(max_length=80, initial="my-script", help_text="A label to recognise the key by.")
    scopes = forms.MultipleChoiceField(choices=Scope.choices, widget=forms.CheckboxSelectMultiple,
                                       initial=[Scope.SUBMIT, Scope.READ])
    expires_in_days = forms.ChoiceField(choices=EXPIRY_CHOICES, initial="90", required=False, label="Expires")


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
