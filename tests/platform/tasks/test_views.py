"""Task pages on the real database: the filterable list, the task page, its submissions, the editor."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from submissions import intake
from submissions.models import Evaluation, Submission
from tasks.models import Task
from tests.platform.tasks.samples import EXPERT, PASSED, WRONG_ANSWER, judge_row, make_add_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def suite(db):
    make_add_task("add", title="Add")
    make_add_task("relu", title="ReLU", category="activation", dtypes=("float16", "float32"))
    make_add_task("softmax", title="Softmax", level=2, category="nn", shape_mode="dynamic", dtypes=("float32",))
    make_add_task("layernorm", title="LayerNorm", level=3, category="norm", dtypes=("bfloat16",))
    return Task.objects.all()


def _judged(task_slug, result, *, author=None, visibility="public", kernel=EXPERT):
    created = intake.submission_create(task_slug=task_slug, path="device_only", kernel=kernel, author=author,
                                         visibility=visibility)
    judge_row(created.evaluation, result)
    return created.submission


def _slugs(response) -> list[str]:
    return [task.slug for task in response.context["page"].object_list]


def test_list_shows_every_task_with_filters(client, suite):
    response = client.get("/tasks/")
    assert response.status_code == 200
    assert _slugs(response) == ["add", "relu", "softmax", "layernorm"]
    html = response.content.decode()
    assert 'id="task-filters"' in html
    assert '<option value="bfloat16"' in html  # dtype choices come from the suite


@pytest.mark.parametrize(
    "query, expected",
    [
        ("level=2", ["softmax"]),
        ("category=activation", ["relu"]),
        ("shape_mode=dynamic", ["softmax"]),
        ("dtype=float32", ["relu", "softmax"]),
        ("dtype=float16&level=1", ["add", "relu"]),
        ("q=norm", ["layernorm"]),
        ("q=SOFT", ["softmax"]),
        ("level=banana", ["add", "relu", "softmax", "layernorm"]),
        ("dtype=<script>", ["add", "relu", "softmax", "layernorm"]),
        ("sort=-title", ["softmax", "relu", "layernorm", "add"]),
    ],
)
def test_list_filters_and_sorts(client, suite, query, expected):
    assert _slugs(client.get(f"/tasks/?{query}")) == expected


def test_htmx_request_gets_only_the_results_partial(client, suite):
    response = client.get("/tasks/?level=1&q=re", headers={"HX-Request": "true", "HX-Target": "task-results"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and 'id="task-filters"' not in html
    assert 'data-slug="relu"' in html and 'data-slug="add"' not in html
    # The filters stay in the links the partial renders (sort headers keep q and level).
    assert "q=re" in html and "level=1" in html
    assert "HX-Request" in response["Vary"]
    # A history restore gets the whole page.
    full = client.get("/tasks/?level=1", headers={"HX-Request": "true", "HX-Target": "task-results",
                                                  "HX-History-Restore-Request": "true"})
    assert 'id="task-filters"' in full.content.decode()


def test_list_counts_results_of_current_version(client, suite, user):
    _judged("add", PASSED, author=user)
    _judged("add", WRONG_ANSWER, author=user)
    _judged("add", PASSED, author=user, visibility="private")
    rows = {t.slug: t for t in client.get("/tasks/").context["page"].object_list}
    assert (rows["add"].n_judged, rows["add"].n_passed) == (3, 2)
    assert rows["add"].best_speedup == pytest.approx(PASSED["speedup"])
    assert (rows["relu"].n_judged, rows["relu"].n_passed, rows["relu"].best_speedup) == (0, 0, None)
    assert _slugs(client.get("/tasks/?sort=-passed"))[0] == "add"


def test_list_paginates_and_does_not_query_per_row(client, django_assert_max_num_queries, user):
    for i in range(60):
        make_add_task(f"t{i:02d}", title=f"Task {i:02d}")
    _judged("t00", PASSED, author=user)
    with django_assert_max_num_queries(6):
        response = client.get("/tasks/")
    assert len(response.context["page"].object_list) == 50
    assert response.context["page"].paginator.num_pages == 2
    second = client.get("/tasks/?page=2")
    assert len(second.context["page"].object_list) == 10
    assert "Page 2 of 2" in second.content.decode()


def test_task_page_renders_markdown_safely_with_spec_and_stats(client, user):
    task = make_add_task()
    _judged("add", PASSED, author=user)
    _judged("add", WRONG_ANSWER, author=user)
    response = client.get(f"/tasks/{task.slug}/")
    html = response.content.decode()
    assert response.status_code == 200
    description = html.split('data-testid="api-desc">', 1)[1].split("</section>", 1)[0]
    assert "<h2>Shapes and dtypes</h2>" in description and "<h1>" not in description  # title not repeated
    assert "<script>alert" not in html and "&lt;script&gt;alert" in html  # raw HTML is text
    assert '<span class="n">add_custom</span>' in html  # fenced C++ highlighted
    assert 'data-testid="cases"' in html and "N=131072" in html
    assert 'data-testid="tolerances"' in html
    stats = response.context["stats"]
    assert (stats.judged, stats.passed) == (2, 1)
    assert dict(stats.verdicts) == {"passed": 1, "wrong_answer": 1}
    assert [round(e.speedup, 2) for e in response.context["board_entries"]] == [1.05]  # only the pass is ranked
    assert 'data-testid="stat-best"' in html and "1.05×" in html
    assert 'data-testid="write-kernel"' in html


def test_task_page_tolerates_a_minimal_spec(client):
    from tests.platform.factories import make_task

    make_task("tiny")
    response = client.get("/tasks/tiny/")
    assert response.status_code == 200
    assert response.context["stats"].judged == 0


def test_unknown_task_is_404(client):
    assert client.get("/tasks/nope/").status_code == 404


def test_task_submissions_hide_private_ones_of_others(client, user):
    make_add_task()
    mine_private = _judged("add", PASSED, author=user, visibility="private")
    other = get_user_model().objects.create_user("bob", password="pw-bob-123456")
    public = _judged("add", WRONG_ANSWER, author=other)
    hidden = _judged("add", PASSED, author=other, visibility="private")
    anonymous = [s.pk for s in client.get("/tasks/add/submissions/").context["page"].object_list]
    assert anonymous == [public.pk]
    client.force_login(user)
    mine = [s.pk for s in client.get("/tasks/add/submissions/").context["page"].object_list]
    assert set(mine) == {public.pk, mine_private.pk}
    assert hidden.pk not in mine
    passed_only = client.get("/tasks/add/submissions/?verdict=passed").context["page"].object_list
    assert [s.pk for s in passed_only] == [mine_private.pk]


def test_task_submissions_list_has_no_n_plus_one(client, user, django_assert_max_num_queries):
    make_add_task()
    for _ in range(12):
        _judged("add", PASSED, author=user)
    with django_assert_max_num_queries(6):
        response = client.get("/tasks/add/submissions/")
    assert response.status_code == 200
    assert len(response.context["page"].object_list) == 12


def test_submit_page_needs_login(client):
    make_add_task()
    response = client.get("/tasks/add/submit/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/tasks/add/submit/"


def test_submit_page_starts_from_template(client, user):
    make_add_task()
    client.force_login(user)
    response = client.get("/tasks/add/submit/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-editor="cpp"' in html
    assert "// TODO: copy x and y in tiles" in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert 'id="template-kernel" type="application/json"' in html


def test_submit_creates_a_submission_and_redirects_to_it(client, user, django_capture_on_commit_callbacks):
    make_add_task()
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post("/tasks/add/submit/", {"path": "device_only", "kernel": EXPERT, "host": "ignored",
                                                      "visibility": "private"})
    submission = Submission.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/submissions/{submission.pk}/"
    assert submission.author == user and submission.visibility == "private"
    assert submission.host_source is None  # device-only: the fixed host driver is used
    assert submission.kernel_source == EXPERT
    assert Evaluation.objects.get().status == "queued"
    assert len(callbacks) == 1  # queued after commit


def test_rejected_submission_reshows_the_form_with_message_and_source(client, user):
    make_add_task()
    client.force_login(user)
    kernel = "int main() { return 0; }\n// <b>keep me</b>\n" + "x" * (64 * 1024)
    response = client.post("/tasks/add/submit/", {"path": "device_only", "kernel": kernel, "visibility": "public"})
    html = response.content.decode()
    assert response.status_code == 400
    assert Submission.objects.count() == 0
    assert "the limit is 65536 bytes" in html
    assert "// &lt;b&gt;keep me&lt;/b&gt;" in html  # the source is kept, escaped
    missing_host = client.post("/tasks/add/submit/", {"path": "host_device", "kernel": EXPERT, "host": "",
                                                      "visibility": "public"})
    assert missing_host.status_code == 400
    assert "The host source is missing or empty" in missing_host.content.decode()
    assert 'data-testid="host-error"' in missing_host.content.decode()


def test_submit_is_rate_limited_with_the_api_allowance(client, user, settings):
    make_add_task()
    settings.AKGEN_RATE_SUBMIT_USER_PER_MIN = 1
    client.force_login(user)
    assert "1 of 1 submissions left this minute" in client.get("/tasks/add/submit/").content.decode()
    form = {"path": "device_only", "kernel": EXPERT, "visibility": "public"}
    assert client.post("/tasks/add/submit/", form).status_code == 302
    refused = client.post("/tasks/add/submit/", {**form, "kernel": EXPERT + "// again\n"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    html = refused.content.decode()
    assert "1 submissions a minute" in html and "// again" in html
    assert Submission.objects.count() == 1


def test_submit_respects_the_pending_evaluations_cap(client, user, settings):
    """The web form applies the API's concurrency cap: queued work counts against it."""
    make_add_task()
    settings.AKGEN_MAX_PENDING_PER_USER = 1
    client.force_login(user)
    form = {"path": "device_only", "kernel": EXPERT, "visibility": "public"}
    assert client.post("/tasks/add/submit/", form).status_code == 302
    refused = client.post("/tasks/add/submit/", {**form, "kernel": EXPERT + "// second\n"})
    html = refused.content.decode()
    assert refused.status_code == 429
    assert "the limit is 1" in html and "// second" in html
    assert Submission.objects.count() == 1


def test_submit_can_start_from_a_visible_submission(client, user):
    make_add_task()
    source = _judged("add", WRONG_ANSWER, author=user, kernel=EXPERT + "// mine\n")
    client.force_login(user)
    response = client.get(f"/tasks/add/submit/?from={source.pk}")
    assert "// mine" in response.content.decode()
    assert response.context["start"] == source


def test_the_tensor_table_is_shown_once(client):
    """A description that lists every tensor in its own table (the suite's api_desc.md files do)
    is not followed by the same table again; one that does not gets the derived table."""
    from tasks.services import task_sync_from_suite

    task_sync_from_suite()
    html = client.get("/tasks/abs_fp16/").content.decode()
    description = html.split('data-testid="api-desc">', 1)[1].split("</section>", 1)[0]
    assert "<td>x</td>" in description and 'data-testid="tensors"' not in html
    task = make_add_task()
    version = task.current_version
    version.api_desc = "Adds two vectors."
    version.save()
    assert 'data-testid="tensors"' in client.get(f"/tasks/{task.slug}/").content.decode()
