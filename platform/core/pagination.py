"""Pages of long lists whose exact length is not worth a full count.

A task sampled by an RL loop holds a million submissions; COUNT(*) over them costs more than the
page itself. The paginator counts at most ``cap`` + 1 rows (a LIMIT inside the count), so the
list says "10,000+" and pages through the first ``cap`` rows; filters narrow it further.
"""

from __future__ import annotations

from functools import cached_property

from django.core.paginator import Paginator

COUNT_CAP = 10_000


class CappedPaginator(Paginator):
    def __init__(self, object_list, per_page, *, cap: int = COUNT_CAP, **kwargs) -> None:
        super().__init__(object_list, per_page, **kwargs)
        self.cap = cap

    @cached_property
    def count(self) -> int:
        """The number of rows, or cap + 1 when there are more than cap."""
        return self.object_list.order_by().values("pk")[: self.cap + 1].count()

    @property
    def capped(self) -> bool:
        """True when the list is longer than it says (shown as "cap+")."""
        return self.count > self.cap
