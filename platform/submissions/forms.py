"""The browser's submission form. It only shapes input; submissions.services validates it."""

from __future__ import annotations

from django import forms

from submissions.errors import SubmissionRejected
from submissions.models import Path_, Visibility

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
