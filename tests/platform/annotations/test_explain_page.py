"""The explain editor shows, beside the code, the task and the kernel's measured result (cycles
per case, pipe busy time, the timeline): what an explanation's performance section cites."""

from __future__ import annotations

import pytest

from annotations import services
from tests.platform.annotations.conftest import EXPERT, submit
from tests.platform.annotations.test_permissions import client_for

pytestmark = pytest.mark.django_db

MEASURED = {"verdict": "passed", "stage": "done", "speedup": 1.0,
            "cases": [{"name": "small", "passed": True, "perf": {"cycles": 4321, "est_us": 2.4}}],
            "perf": {"cycles": 4321, "est_us": 2.4, "pipes": {"MTE2": 2600, "V": 900, "MTE3": 700},
                     "per_case": [{"name": "small", "cycles": 4321, "est_us": 2.4}],
                     "timeline": [{"core": 0, "pipe": "MTE2", "start": 0, "end": 2600, "api": "DataCopy"}]}}


def test_an_expert_item_shows_its_task_and_measured_result(people, add_task, explain_queue):
    item = services.fill_expert_kernels(explain_queue)[0]
    annotation = services.item_claim(people["ann"], item)
    page = client_for(people["ann"]).get(f"/workspace/a/{annotation.pk}/").content.decode()
    assert 'data-testid="measured-none"' in page and f"akgen eval --task {add_task.slug}" in page

    run = submit(add_task, EXPERT, MEASURED, author=people["bob"])  # someone judged this exact kernel
    page = client_for(people["ann"]).get(f"/workspace/a/{annotation.pk}/").content.decode()
    assert 'data-testid="measured-none"' not in page
    assert f'href="/submissions/{run.pk}/"' in page
    cases = page[page.index('data-testid="measured-cases"'):page.index("</table>", page.index('data-testid="measured-cases"'))]
    assert "small" in cases and "4,321" in cases
    pipes = page[page.index('data-testid="measured-pipes"'):]
    assert "MTE2" in pipes and "2,600" in pipes
    assert 'id="measured-timeline"' in page and "dist/charts.js" in page
    assert f'href="/tasks/{add_task.slug}/"' in page


def test_a_private_run_is_not_cited(people, add_task, explain_queue):
    item = services.fill_expert_kernels(explain_queue)[0]
    annotation = services.item_claim(people["ann"], item)
    run = submit(add_task, EXPERT, MEASURED, author=people["bob"])
    run.visibility = "private"
    run.save()
    page = client_for(people["ann"]).get(f"/workspace/a/{annotation.pk}/").content.decode()
    assert 'data-testid="measured-none"' in page
