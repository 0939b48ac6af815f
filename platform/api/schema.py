"""The API's OpenAPI generator: drf-spectacular's, told which reads are public.

Why: a ``public_read`` view answers anonymous GETs (api.permissions.HasScope), and the schema
must say so (security ``{}`` beside the token), or clients and schema checkers expect a 401.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from rest_framework.permissions import SAFE_METHODS


class ApiSchema(AutoSchema):
    def get_auth(self):
        auths = super().get_auth()
        if getattr(self.view, "public_read", False) and self.method in SAFE_METHODS and {} not in auths:
            auths.append({})
        return auths
