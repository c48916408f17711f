"""Fixtures: the YAML file that declares users, tokens, projects, proxies, endpoints and RLCLs.

The file's own structure is snake_case; the API structures embedded in it (RLCL entries,
cache and WS-Addressing settings) are written as the API writes them (camelCase) and are
validated with the shared models, so a fixture can never hold what the API would refuse.
"""

from __future__ import annotations

import datetime as dt
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from apinizer_pulumi.models import (
    CacheSettings,
    EndpointRateLimit,
    EnvironmentType,
    HttpMethod,
    PublishStatus,
    SharingType,
    WsaSettings,
)

DEFAULT_FIXTURE = "default_fixture.yaml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class UserFixture(_Strict):
    username: str = Field(min_length=1)
    password: str = Field(min_length=1, repr=False)
    roles: list[str] = Field(default_factory=list)
    system_role: Literal["admin", "analyzer"] | None = None


class TokenFixture(_Strict):
    """A personal token. ``expires`` is ``never`` (or omitted), a date (valid through that day, UTC)
    or an ISO date-time."""

    value: str = Field(min_length=1, repr=False)
    user: str
    name: str = Field(min_length=1)
    expires: dt.datetime | dt.date | Literal["never"] | None = None
    revoked: bool = False

    @field_validator("expires", mode="before")
    @classmethod
    def _date_only_string_is_a_date(cls, value: Any) -> Any:
        # "2030-12-31" quoted in YAML must mean the whole day, not its first instant.
        if isinstance(value, str) and len(value) == 10:
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                return value
        return value

    def expires_at(self) -> float | None:
        return expiry_timestamp(self.expires)


class PolicyFixture(_Strict):
    """A policy in a list. Without ``settings`` it is known by its summary alone (any type);
    ``settings`` holds the type's own fields as the API writes them (camelCase, with
    ``policyCondition`` and ``errorMessageList`` if any), and the whole policy is then validated
    with the client's model of its type."""

    type: str
    name: str = Field(min_length=1)
    description: str | None = None
    active: bool = True
    settings: dict[str, Any] | None = None


class EndpointFixture(_Strict):
    name: str = Field(min_length=1)
    http_method: HttpMethod
    id: str | None = None
    description: str | None = None
    active: bool = True
    backend_resource_url: str | None = None
    backend_http_method: HttpMethod | None = None
    request_policies: list[PolicyFixture] = Field(default_factory=list)
    response_policies: list[PolicyFixture] = Field(default_factory=list)
    error_policies: list[PolicyFixture] = Field(default_factory=list)
    cache_settings: CacheSettings | None = None
    wsa_settings: WsaSettings | None = None


class ProxyFixture(_Strict):
    name: str = Field(min_length=1)
    type: Literal["REST", "SOAP"] = "REST"
    sharing_type: SharingType = SharingType.INTERNAL
    access_list: list[dict[str, Any]] = Field(default_factory=list)
    endpoints: list[EndpointFixture] = Field(default_factory=list)
    description: str | None = None
    #: The client route's first path; ``/<name>`` when not given.
    relative_path: str | None = None
    #: Environments the proxy is deployed to (the fixture's state as deployed).
    deployed_to: list[str] = Field(default_factory=list)
    #: The proxy's own policies (scope ALL), per pipeline, in order.
    request_policies: list[PolicyFixture] = Field(default_factory=list)
    response_policies: list[PolicyFixture] = Field(default_factory=list)
    error_policies: list[PolicyFixture] = Field(default_factory=list)


class EnvironmentFixture(_Strict):
    """A deployment target. A deployment to an environment that is not PUBLISHED fails."""

    name: str = Field(min_length=1)
    description: str | None = None
    type: EnvironmentType | None = None
    status: PublishStatus = PublishStatus.PUBLISHED
    access_url: str | None = None


class RlclFixture(_Strict):
    name: str = Field(min_length=1)
    endpoint_rate_limit_list: list[EndpointRateLimit] = Field(default_factory=list)


class ProjectFixture(_Strict):
    name: str = Field(min_length=1)
    description: str | None = None
    api_proxies: list[ProxyFixture] = Field(default_factory=list)
    rlcls: list[RlclFixture] = Field(default_factory=list)


class Fixture(_Strict):
    """The whole fixture file."""

    users: list[UserFixture] = Field(default_factory=list)
    tokens: list[TokenFixture] = Field(default_factory=list)
    projects: list[ProjectFixture] = Field(default_factory=list)
    environments: list[EnvironmentFixture] = Field(default_factory=list)
    data_model_list: list[dict[str, Any]] = Field(default_factory=list)

    @field_validator("tokens")
    @classmethod
    def _tokens_unique(cls, tokens: list[TokenFixture]) -> list[TokenFixture]:
        values = [t.value for t in tokens]
        if len(values) != len(set(values)):
            raise ValueError("token values must be unique")
        return tokens


class FixtureError(ValueError):
    """The fixture file cannot be read or does not validate."""


def expiry_timestamp(expires: dt.datetime | dt.date | str | None) -> float | None:
    """``never``/None -> None; a date -> the end of that day (UTC); a date-time -> itself (UTC if naive)."""
    if expires is None or expires == "never":
        return None
    if isinstance(expires, str):
        raise FixtureError(f"expires must be 'never', a date or a date-time, got {expires!r}")
    if isinstance(expires, dt.datetime):
        moment = expires if expires.tzinfo else expires.replace(tzinfo=dt.UTC)
        return moment.timestamp()
    next_day = dt.datetime.combine(expires + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    return next_day.timestamp()


def parse_fixture(text: str, source: str = "<fixture>") -> Fixture:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise FixtureError(f"{source}: not valid YAML: {exc}") from exc
    try:
        fixture = Fixture.model_validate(data or {})
    except ValidationError as exc:
        raise FixtureError(f"{source}: {exc}") from exc
    users = {u.username for u in fixture.users}
    for token in fixture.tokens:
        if token.user not in users:
            raise FixtureError(f"{source}: token {token.name!r} names unknown user {token.user!r}")
    return fixture


def load_fixture(path: str | Path | None = None) -> Fixture:
    """Read a fixture file, or the default one shipped in the package when ``path`` is None."""
    if path is None:
        text = resources.files("apinizer_emulator").joinpath(DEFAULT_FIXTURE).read_text(encoding="utf-8")
        return parse_fixture(text, DEFAULT_FIXTURE)
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise FixtureError(f"cannot read fixture {file}: {exc}") from exc
    return parse_fixture(text, str(file))
