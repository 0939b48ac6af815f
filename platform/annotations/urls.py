from django.urls import path

from annotations import views

app_name = "annotations"

urlpatterns = [
    path("", views.home, name="home"),
    path("queues/new/", views.queue_edit, name="queue_new"),
    path("q/<slug:slug>/", views.queue_detail, name="queue"),
    path("q/<slug:slug>/edit/", views.queue_edit, name="queue_edit"),
    path("q/<slug:slug>/manage/", views.queue_manage, name="queue_manage"),
    path("items/<int:pk>/start/", views.item_claim, name="claim"),
    path("a/<int:pk>/", views.annotation_edit, name="edit"),
    path("a/<int:pk>/save/", views.annotation_save, name="save"),
    path("a/<int:pk>/evaluate/", views.fix_evaluate, name="evaluate"),
    path("a/<int:pk>/fix-status/", views.fix_status, name="fix_status"),
    path("a/<int:pk>/submit/", views.annotation_submit, name="submit"),
    path("review/", views.review_list, name="review_list"),
    path("review/items/<int:pk>/", views.review_item, name="review_item"),
    path("review/items/<int:pk>/merge/", views.review_merge, name="merge"),
    path("review/a/<int:pk>/decide/", views.review_decide, name="decide"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("roles/", views.role_admin, name="roles"),
]
