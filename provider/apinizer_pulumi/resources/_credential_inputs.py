"""The inputs of a ``Credential``, validated offline by ``check``: imported by the provider only.

Kept apart from ``credential.py`` so that a program that declares credentials never imports pydantic.
"""

from __future__ import annotations

from pydantic import Field

from apinizer_pulumi.models import CredentialAccess, CredentialSpec, Name


class CredentialInputs(CredentialSpec):
    """The credential's fields, where it lives, its declared access and whether to take it over."""

    project_name: Name
    access: list[CredentialAccess] = Field(default_factory=list)
    adopt: bool = False
