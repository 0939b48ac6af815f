"""Sign-up and the profile: API tokens (the key shown once) and the limits in force.

The profile's models, runs and pending evaluations are submissions': the page includes them with
submissions' owner_ui tags, and their forms post to submissions.views, which answer with this
page (profile_render) when a form has errors.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import ratelimit
from accounts.forms import SignupForm, TokenForm
from accounts.models import ApiToken
from accounts.services import token_create, token_revoke
from core.errors import Rejected


def _name_key(name: str) -> str:
    return hashlib.sha256(name.strip().lower().encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _throttled(response, decision) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(decision.retry_after)
    return response


class ThrottledLoginView(LoginView):
    """Sign-in attempts are limited per client address and per account name
    (AKGEN_RATE_LOGIN_PER_MIN each), so guessing a password costs minutes, not seconds."""

    def post(self, request, *args, **kwargs):
        per = settings.AKGEN_RATE_LOGIN_PER_MIN
        decision = ratelimit.hit([ratelimit.Limit(f"login:ip:{ratelimit.client_ip(request)}", per),
                                  ratelimit.Limit(f"login:user:{_name_key(request.POST.get('username') or '')}", per)])
        if not decision.allowed:
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, f"Too many sign-in attempts. Try again in {decision.retry_after} s.")
            return _throttled(self.render_to_response(self.get_context_data(form=form)), decision)
        return super().post(request, *args, **kwargs)


def signup(request):
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        decision = ratelimit.hit([ratelimit.Limit(f"signup:ip:{ratelimit.client_ip(request)}",
                                                  settings.AKGEN_RATE_SIGNUP_PER_MIN)])
        if not decision.allowed:
            form.add_error(None, f"Too many accounts created from here. Try again in {decision.retry_after} s.")
            return _throttled(render(request, "registration/signup.html", {"form": form}), decision)
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
    context = {
        "tokens": tokens,
        "token_form": TokenForm(),
        "model_form": None,  # owner_ui's tags make fresh forms unless a handler passes bound ones
        "run_form": None,
        "limits": _limits(user),
        "window_s": ratelimit.window_s(),
        "new_key": None,
    }
    context.update(extra)
    return context


def profile_render(request, *, status: int = 200, **extra):
    """The profile page with `extra` in its context (a bound form with errors, a new key)."""
    return render(request, "accounts/profile.html", _profile_context(request, **extra), status=status)


@never_cache
@login_required
def profile(request):
    return profile_render(request)


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
        except Rejected as exc:
            form.add_error(None, exc.message)
        else:
            # Rendered in this response only: the key is stored nowhere, not even in the session.
            return profile_render(request, new_key=new.key, new_token=new.token)
    return profile_render(request, status=400, token_form=form)


@login_required
@require_POST
def token_revoke_view(request, pk: int):
    if token_revoke(user=request.user, token_id=pk):
        messages.success(request, "Token revoked; requests using it now get 401.")
    else:
        messages.error(request, "No such live token.")
    return redirect("accounts:profile")
