from django.urls import path

from submissions import views

app_name = "submissions"
urlpatterns = [
    path("mine/", views.submission_mine, name="mine"),
    path("compare/", views.submission_compare, name="compare"),
    path("<int:pk>/", views.submission_detail, name="detail"),
    path("<int:pk>/status/", views.submission_status, name="status"),
    path("<int:pk>/diff/", views.submission_diff, name="diff"),
    path("<int:pk>/compile.log", views.submission_log, name="log"),
]
