"""Sign-up and API token forms (the model and run forms are submissions.forms')."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from accounts.models import Scope

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
