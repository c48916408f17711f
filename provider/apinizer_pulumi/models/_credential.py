"""Credentials (the clients that call the APIs) and their access to API proxies and proxy groups.

Every field, default and enum is the product documentation's:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/crud/create-credential.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/access/grant-access.md

A password is written (create, update, change password) and never read back: the list answers
``"password": null``. Models that carry one keep it out of their ``repr``.
"""

from __future__ import annotations

import ipaddress
import re
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from ._base import ApiModel, Name
from ._project import ResultEnvelope

__all__ = [
    "AccessType",
    "Credential",
    "CredentialAccess",
    "CredentialAccessList",
    "CredentialAccessResponse",
    "CredentialList",
    "CredentialPasswordChange",
    "CredentialSpec",
    "CredentialWithAccess",
    "credential_ip_problem",
    "expire_date_problem",
]


class AccessType(StrEnum):
    """``EnumAccessType``: what a credential's access names."""

    API_PROXY = "API_PROXY"
    API_PROXY_GROUP = "API_PROXY_GROUP"


#: A deliberately loose address check: one ``@`` with text on both sides and no spaces. The docs ask
#: for "a valid email address format" without saying whose; a stricter rule would refuse real ones.
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")


def credential_ip_problem(value: str) -> str | None:
    """Why ``value`` is neither an IP address nor a CIDR range (``ipaddress``'s words), or None."""
    try:
        if "/" in value:
            ipaddress.ip_network(value, strict=True)
        else:
            ipaddress.ip_address(value)
    except ValueError as error:
        return f"{value!r} is not an IP address or CIDR range ({error})"
    return None


def expire_date_problem(value: str) -> str | None:
    """Why ``value`` is not an ISO 8601 date-time with a time zone (``2024-12-31T23:59:59.000Z``), or None."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return f"{value!r} is not an ISO 8601 date-time such as 2024-12-31T23:59:59.000Z"
    if parsed.tzinfo is None:
        return f"{value!r} has no time zone: end it with Z (UTC), as 2024-12-31T23:59:59.000Z"
    return None


def _email(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    if not _EMAIL.match(value):
        raise ValueError(f"{value!r} is not an email address")
    return value


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


def _ips(values: list[str]) -> list[str]:
    for value in values:
        problem = credential_ip_problem(value)
        if problem is not None:
            raise ValueError(problem)
    return values


def _expire_date(value: str | None) -> str | None:
    if value is not None:
        problem = expire_date_problem(value)
        if problem is not None:
            raise ValueError(problem)
    return value


def _role_names(values: list[str]) -> list[str]:
    for value in values:
        if not value.strip():
            raise ValueError("role names must not be empty")
    return values


Email = Annotated[str, AfterValidator(_email)]
FullName = Annotated[str, AfterValidator(_not_blank)]
Password = Annotated[str, Field(min_length=1, repr=False), AfterValidator(_not_blank)]
IpList = Annotated[list[str], AfterValidator(_ips)]
ExpireDate = Annotated[str | None, AfterValidator(_expire_date)]
RoleNameList = Annotated[list[str], AfterValidator(_role_names)]


class CredentialSpec(ApiModel):
    """The body of create (``POST .../credentials/``) and update (``PUT .../credentials/``).

    ``username`` names the credential (unique across all credentials; an update cannot change
    it). Defaults are the documented ones: no roles, enabled, no IP restriction, no expiry.
    ``ip_list`` holds addresses or CIDR ranges; ``expire_date`` is ISO 8601 in UTC.
    """

    email: Email
    full_name: FullName
    description: str | None = None
    username: Name
    password: Password
    role_name_list: RoleNameList = Field(default_factory=list)
    enabled: bool = True
    ip_list: IpList = Field(default_factory=list)
    expire_date: ExpireDate = None

    def to_api(self) -> dict[str, Any]:
        """The API's JSON, every field; ``expireDate`` an explicit null, as the documented bodies send it."""
        body = self.model_dump(mode="json", by_alias=True, exclude_none=True)
        body.setdefault("expireDate", None)
        return body


class Credential(ApiModel):
    """A credential as the list answers it. ``password`` is always null there, and kept out of reprs."""

    email: str | None = None
    full_name: str | None = None
    description: str | None = None
    username: str
    password: str | None = Field(default=None, repr=False)
    role_name_list: list[str] = Field(default_factory=list)
    enabled: bool = True
    ip_list: list[str] = Field(default_factory=list)
    expire_date: str | None = None


class CredentialList(ResultEnvelope):
    """``GET .../credentials/``: the project's credentials, passwords null."""

    result_list: list[Credential] = Field(default_factory=list)


class CredentialPasswordChange(ApiModel):
    """The body of ``PATCH .../credentials/{username}/``: the new password, nothing else."""

    password: Password


class CredentialAccess(ApiModel):
    """One access of a credential: an API proxy or an API proxy group, by name."""

    name: Name
    type: AccessType


class CredentialAccessList(ApiModel):
    """The body of grant (``PUT .../access/``) and revoke (``DELETE .../access/``): always a list."""

    credential_access_list: list[CredentialAccess]

    def to_api(self) -> dict[str, Any]:
        return {
            "credentialAccessList": [
                item.model_dump(mode="json", by_alias=True) for item in self.credential_access_list
            ]
        }


class CredentialAccessResponse(ResultEnvelope):
    """``GET .../credentials/{username}/access/``: what the credential may call (empty when nothing)."""

    result_list: list[CredentialAccess] = Field(default_factory=list)


class CredentialWithAccess(Credential):
    """A credential as the list answers it, with what its access list answers (``get_credentials``)."""

    access: list[CredentialAccess] = Field(default_factory=list)
