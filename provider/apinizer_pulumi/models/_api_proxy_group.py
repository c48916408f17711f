"""API proxy groups: the group itself, its list, and the environments it is deployed to.

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/crud/create-api-proxy-group.md,
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/crud/list-api-proxy-groups.md
and https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/deployment/list-environments.md
"""

from __future__ import annotations

from typing import Any, Self

from pydantic import Field, model_validator

from ._api_proxy import HeaderMatch
from ._base import ApiModel, Name, field_errors
from ._enums import HttpMethod
from ._project import ResultEnvelope


class ApiProxyGroupClientRoute(ApiModel):
    """A group's ``clientRoute``: how clients reach the group's proxies (matched with AND).

    ``relative_path_list`` needs at least one path; the first must not be empty and every path
    is at least 2 characters long. ``buffer_request`` and ``buffer_response`` default to true.
    """

    relative_path_list: list[str] = Field(min_length=1)
    method_list: list[HttpMethod] | None = None
    host_list: list[str] | None = None
    header_list: list[HeaderMatch] | None = None
    buffer_request: bool = True
    buffer_response: bool = True

    @model_validator(mode="after")
    def _paths(self) -> Self:
        problems: list[tuple[str, str, Any]] = []
        for index, path in enumerate(self.relative_path_list):
            if not path.strip():
                problems.append(("relative_path_list", f"path {index} can not be empty", path))
            elif len(path) < 2:
                problems.append(("relative_path_list",
                                 f"path {index} ({path!r}) must be at least 2 characters long", path))
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self

    def to_api(self) -> dict[str, Any]:
        """The documented body: unset lists as explicit nulls, as the documented examples send them."""
        body = super().to_api()
        for key in ("methodList", "hostList", "headerList"):
            body.setdefault(key, None)
        return body


class ApiProxyGroupSpec(ApiModel):
    """The body of create (``POST .../apiProxyGroups/``) and update (``PUT .../apiProxyGroups/``).

    ``name`` is the group's identifier within its project and cannot change; update sends every
    field (the update page: "All fields are required (same as create)").
    """

    name: Name
    description: str | None = None
    client_route: ApiProxyGroupClientRoute

    def to_api(self) -> dict[str, Any]:
        body: dict[str, Any] = {"name": self.name}
        if self.description is not None:
            body["description"] = self.description
        body["clientRoute"] = self.client_route.to_api()
        return body


class ApiProxyGroupSummary(ApiModel):
    """One item of ``GET .../apiProxyGroups/``: the list answers only id, name and description
    (no members, no client route)."""

    id: str | None = None
    name: str
    description: str | None = None


class ApiProxyGroupList(ResultEnvelope):
    """``GET /apiops/projects/{projectName}/apiProxyGroups/``."""

    result_list: list[ApiProxyGroupSummary] = Field(default_factory=list)
    result_count: int = 0


class ApiProxyGroupEnvironment(ApiModel):
    """One item of ``GET .../apiProxyGroups/{apiProxyGroupName}/environments/``."""

    environment_name: str
    deployed: bool = False


class ApiProxyGroupEnvironmentList(ResultEnvelope):
    """The environments of a group: the page's notes say only those it is deployed to are listed,
    its example lists one with ``deployed: false`` too; both are read alike (``deployed``)."""

    result_list: list[ApiProxyGroupEnvironment] = Field(default_factory=list)
    result_count: int = 0

    def deployed_to(self) -> list[str]:
        """The environments the group is deployed to, in the answer's order."""
        return [item.environment_name for item in self.result_list if item.deployed]


class ApiProxyGroupInfo(ApiProxyGroupSummary):
    """A group as ``get_api_proxy_groups`` returns it: the list's item and the environments it is
    deployed to (from the group's environments list)."""

    environments: list[str] = Field(default_factory=list)
