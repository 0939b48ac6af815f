from django.urls import path

from releases import views

app_name = "releases"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.new, name="new"),
    path("preview/", views.preview, name="preview"),
    path("<int:number>/", views.detail, name="detail"),
    path("<int:number>/progress/", views.progress, name="progress"),
    path("<int:number>/download/", views.download, name="download"),
    path("<int:number>/<slug:subset>/<slug:split>/", views.browse, name="browse"),
]
