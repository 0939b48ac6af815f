from django.urls import path

from tasks import views

app_name = "tasks"
urlpatterns = [
    path("", views.task_index, name="index"),
    path("<slug:slug>/", views.task_detail, name="detail"),
    path("<slug:slug>/submissions/", views.task_submissions, name="submissions"),
    path("<slug:slug>/submit/", views.task_submit, name="submit"),
]
