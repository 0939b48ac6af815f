"""A phone (390 px wide, issue #22): no page is wider than the screen — the menu wraps, wide
tables and charts scroll inside their box — and nothing in the console fails."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

PAGES = ["/", "/tasks/", "/tasks/abs_fp16/", "/leaderboard/", "/leaderboard/taxonomy/", "/leaderboard/heatmap/",
         "/submissions/compare/"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_pages_fit_a_390_px_screen(live_server, browser, screenshot):
    from submissions.models import LanguageModel, Run
    from tasks.models import Task
    from tasks.services import task_sync_from_suite
    from tests.platform.leaderboard.conftest import judge

    task_sync_from_suite()
    owner = get_user_model().objects.create_user("phone-lab")
    run = Run.objects.create(model=LanguageModel.objects.create(owner=owner, name="a-rather-long-model-name-8b"),
                             name="k2 temperature 0.8", samples_per_task=2)
    for i, task in enumerate(Task.objects.order_by("slug")[:6]):
        judge(task=task, kernel=f"// {i}\n", outcome="passed" if i % 2 else "compile_error", speedup=1.2,
              author=owner, run=run, sample_index=0)
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        for path in [*PAGES, f"/runs/{run.pk}/"]:
            page.goto(live_server.url + path)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{path} is {width} px wide on a 390 px screen"
        screenshot(page, "narrow-run-page")
        assert errors == []
    finally:
        context.close()
    # On a wide screen the compare page's two cards line up.
    wide = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = wide.new_page()
        a, b = (s.pk for s in run.submissions.order_by("pk")[:2])
        same_task = run.submissions.get(pk=a).task_id == run.submissions.get(pk=b).task_id
        if not same_task:  # one sample per task here: compare two of the first task's instead
            task = run.submissions.get(pk=a).task
            b = judge(task=task, kernel="// other\n", outcome="passed", speedup=1.0, author=owner).pk
        page.goto(f"{live_server.url}/submissions/compare/?a={a}&b={b}")
        tops = page.evaluate("[...document.querySelectorAll('.compare-side')].map(e => e.getBoundingClientRect().top)")
        assert len(tops) == 2 and tops[0] == tops[1], tops
    finally:
        wide.close()
