"""HTTP handlers of projects and environments, and their routes. State is in :mod:`projects`.

Listing every environment is for administrators (others get 401, as documented); projects and a
project's environments need a valid token only.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import EnvironmentList, ProjectList

from . import projects
from .auth import ROLE_ADMIN, SYSTEM_ADMIN
from .web import Route, json_response, principal, project_name, read

PROJECTS = "/apiops/projects/"
ENVIRONMENTS = "/apiops/environments/"
PROJECT_ENVIRONMENTS = "/apiops/environments/{projectName}"


async def list_projects(request: Request) -> Response:
    principal(request)
    found = read(request, projects.list_projects)
    return json_response({"status": "SUCCESS", "resultList": found, "resultCount": len(found)})


async def list_environments(request: Request) -> Response:
    caller = principal(request)
    if not (caller.has_role(ROLE_ADMIN) or caller.system_role == SYSTEM_ADMIN):
        raise projects.AdminOnlyError()
    return _environments(read(request, projects.list_environments))


async def project_environments(request: Request) -> Response:
    principal(request)
    return _environments(read(request, projects.environments_for_project, project_name(request)))


def _environments(items: list[dict[str, Any]]) -> Response:
    return json_response({"success": True, "resultList": items, "resultCount": len(items)})


# (method, path template, handler, summary, request body model, response model)
PROJECT_ROUTES: list[Route] = [("GET", PROJECTS, list_projects, "List projects", None, ProjectList)]
ENVIRONMENT_ROUTES: list[Route] = [
    (
        "GET",
        ENVIRONMENTS,
        list_environments,
        "List every environment (administrators)",
        None,
        EnvironmentList,
    ),
    (
        "GET",
        PROJECT_ENVIRONMENTS,
        project_environments,
        "List a project's environments",
        None,
        EnvironmentList,
    ),
]
ROUTES = PROJECT_ROUTES + ENVIRONMENT_ROUTES
