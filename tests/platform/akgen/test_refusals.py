"""Every refusal is the site's page saying what was refused, the permission it needs and who
can grant it; and no navigation link leads a user to such a refusal.

The roles: a visitor, a plain account, annotator, reviewer, workspace admin, curator, staff.
For each, the links in the site's navigation, the section tabs and the page actions of the pages
they can open must all open (no 403, no bounce to the login page).
"""

from __future__ import annotations

import re

import pytest

from annotations.roles import role_grant

pytestmark = pytest.mark.django_db

#: (path, who is refused, the action, the permission named)
REFUSALS = [
    ("/workspace/", "plain", "The expert workspace", "annotations.annotate"),
    ("/workspace/review/", "annotator", "Reviewing annotations", "annotations.review"),
    ("/workspace/roles/", "reviewer", "Granting roles", "annotations.manage"),
    ("/workspace/queues/new/", "annotator", "Creating and editing queues", "annotations.manage"),
    ("/releases/new/", "annotator", "Building releases", "releases.curate"),
    ("/leaderboard/review/", "curator", "Reviewing flagged and reported results", "staff"),
]


@pytest.fixture
def people(django_user_model):
    users = {}
    for name in ("plain", "annotator", "reviewer", "admin", "curator"):
        users[name] = django_user_model.objects.create_user(name, password="pw-refusal-123")
        if name != "plain":
            role_grant(users[name], name)
    users["staff"] = django_user_model.objects.create_user("staffer", password="pw-refusal-123", is_staff=True)
    return users


@pytest.mark.parametrize(("path", "who", "action", "permission"), REFUSALS)
def test_a_refusal_says_what_is_missing_and_who_grants_it(client, people, path, who, action, permission):
    client.force_login(people[who])
    response = client.get(path)
    html = response.content.decode()
    assert response.status_code == 403
    assert f"{action} needs <strong>" in html and f"your account ({people[who].username})" in html
    assert f'<code data-testid="denied-permission">{permission}</code>' in html
    granted_by = re.search(r'data-testid="denied-granted-by">([^<]+)', html).group(1)
    assert ("superuser" in granted_by) if permission == "staff" else ("workspace admin" in granted_by.lower())
    assert 'class="brand"' in html  # the site's page, not a bare text response


def test_an_api_refusal_names_the_permission_too(client, people):
    from accounts.services import token_create

    key = token_create(user=people["annotator"], name="t", scopes=["read", "export"]).key
    response = client.post("/api/v1/releases/", {}, HTTP_AUTHORIZATION=f"Bearer {key}", content_type="application/json")
    assert response.status_code == 403
    assert response.json()["message"].startswith("Building releases needs the curator role (releases.curate)")


NAV = re.compile(r"<nav\b[^>]*>(.*?)</nav>|<div class=\"page-actions\">(.*?)</div>", re.S)
HREF = re.compile(r'href="(/[^"#?]*)')
START = ["/", "/tasks/", "/leaderboard/", "/workspace/", "/releases/", "/accounts/profile/"]
SKIP = ("/static/", "/admin/", "/api/docs", "/healthz", "/accounts/logout", "/accounts/login", "/accounts/signup")


def _links(html: str) -> set[str]:
    found = set()
    for block in NAV.finditer(html):
        found |= set(HREF.findall(block.group(1) or block.group(2) or ""))
    return {link for link in found if not link.startswith(SKIP)}


@pytest.mark.parametrize("who", ["visitor", "plain", "annotator", "reviewer", "admin", "curator", "staff"])
def test_navigation_shows_only_what_the_user_can_open(client, people, who):
    if who != "visitor":
        client.force_login(people[who])
    seen, links = set(), set()
    for start in START:
        response = client.get(start)
        if response.status_code == 200:
            seen.add(start)
            links |= _links(response.content.decode())
    assert "/tasks/" in seen and links
    refused = []
    for link in sorted(links):
        response = client.get(link)
        if response.status_code == 403 or (response.status_code == 302 and "/login" in response["Location"]):
            refused.append(f"{link} -> {response.status_code}")
    assert not refused, f"{who} is shown links it cannot use: {refused}"
