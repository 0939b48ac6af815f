from django.urls import include, path

from accounts import views

# Our pages are namespaced "accounts:"; Django's auth views keep their global names (login, logout…).
account_patterns = ([
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("profile/tokens/", views.token_new, name="token-new"),
    path("profile/tokens/<int:pk>/revoke/", views.token_revoke_view, name="token-revoke"),
    path("profile/models/", views.model_new, name="model-new"),
    path("profile/runs/", views.run_new, name="run-new"),
], "accounts")

urlpatterns = [
    path("", include(account_patterns)),
    path("", include("django.contrib.auth.urls")),
]
