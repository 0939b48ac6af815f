from django.urls import path  # noqa: F401 (routes arrive with the API)

app_name = "api"
urlpatterns: list = []
