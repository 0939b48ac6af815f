from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

MAX_OFFSET = 10**12  # keeps OFFSET within a bigint


class Pagination(LimitOffsetPagination):
    """?limit= (default 100, at most 1000) and ?offset=; anything else is a 400, not silently ignored."""

    default_limit = 100
    max_limit = 1000

    def _param(self, request, name: str, default: int, maximum: int) -> int:
        raw = request.query_params.getlist(name)
        if not raw:
            return default
        value = raw[0]
        if len(raw) > 1 or not (value.isascii() and value.isdigit()) or len(value) > 13 or int(value) > maximum:
            raise ValidationError({name: [f"must be one integer between 0 and {maximum}"]})
        return int(value)

    def get_limit(self, request):
        return max(1, self._param(request, self.limit_query_param, self.default_limit, self.max_limit))

    def get_offset(self, request):
        return self._param(request, self.offset_query_param, 0, MAX_OFFSET)

    def get_schema_operation_parameters(self, view):
        params = super().get_schema_operation_parameters(view)
        for param in params:
            param["schema"]["minimum"] = 0
            param["schema"]["maximum"] = self.max_limit if param["name"] == self.limit_query_param else MAX_OFFSET
        return params
