from django.urls import path  # noqa: F401 (pages arrive with the submission views)

app_name = "submissions"
urlpatterns: list = []
