from django.urls import path

from accounts import views

#: The "accounts:" pages of this app; akgen.urls adds the profile's model and run forms
#: (submissions.urls.profile_patterns) to the namespace. Django's auth views keep their global
#: names (login, logout…).
account_patterns = [
    # Before django.contrib.auth.urls (akgen.urls): the same /accounts/login/, throttled.
    path("login/", views.ThrottledLoginView.as_view(), name="login"),
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("profile/tokens/", views.token_new, name="token-new"),
    path("profile/tokens/<int:pk>/revoke/", views.token_revoke_view, name="token-revoke"),
]
