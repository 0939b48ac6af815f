"""Workspace pages. Thin: parse the request, call services/selectors, render.

NotVisible is a 404 (another's draft or a foreign queue does not exist for you), NotAllowed a
403, other WorkspaceErrors come back as a message on the page they were made from.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET, require_POST

from annotations import roles, selectors, services
from annotations.errors import NotAllowed, NotVisible, WorkspaceError
from annotations.forms import QueueForm
from annotations.models import Annotation, Queue, QueueKind, Status
from annotations.presenters import editor_context, fix_status_context, review_context
from annotations.schema import section_kinds
from core.denied import Denied
from submissions.highlight import render_markdown

RULE_LABELS = {
    "new_failure_categories": "Every new failure category",
    "most_common_failure": "Most common failure per task",
    "passing_sample": "A sample of passing model kernels",
    "expert_kernels": "Expert kernels of every task",
}


def workspace_view(view):
    """Login required; a workspace role required; errors mapped to 404/403."""

    @wraps(view)
    @login_required
    def wrapped(request, *args, **kwargs):
        if not (roles.can_annotate(request.user) or roles.can_review(request.user) or roles.can_manage(request.user)):
            raise Denied("The expert workspace", roles.NEED_ANY_ROLE)
        try:
            return view(request, *args, **kwargs)
        except NotVisible as exc:
            raise Http404(exc.message) from exc
        except NotAllowed as exc:
            raise PermissionDenied(exc.message) from exc

    return wrapped


def _spent(request) -> int:
    try:
        return int(request.POST.get("spent") or 0)
    except ValueError:
        return 0


def _posted_sections(request, queue_kind: str) -> list[dict] | None:
    out, seen = [], False
    for kind in section_kinds(queue_kind):
        prefix = f"s-{kind.key}-"
        if not any(key.startswith(prefix) for key in request.POST):
            continue
        seen = True
        lines = (request.POST.get(prefix + "lines") if prefix + "lines" in request.POST  # "6-9, 14-15"
                 else [request.POST.get(prefix + "from", ""), request.POST.get(prefix + "to", "")])
        out.append({"kind": kind.key, "text": request.POST.get(prefix + "text", ""), "lines": lines})
    return out if seen else None


def _save_from_post(request, annotation: Annotation) -> Annotation:
    kind = annotation.item.kind
    return services.annotation_save(
        request.user, annotation,
        sections=_posted_sections(request, kind),
        diagnosis=request.POST.get("diagnosis") if kind == QueueKind.FIX else None,
        category=request.POST.get("category") if kind == QueueKind.FIX and "category" in request.POST else None,
        fixed_kernel=request.POST.get("fixed_kernel") if kind == QueueKind.FIX and "fixed_kernel" in request.POST
        else None,
        spent_s=_spent(request),
    )


# --- pages -------------------------------------------------------------------------------------


@require_GET
@workspace_view
def home(request):
    user = request.user
    mine = list(selectors.my_annotations(user, statuses=[Status.CHANGES_REQUESTED, Status.DRAFT, Status.SUBMITTED]))
    queues = []
    for queue in selectors.queues_visible_to(user):
        items = selectors.queue_items(user, queue)
        queue.n_items = len(items)
        queue.n_open = sum(1 for i in items if i.can_claim)
        queue.n_done = sum(1 for i in items if i.approved)
        queues.append(queue)
    context = {
        "mine": mine,
        "queues": queues,
        "backlog": selectors.review_backlog(user),
        "is_reviewer": roles.can_review(user),
        "roles": roles.user_roles(user),
        "recent_done": list(selectors.my_annotations(user, statuses=[Status.APPROVED])[:5]),
        "can_manage": roles.can_manage(user),
    }
    return render(request, "annotations/home.html", context)


@require_GET
@workspace_view
def queue_detail(request, slug: str):
    queue = selectors.queue_get_visible(request.user, slug)
    items = selectors.queue_items(request.user, queue)
    context = {
        "queue": queue,
        "items": items,
        "guidelines": render_markdown(queue.guidelines),
        "can_manage": roles.can_manage(request.user),
        "rules": [(name, RULE_LABELS.get(name, name)) for name, (kind, _) in services.RULES.items()
                  if kind == queue.kind],
    }
    return render(request, "annotations/queue.html", context)


@workspace_view
def queue_edit(request, slug: str | None = None):
    """Workspace admins create a queue (``slug`` None) or edit one: kind, guidelines, overlap, open."""
    if not roles.can_manage(request.user):
        raise Denied("Creating and editing queues", roles.NEED_MANAGE)
    queue = None
    if slug is not None:
        queue = Queue.objects.filter(slug=slug).first()
        if queue is None:
            raise Http404("No such queue.")
    initial = ({"name": queue.name, "slug": queue.slug, "kind": queue.kind, "description": queue.description,
                "guidelines": queue.guidelines, "overlap_target": queue.overlap_target, "is_open": queue.is_open}
               if queue else None)
    form = QueueForm(request.POST or None, initial=initial)
    if queue is not None:  # its address and kind stay: items and links depend on them
        form.fields["slug"].disabled = form.fields["kind"].disabled = True
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if queue is None:
                queue = services.queue_create(by=request.user, slug=data["slug"], name=data["name"],
                                              kind=data["kind"], guidelines=data["guidelines"],
                                              overlap_target=data["overlap_target"], is_open=data["is_open"],
                                              description=data["description"])
                messages.success(request, f"Queue {queue.name} created; fill it by a rule or add items.")
            else:
                services.queue_update(queue, by=request.user, name=data["name"], guidelines=data["guidelines"],
                                      overlap_target=data["overlap_target"], is_open=data["is_open"],
                                      description=data["description"])
                messages.success(request, f"Queue {queue.name} saved.")
            return redirect("annotations:queue", slug=queue.slug)
        except WorkspaceError as exc:
            form.add_error(None, exc.message)
    return render(request, "annotations/queue_form.html", {"form": form, "queue": queue},
                  status=400 if request.method == "POST" else 200)


@require_POST
@workspace_view
def queue_manage(request, slug: str):
    """Admin actions on a queue: run a rule, assign to annotators, import Doc Q&A markdown."""
    queue = Queue.objects.filter(slug=slug).first()
    if queue is None:
        raise Http404("No such queue.")
    action = request.POST.get("action")
    try:
        if action == "fill":
            added = services.queue_fill(queue, request.POST.get("rule", ""), by=request.user)
            messages.success(request, f"{len(added)} item{'s' if len(added) != 1 else ''} added.")
        elif action == "assign":
            names = [n.strip() for n in request.POST.get("annotators", "").replace(",", " ").split() if n.strip()]
            people = [p for p in (services.user_by_name(n) for n in names) if p is not None]
            created = services.assign(queue, people, by=request.user)
            messages.success(request, f"{len(created)} assignment{'s' if len(created) != 1 else ''} made.")
        elif action == "add":
            item = services.item_add_by_hand(queue, request.POST.get("ref", ""), by=request.user,
                                             question=request.POST.get("question", ""))
            messages.success(request, f"Added: {item.title}.")
        elif action == "import":
            upload = request.FILES.get("file")
            text = upload.read().decode("utf-8", errors="replace") if upload else request.POST.get("markdown", "")
            items = services.docqa_import_markdown(queue, text, by=request.user)
            messages.success(request, f"{len(items)} question{'s' if len(items) != 1 else ''} imported.")
        else:
            messages.error(request, "Unknown action.")
    except NotAllowed:
        raise
    except WorkspaceError as exc:
        messages.error(request, exc.message)
    return redirect("annotations:queue", slug=queue.slug)


@require_POST
@workspace_view
def item_claim(request, pk: int):
    item = selectors.item_get_visible(request.user, pk)
    try:
        annotation = services.item_claim(request.user, item)
    except (NotVisible, NotAllowed):
        raise
    except WorkspaceError as exc:
        messages.error(request, exc.message)
        return redirect("annotations:queue", slug=item.queue.slug)
    return redirect("annotations:edit", pk=annotation.pk)


@require_GET
@workspace_view
def annotation_edit(request, pk: int):
    annotation = selectors.annotation_get_own(request.user, pk)
    context = editor_context(annotation, user=request.user)
    template = {QueueKind.EXPLAIN: "annotations/explain.html", QueueKind.FIX: "annotations/fix.html",
                QueueKind.DOCQA: "annotations/docqa.html"}[annotation.item.kind]
    return render(request, template, context)


@require_POST
@workspace_view
def annotation_save(request, pk: int):
    """Autosave (htmx): answers the save indicator, which says when it saved or what is wrong."""
    annotation = selectors.annotation_get_own(request.user, pk)
    try:
        annotation = _save_from_post(request, annotation)
        context = {"annotation": annotation, "saved": True}
    except WorkspaceError as exc:
        context = {"annotation": annotation, "error": exc.message}
    response = render(request, "annotations/partials/save_state.html", context)
    add_never_cache_headers(response)
    return response


@require_POST
@workspace_view
def fix_evaluate(request, pk: int):
    annotation = selectors.annotation_get_own(request.user, pk)
    error = ""
    try:
        _save_from_post(request, annotation)
        services.fix_evaluate(request.user, annotation, request.POST.get("fixed_kernel", ""))
    except (NotVisible, NotAllowed):
        raise
    except WorkspaceError as exc:
        error = exc.message
    annotation.refresh_from_db()
    response = render(request, "annotations/partials/fix_status.html",
                      {**fix_status_context(annotation), "error": error})
    add_never_cache_headers(response)
    return response


@require_GET
@workspace_view
def fix_status(request, pk: int):
    annotation = selectors.annotation_get_own(request.user, pk)
    response = render(request, "annotations/partials/fix_status.html", fix_status_context(annotation))
    add_never_cache_headers(response)
    return response


@require_POST
@workspace_view
def annotation_submit(request, pk: int):
    annotation = selectors.annotation_get_own(request.user, pk)
    try:
        if annotation.status in services.EDITABLE:
            _save_from_post(request, annotation)
        services.annotation_submit(request.user, annotation, spent_s=0)
    except (NotVisible, NotAllowed):
        raise
    except WorkspaceError as exc:
        messages.error(request, exc.message)
        return redirect("annotations:edit", pk=annotation.pk)
    messages.success(request, f"Submitted for review: {annotation.item.title}.")
    return redirect("annotations:home")


# --- review ------------------------------------------------------------------------------------


@require_GET
@workspace_view
def review_list(request):
    if not roles.can_review(request.user):
        raise Denied("Reviewing annotations", roles.NEED_REVIEW)
    recent = (Annotation.objects.filter(status__in=[Status.APPROVED, Status.CHANGES_REQUESTED])
              .exclude(reviewed_at=None).select_related("item", "item__queue", "annotator", "reviewer")
              .order_by("-reviewed_at")[:15])
    return render(request, "annotations/review_list.html",
                  {"backlog": selectors.review_backlog(request.user), "recent": recent})


@require_GET
@workspace_view
def review_item(request, pk: int):
    if not roles.can_review(request.user):
        raise Denied("Reviewing annotations", roles.NEED_REVIEW)
    item = selectors.item_get_visible(request.user, pk)
    return render(request, "annotations/review.html", review_context(item, user=request.user))


@require_POST
@workspace_view
def review_decide(request, pk: int):
    annotation = selectors.annotation_get_visible(request.user, pk)
    decision = request.POST.get("decision")
    try:
        if decision == "approve":
            services.review_approve(request.user, annotation, note=request.POST.get("note", ""))
            messages.success(request, f"Approved {annotation.annotator.get_username()}'s annotation.")
        elif decision == "changes":
            comments = [("", request.POST.get("note", ""))]
            for kind in [*(k.key for k in section_kinds(annotation.item.kind)), "diagnosis", "kernel"]:
                comments.append((kind, request.POST.get(f"c-{kind}", "")))
            services.review_request_changes(request.user, annotation, comments=comments)
            messages.success(request, f"Changes requested from {annotation.annotator.get_username()}.")
        else:
            messages.error(request, "Choose approve or request changes.")
    except NotVisible:
        raise
    except WorkspaceError as exc:
        messages.error(request, exc.message)
        return redirect("annotations:review_item", pk=annotation.item_id)
    return redirect("annotations:review_list")


@require_POST
@workspace_view
def review_merge(request, pk: int):
    item = selectors.item_get_visible(request.user, pk)
    try:
        base = selectors.annotation_get_visible(request.user, int(request.POST.get("base", "0")))
        if base.item_id != item.pk:
            raise NotVisible("No such annotation.")
        picks = {}
        for kind in section_kinds(item.kind):
            value = request.POST.get(f"pick-{kind.key}")
            if value:
                picks[kind.key] = int(value)
        services.review_merge(request.user, base, picks=picks)
    except ValueError:
        messages.error(request, "Pick the annotation to start from.")
        return redirect("annotations:review_item", pk=item.pk)
    except NotVisible:
        raise
    except WorkspaceError as exc:
        messages.error(request, exc.message)
        return redirect("annotations:review_item", pk=item.pk)
    messages.success(request, "Merged and approved.")
    return redirect("annotations:review_list")


@require_GET
@workspace_view
def dashboard(request):
    data = selectors.dashboard(request.user)
    return render(request, "annotations/dashboard.html", {"data": data})


@workspace_view
def role_admin(request):
    """Workspace admins grant and take away the annotator, reviewer and admin roles."""
    if not roles.can_manage(request.user):
        raise Denied("Granting roles", roles.NEED_MANAGE)
    if request.method == "POST":
        person = services.user_by_name(request.POST.get("username", "").strip())
        role = request.POST.get("role", "")
        if person is None:
            messages.error(request, "No such user; they need an account first (sign up).")
        else:
            try:
                if request.POST.get("action") == "revoke":
                    roles.role_revoke(person, role)
                    messages.success(request, f"{person.get_username()} is no longer {role}.")
                else:
                    roles.role_grant(person, role)
                    messages.success(request, f"{person.get_username()} is now {role}.")
            except roles.UnknownRole as exc:
                messages.error(request, str(exc))
        return redirect("annotations:roles")
    return render(request, "annotations/roles.html", {"people": roles.people_with_roles()})
