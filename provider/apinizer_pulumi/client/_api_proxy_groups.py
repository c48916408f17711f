"""API proxy groups, their members and their deployment: ``client.api_proxy_groups``.

What is retried (see :mod:`._retry`): reads, update (a PUT of every field), adding and removing
a member (the pages call both idempotent), deploy (a deploy of a deployed group deploys it
again) and undeploy (its pages document no "not deployed" error). Create and delete are not: a
repeat answers "already created" or "not found", so they are repeated only when the request
never reached the server.

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/index.md
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import Any

from .. import models
from ._api_proxies import ApiProxies
from ._exceptions import APIStatusError
from ._resources import _coerce, _Resource, _segment

__all__ = [
    "API_PROXY_GROUPS_PATH",
    "API_PROXY_GROUP_DEPLOYMENT_PATH",
    "API_PROXY_GROUP_ENVIRONMENTS_PATH",
    "API_PROXY_GROUP_MEMBER_PATH",
    "API_PROXY_GROUP_PATH",
    "ApiProxyGroups",
    "group_not_found",
]

API_PROXY_GROUPS_PATH = "/apiops/projects/{project}/apiProxyGroups/"
API_PROXY_GROUP_PATH = "/apiops/projects/{project}/apiProxyGroups/{group}/"
API_PROXY_GROUP_MEMBER_PATH = "/apiops/projects/{project}/apiProxyGroups/{group}/apiProxies/{proxy}/"
API_PROXY_GROUP_ENVIRONMENTS_PATH = "/apiops/projects/{project}/apiProxyGroups/{group}/environments/"
API_PROXY_GROUP_DEPLOYMENT_PATH = (
    "/apiops/projects/{project}/apiProxyGroups/{group}/environments/{environment}/"
)


def group_not_found(error: APIStatusError) -> bool:
    """The pages' 400 for an unknown group: ``API Proxy Group (X) is not found or user does not
    have privilege to access it!``."""
    return error.status_code == 400 and error.error_description.startswith("API Proxy Group (")


def _group_segments(project: str, group: str) -> dict[str, str]:
    return {"project": _segment(project, "project"), "group": _segment(group, "group")}


class ApiProxyGroups(_Resource):
    """API proxy groups of a project: list, create, update, delete; add and remove a member
    proxy; deploy to and undeploy from an environment, and list the group's environments."""

    # -- reads -----------------------------------------------------------------------------------

    def list(self, project: str) -> list[models.ApiProxyGroupSummary]:
        """``GET .../apiProxyGroups/``: id, name and description of each group (no members)."""
        path = API_PROXY_GROUPS_PATH.format(project=_segment(project, "project"))
        response = self._client._request("GET", path, idempotent=True)
        return self._client._parse(models.ApiProxyGroupList, response, "GET", path).result_list

    def find(self, project: str, name: str) -> models.ApiProxyGroupSummary | None:
        """The group from the project's list, or None when it has none of that name."""
        return next((group for group in self.list(project) if group.name == name), None)

    def environments(self, project: str, group: str) -> builtins.list[models.ApiProxyGroupEnvironment]:
        """``GET .../apiProxyGroups/{apiProxyGroupName}/environments/``: where it is deployed."""
        path = API_PROXY_GROUP_ENVIRONMENTS_PATH.format(**_group_segments(project, group))
        response = self._client._request("GET", path, idempotent=True)
        return self._client._parse(models.ApiProxyGroupEnvironmentList, response, "GET", path).result_list

    # -- writes ----------------------------------------------------------------------------------

    def create(self, project: str, group: models.ApiProxyGroupSpec | Mapping[str, Any]) -> None:
        """``POST .../apiProxyGroups/``: a new group, with no members. Needs ROLE_MANAGE_PROXY_GROUPS."""
        spec = _coerce(models.ApiProxyGroupSpec, group, "group")
        path = API_PROXY_GROUPS_PATH.format(project=_segment(project, "project"))
        self._write("POST", path, spec.to_api(), idempotent=False)

    def update(self, project: str, group: models.ApiProxyGroupSpec | Mapping[str, Any]) -> None:
        """``PUT .../apiProxyGroups/`` with every field; the body's ``name`` says which group."""
        spec = _coerce(models.ApiProxyGroupSpec, group, "group")
        path = API_PROXY_GROUPS_PATH.format(project=_segment(project, "project"))
        self._write("PUT", path, spec.to_api(), idempotent=True)

    def delete(self, project: str, name: str) -> None:
        """``DELETE .../apiProxyGroups/{apiProxyGroupName}/``: the group; its proxies stay."""
        path = API_PROXY_GROUP_PATH.format(**_group_segments(project, name))
        self._write("DELETE", path, None, idempotent=False)

    def add_api_proxy(self, project: str, group: str, proxy: str) -> None:
        """``POST .../apiProxyGroups/{group}/apiProxies/{proxy}/``: a member already there stays.
        Needs ROLE_MANAGE_PROXIES and ROLE_MANAGE_PROXY_GROUPS."""
        self._write("POST", self._member_path(project, group, proxy), None, idempotent=True)

    def remove_api_proxy(self, project: str, group: str, proxy: str) -> None:
        """``DELETE .../apiProxyGroups/{group}/apiProxies/{proxy}/``: the proxy itself stays."""
        self._write("DELETE", self._member_path(project, group, proxy), None, idempotent=True)

    def deploy(self, project: str, group: str, environment: str) -> models.DeploymentResponse:
        """``POST .../apiProxyGroups/{group}/environments/{environment}/``: the group's proxies
        together. A failure in the environment raises :class:`DeploymentFailedError`.
        Needs ROLE_MANAGE_PROXY_GROUPS and ROLE_DEPLOY_UNDEPLOY_PROXIES."""
        return self._deployment("POST", project, group, environment)

    def undeploy(self, project: str, group: str, environment: str) -> models.DeploymentResponse:
        """``DELETE .../apiProxyGroups/{group}/environments/{environment}/``."""
        return self._deployment("DELETE", project, group, environment)

    # -- plumbing --------------------------------------------------------------------------------

    @staticmethod
    def _member_path(project: str, group: str, proxy: str) -> str:
        return API_PROXY_GROUP_MEMBER_PATH.format(**_group_segments(project, group),
                                                  proxy=_segment(proxy, "proxy"))

    def _deployment(
        self, method: str, project: str, group: str, environment: str
    ) -> models.DeploymentResponse:
        path = API_PROXY_GROUP_DEPLOYMENT_PATH.format(
            **_group_segments(project, group), environment=_segment(environment, "environment"))
        response = self._client._request(method, path, idempotent=True)
        # The answer is the proxies' deployment answer (deploymentResult.environmentResults).
        return ApiProxies(self._client)._result(response, method, path)
