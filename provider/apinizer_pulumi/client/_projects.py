"""Projects and environments: ``client.projects`` and ``client.environments``.

Sources:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/02-projects/list-projects.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/03-environments/index.md
"""

from __future__ import annotations

import builtins

from .. import models
from ._resources import _Resource, _segment

__all__ = ["ENVIRONMENTS_PATH", "PROJECTS_PATH", "PROJECT_ENVIRONMENTS_PATH", "Environments", "Projects"]

PROJECTS_PATH = "/apiops/projects/"
ENVIRONMENTS_PATH = "/apiops/environments/"
#: As documented: no trailing slash, unlike every other path of the API.
PROJECT_ENVIRONMENTS_PATH = "/apiops/environments/{project}"


class Projects(_Resource):
    """The projects the caller is a member of."""

    def list(self) -> list[models.Project]:
        """``GET /apiops/projects/``: name and description of each project the caller belongs to."""
        response = self._client._request("GET", PROJECTS_PATH, idempotent=True)
        return self._client._parse(models.ProjectList, response, "GET", PROJECTS_PATH).result_list


class Environments(_Resource):
    """The deployment targets of API proxies."""

    def list(self) -> list[models.Environment]:
        """``GET /apiops/environments/``: every environment. Admin only; others get
        :class:`AuthenticationError` (401), as documented."""
        response = self._client._request("GET", ENVIRONMENTS_PATH, idempotent=True)
        return self._client._parse(models.EnvironmentList, response, "GET", ENVIRONMENTS_PATH).result_list

    def list_for_project(self, project: str) -> builtins.list[models.Environment]:
        """``GET /apiops/environments/{projectName}``: the environments reachable from a project.

        An unknown project (or one the caller is not a member of) is :class:`BadRequestError` (400).
        """
        path = PROJECT_ENVIRONMENTS_PATH.format(project=_segment(project, "project"))
        response = self._client._request("GET", path, idempotent=True)
        return self._client._parse(models.EnvironmentList, response, "GET", path).result_list
