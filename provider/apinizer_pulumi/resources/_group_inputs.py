"""The pydantic models of ``ApiProxyGroup``, ``ApiProxyGroupDeployment``, ``RlclCredentials`` and
``RlclCondition`` inputs, named lazily by their providers (kept apart from the resource modules so
that declaring them in a program does not import pydantic; docs/performance.md)."""

from __future__ import annotations

from typing import Any, Self

from pydantic import Field, JsonValue, model_validator

from apinizer_pulumi.models import (
    ApiModel,
    ApiProxyGroupClientRoute,
    ApiProxyGroupSpec,
    ConditionRule,
    Name,
)
from apinizer_pulumi.models._base import field_errors

from ._proxy_inputs import ClientRouteInput, promoted_from_elsewhere


def _duplicates(field: str, names: list[str]) -> list[tuple[str, str, Any]]:
    seen: dict[str, int] = {}
    problems: list[tuple[str, str, Any]] = []
    for index, name in enumerate(names):
        if name in seen:
            problems.append((field, f"{name!r} is listed twice (at {seen[name]} and {index})", name))
        else:
            seen[name] = index
    return problems


class ApiProxyGroupInputs(ApiModel):
    """The inputs of an ``ApiProxyGroup`` resource, validated offline by ``check``."""

    project_name: Name
    name: Name
    description: str | None = None
    #: None only with ``adopt``: the group is taken over with the route it has (what ``generate`` writes).
    client_route: ClientRouteInput | None = None
    api_proxy_names: list[Name] = Field(default_factory=list)
    adopt: bool = False

    @model_validator(mode="after")
    def _checks(self) -> Self:
        problems = _duplicates("api_proxy_names", self.api_proxy_names)
        if self.client_route is None and not self.adopt:
            problems.append(("client_route", "client_route is required; only adopt=True may leave it out, "
                             "to take a group over with the route it has", None))
        for index, path in enumerate(self.client_route.relative_paths if self.client_route else []):
            if len(path.strip()) < 2:
                problems.append(("client_route", f"relative_paths.{index} ({path!r}) must be at least "
                                 "2 characters long and not blank", path))
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self

    def spec(self) -> ApiProxyGroupSpec | None:
        """The create and update body; None without a declared route (adopted as it is)."""
        route = self.client_route
        if route is None:
            return None
        return ApiProxyGroupSpec(
            name=self.name,
            description=self.description,
            client_route=ApiProxyGroupClientRoute(
                relative_path_list=route.relative_paths, method_list=route.methods,
                host_list=route.virtual_hosts, header_list=route.headers,
                buffer_request=True if route.buffer_request is None else route.buffer_request,
                buffer_response=True if route.buffer_response is None else route.buffer_response,
            ),
        )


class ApiProxyGroupDeploymentInputs(ApiModel):
    """The inputs of an ``ApiProxyGroupDeployment`` resource."""

    project_name: Name
    api_proxy_group_name: Name
    environment_name: Name
    triggers: dict[str, JsonValue] | None = None
    promote_from: Name | None = None

    @model_validator(mode="after")
    def _promoted_from_elsewhere(self) -> Self:
        promoted_from_elsewhere(self, self.promote_from, self.environment_name)
        return self


class RlclCredentialsInputs(ApiModel):
    """The inputs of an ``RlclCredentials`` resource."""

    project_name: Name
    rlcl_name: Name
    credential_names: list[Name] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> Self:
        problems = _duplicates("credential_names", self.credential_names)
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self


class RlclConditionInputs(ApiModel):
    """The inputs of an ``RlclCondition`` resource: the rules, AND-ed (at least one)."""

    project_name: Name
    rlcl_name: Name
    rules: list[ConditionRule] = Field(min_length=1)
