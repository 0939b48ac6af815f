"""Long lists are paged without counting every row."""

import pytest
from django.contrib.auth import get_user_model

from core.pagination import CappedPaginator

pytestmark = pytest.mark.django_db


def test_counts_stop_at_the_cap_and_say_so():
    users = get_user_model().objects
    users.bulk_create([get_user_model()(username=f"u{i}") for i in range(7)])
    short = CappedPaginator(users.order_by("pk"), 2, cap=10)
    assert (short.count, short.capped, short.num_pages) == (7, False, 4)
    long = CappedPaginator(users.order_by("pk"), 2, cap=5)
    assert (long.count, long.capped) == (6, True)
    assert [u.username for u in long.get_page(3).object_list] == ["u4", "u5"]
