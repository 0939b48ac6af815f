"""Sign-up and the profile: API tokens (the key shown once), Models and Runs, limits in force."""

from __future__ import annotations

import json
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import ratelimit
from accounts.forms import ModelForm, RunForm, SignupForm, TokenForm
from accounts.models import ApiToken
from accounts.services import llm_create, run_create, token_create, token_revoke
from api.selectors import llms_of, pending_count, runs_of
from submissions.errors import SubmissionRejected
from submissions.services import MAX_SOURCE_BYTES


def signup(request):
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}. Create an API token to submit from scripts.")
        return redirect("accounts:profile")
    return render(request, "registration/signup.html", {"form": form})


def _limits(user) -> list[dict]:
    rows = []
    for bucket in ratelimit.SCOPES:
        per_token = ratelimit.limits_for(bucket, user_id=user.pk, token_id=0)[0].limit
        usage = ratelimit.peek(ratelimit.limits_for(bucket, user_id=user.pk, token_id=None))[0]
        rows.append({"bucket": bucket, "per_token": per_token, "per_user": usage["limit"],
                     "used": usage["used"], "remaining": usage["remaining"]})
    return rows


def _profile_context(request, **extra) -> dict:
    user = request.user
    now = timezone.now()
    tokens = list(ApiToken.objects.filter(user=user).order_by("revoked_at", "-created_at"))
    for token in tokens:
        token.current_state = token.state(now)
    runs = list(runs_of(user).order_by("-id")[:50])
    for run in runs:
        run.decoding_text = json.dumps(run.decoding, sort_keys=True) if run.decoding else "{}"
    context = {
        "tokens": tokens,
        "models": llms_of(user).order_by("name"),
        "runs": runs,
        "token_form": TokenForm(),
        "model_form": ModelForm(),
        "run_form": RunForm(owner=user),
        "limits": _limits(user),
        "window_s": ratelimit.window_s(),
        "pending": pending_count(user),
        "max_pending": settings.AKGEN_MAX_PENDING_PER_USER,
        "batch_max": settings.AKGEN_API_BATCH_MAX,
        "max_source_kib": MAX_SOURCE_BYTES // 1024,
        "max_request_mib": round(settings.DATA_UPLOAD_MAX_MEMORY_SIZE / (1024 * 1024), 1),
        "new_key": None,
    }
    context.update(extra)
    return context


@never_cache
@login_required
def profile(request):
    return render(request, "accounts/profile.html", _profile_context(request))


@never_cache
@login_required
@require_POST
def token_new(request):
    form = TokenForm(request.POST)
    if form.is_valid():
        days = form.cleaned_data["expires_in_days"]
        expires_at = timezone.now() + timedelta(days=int(days)) if days else None
        try:
            new = token_create(user=request.user, name=form.cleaned_data["name"],
                               scopes=form.cleaned_data["scopes"], expires_at=expires_at)
        except SubmissionRejected as exc:
            form.add_error(None, exc.message)
        else:
            # Rendered in this response only: the key is stored nowhere, not even in the session.
            return render(request, "accounts/profile.html",
                          _profile_context(request, new_key=new.key, new_token=new.token))
    return render(request, "accounts/profile.html", _profile_context(request, token_form=form), status=400)


@login_required
@require_POST
def token_revoke_view(request, pk: int):
    if token_revoke(user=request.user, token_id=pk):
        messages.success(request, "Token revoked; requests using it now get 401.")
    else:
        messages.error(request, "No such live token.")
    return redirect("accounts:profile")


@login_required
@require_POST
def model_new(request):
    form = ModelForm(request.POST)
    if form.is_valid():
        try:
            model = llm_create(owner=request.user, **form.cleaned_data)
        except SubmissionRejected as exc:
            form.add_error("name" if "name" in exc.fields else None, exc.message)
        else:
            messages.success(request, f"Model {model.name} registered (id {model.pk}).")
            return redirect("accounts:profile")
    return render(request, "accounts/profile.html", _profile_context(request, model_form=form), status=400)


@login_required
@require_POST
def run_new(request):
    form = RunForm(request.POST, owner=request.user)
    if form.is_valid():
        data = dict(form.cleaned_data)
        model = data.pop("model")
        try:
            run = run_create(owner=request.user, model_id=model.pk, **data)
        except SubmissionRejected as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Run {run} created (id {run.pk}); submit its samples with "
                                      f"\"run\": {run.pk} and sample_index 0..{run.samples_per_task - 1}.")
            return redirect("accounts:profile")
    return render(request, "accounts/profile.html", _profile_context(request, run_form=form), status=400)
