from django.urls import path

from leaderboard import task_views, views

app_name = "leaderboard"
urlpatterns = [
    path("", views.models_board, name="models"),
    path("people/", views.people_board, name="people"),
    path("taxonomy/", views.taxonomy, name="taxonomy"),
    path("taxonomy/<slug:category>/", views.taxonomy_category, name="taxonomy-category"),
    path("heatmap/", views.heatmap_page, name="heatmap"),
    path("task/<slug:slug>/", views.task_board, name="task"),
    path("export/<slug:board>.<slug:fmt>", views.export, name="export"),
    path("review/", views.review, name="review"),
    path("report/<int:pk>/", views.report, name="report"),
]

#: The task list and a task's page; akgen.urls puts them under /tasks/ ("tasks:index", "tasks:detail").
task_patterns = [
    path("", task_views.task_index, name="index"),
    path("<slug:slug>/", task_views.task_detail, name="detail"),
]

#: A run's page; akgen.urls puts it under /runs/ ("runs:detail").
run_patterns = [
    path("<int:pk>/", views.run_detail, name="detail"),
]
