"""Django admin for the workspace: queues, items, annotations, and granting roles.

Roles are Django groups (annotator, reviewer, workspace admin; see annotations.roles); grant
them on a user's admin page (Groups) or with ``manage.py grant_role``.
"""

from django.contrib import admin

from annotations.models import Annotation, Item, Queue, ReviewComment


@admin.register(Queue)
class QueueAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "kind", "overlap_target", "is_open", "created_at")
    list_filter = ("kind", "is_open")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = ("pk", "title", "queue", "source", "category", "origin", "created_at")
    list_filter = ("queue", "source", "origin")
    search_fields = ("title",)
    raw_id_fields = ("task", "task_version", "submission", "created_by")


class ReviewCommentInline(admin.TabularInline):
    model = ReviewComment
    extra = 0
    raw_id_fields = ("author",)


@admin.register(Annotation)
class AnnotationAdmin(admin.ModelAdmin):
    list_display = ("pk", "item", "annotator", "status", "category", "time_spent_s", "updated_at")
    list_filter = ("status", "item__queue")
    search_fields = ("annotator__username", "item__title")
    raw_id_fields = ("item", "annotator", "fix_submission", "assigned_by", "reviewer")
    inlines = [ReviewCommentInline]
