"""API proxy groups for ``generate``: read each group of the project (with where it is deployed)
and write it as ``ApiProxyGroup(..., adopt=True)`` with an ``ApiProxyGroupDeployment`` per environment.

The API lists a group's name and description and the environments it is deployed to; it cannot give
back its client route or its members, so the generated group is taken over as it is (no route is
declared) and declares no member: adding one to ``api_proxy_names`` makes Pulumi manage it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence

from apinizer_pulumi.client import ApinizerClient, NotFoundError, PermissionDeniedError

from ._lines import adopted_end, declaration_head, every, slug
from ._snapshot import not_read

_GROUP_NOTE = """\
# API proxy groups, each taken over as it is (adopt=True). The API cannot read a group's client route
# or its members: declare client_route to manage the route, and list in api_proxy_names the members
# Pulumi should manage (members not listed are left as they are)."""


@dataclasses.dataclass(frozen=True)
class GroupRecord:
    """One group as ``ApiProxyGroup(..., adopt=True)`` declares it, and where it is deployed."""

    project: str
    name: str
    description: str | None = None
    #: Environments where the group is deployed, sorted.
    deployed: tuple[str, ...] = ()


def read_groups(client: ApinizerClient, project: str,
                progress: Callable[[str], None] = lambda _line: None,
                *, unread: set[str] | None = None) -> list[GroupRecord]:
    """The project's groups (one list, and one environments list per group); none where the
    account may not list them (it lacks ROLE_MANAGE_PROXY_GROUPS) or the project has no such list."""
    try:
        listed = client.api_proxy_groups.list(project)
    except (PermissionDeniedError, NotFoundError) as error:
        progress(f"API proxy groups of {project}: not read ({error.error_description or error.error})")
        not_read(unread, "ApiProxyGroup", "ApiProxyGroupDeployment")
        return []
    records = []
    for group in listed:
        environments = client.api_proxy_groups.environments(project, group.name)
        deployed = tuple(sorted(item.environment_name for item in environments if item.deployed))
        records.append(GroupRecord(project, group.name, group.description or None, deployed))
    if records:
        progress(f"API proxy groups of {project}: {len(records)}")
    return records


def group_resource_name(record: GroupRecord) -> str:
    """``group-demo-payments`` for the group Payments of project Demo."""
    return "group-" + slug(record.project, record.name)


def group_section(records: Sequence[GroupRecord], *, retain: bool, indent: str, retain_option: str,
                  literal: Callable[[str], str]) -> list[str]:
    """The program's lines for ``records`` (none when there are none)."""
    if not records:
        return []
    out = ["", _GROUP_NOTE, *every("API proxy group", "api_proxy_groups", "ApiProxyGroup")]
    for record in records:
        name = group_resource_name(record)
        out += declaration_head("ApiProxyGroup", name, record.project, record.name,
                                literal=literal, indent=indent)
        if record.description is not None:
            out.append(f"{indent}description={literal(record.description)},")
        out += adopted_end(retain_option if retain else None, indent=indent)
    out.append("}")
    deployments = [(record, env) for record in records for env in record.deployed]
    if not deployments:
        return out
    out += every("deployment of those groups to an environment", "api_proxy_group_deployments",
                 "ApiProxyGroupDeployment")
    for record, environment in deployments:
        name = f"{group_resource_name(record)}-{slug(environment)}"
        out += [f"    {json.dumps(name)}: apinizer.ApiProxyGroupDeployment(", f"{indent}{json.dumps(name)},",
                f"{indent}project_name={literal(record.project)},",
                f"{indent}api_proxy_group_name=api_proxy_groups[{json.dumps(group_resource_name(record))}].name,",
                f"{indent}environment_name={literal(environment)},"]
        if retain:
            out.append(f"{indent}{retain_option}")
        out.append("    ),")
    out.append("}")
    return out
