"""One road from a gateway snapshot to a program's text, for ``apinizer-pulumi generate`` and for
:func:`generate_program`: the families read beside the proxies, narrowed to one environment's stack,
and the module written for the definitions stack or for an environment's stack beside it
(docs/generate.md, "One stack per environment").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from apinizer_pulumi.client import ApinizerClient, ApinizerError

from ._certificates import CertificateRecord, read_certificates
from ._connection import ConnectionSettingsError
from ._connections import ConnectionRecord, read_connections
from ._environment import environment_program
from ._groups import GroupRecord, read_groups
from ._jwks import JwkRecord, read_jwks
from ._key_material import MaterialRecord, read_key_material
from ._render import RETAIN_OPTION, command_line, command_lines, render_program
from ._snapshot import GatewaySnapshot, Progress, read_gateway
from ._variables import VariableRecord, read_environment_variables


@dataclasses.dataclass(frozen=True)
class Families:
    """What generate reads besides the proxies: one field per family."""

    variables: list[VariableRecord]
    groups: list[GroupRecord]
    jwks: list[JwkRecord]
    material: list[MaterialRecord]
    connections: list[ConnectionRecord]
    certificates: list[CertificateRecord]


def _check_stack(environment: str | None, definitions: bool) -> None:
    """Refuse a program without definitions that names no environment: it would own nothing (the
    command refuses ``--no-definitions`` without ``--environment`` the same way)."""
    if not definitions and environment is None:
        raise ValueError("definitions=False needs environment: the stack's environment, whose deployments "
                         "and values its program declares")


def read_families(
    client: ApinizerClient, snapshot: GatewaySnapshot, progress: Progress, *,
    environment: str | None = None, definitions: bool = True, certificates: bool = True,
) -> tuple[GatewaySnapshot, Families]:
    """The families of ``snapshot.project``, and the snapshot and groups with only ``environment``'s
    deployments when one is named. Without definitions, only the groups and the variables are read:
    an environment's stack owns its deployments and values, nothing else."""
    project, unread = snapshot.project, snapshot.unread
    variables = read_environment_variables(client, project, progress, unread=unread)
    groups = read_groups(client, project, progress, unread=unread)
    if not definitions:
        snapshot, groups = _of_environment(client, project, _named(environment), snapshot, groups)
        return snapshot, Families(variables, groups, [], [], [], [])
    families = Families(
        variables, groups, read_jwks(client, project, progress, unread=unread),
        read_key_material(client, project, progress, unread=unread),
        read_connections(client, project, progress, unread=unread),
        read_certificates(client, project, progress, unread=unread) if certificates else [])
    if environment is not None:
        snapshot, narrowed = _of_environment(client, project, environment, snapshot, groups)
        families = dataclasses.replace(families, groups=narrowed)
    return snapshot, families


def _named(environment: str | None) -> str:
    if environment is None:
        raise ValueError("an environment's stack needs its environment")
    return environment


def _only(deployed: tuple[str, ...], environment: str) -> tuple[str, ...]:
    return tuple(name for name in deployed if name == environment)


def _of_environment(
    client: ApinizerClient, project: str, environment: str, snapshot: GatewaySnapshot,
    groups: list[GroupRecord],
) -> tuple[GatewaySnapshot, list[GroupRecord]]:
    """The snapshot and groups with only ``environment``'s deployments: what its stack owns of them.

    An environment the project does not have is refused (a typo would otherwise write a program
    without deployments); a gateway that does not list them leaves the name unchecked.
    """
    try:
        known = [item.name for item in client.environments.list_for_project(project)]
    except ApinizerError:
        known = []
    if known and environment not in known:
        raise ConnectionSettingsError(
            f"--environment {environment}: project {project} has no such environment; "
            f"it has {', '.join(sorted(known))}")
    proxies = [item if item.proxy is None else dataclasses.replace(
        item, proxy=dataclasses.replace(item.proxy, deployed=_only(item.proxy.deployed, environment)))
        for item in snapshot.proxies]
    narrowed = [dataclasses.replace(group, deployed=_only(group.deployed, environment))
                for group in groups]
    return dataclasses.replace(snapshot, proxies=proxies), narrowed


def program_text(
    snapshot: GatewaySnapshot, families: Families, *, command: str, rlcls: Sequence[str] = (),
    retain: bool = True, environment: str | None = None, definitions: bool = True,
) -> str:
    """The module text: the definitions stack's program (every environment's, without ``environment``),
    or, without definitions, only what ``environment``'s stack owns."""
    if not definitions:
        return environment_program(snapshot, environment=_named(environment),
                                   command_lines=command_lines(command), groups=families.groups,
                                   variables=families.variables,
                                   retain_option=RETAIN_OPTION if retain else None)
    return render_program(snapshot, command=command, rlcls=rlcls, retain=retain,
                          variables=families.variables, groups=families.groups, jwks=families.jwks,
                          key_material=families.material, connections=families.connections,
                          certificates=families.certificates, environment=environment)


def generate_program(
    client: ApinizerClient,
    project: str,
    proxies: Sequence[str],
    *,
    rlcls: Sequence[str] = (),
    with_policies: bool = True,
    retain: bool = True,
    environment: str | None = None,
    definitions: bool = True,
    progress: Progress | None = None,
) -> str:
    """Read ``proxies`` of ``project`` through ``client`` and return the program's text, as
    ``apinizer-pulumi generate --project PROJECT --proxy ...`` writes it (certificates left out: their
    PEM files go beside a program, which :func:`write_certificate_files` writes).

    :param retain: see :func:`render_program` (``--no-retain`` is ``retain=False``).
    :param environment: the program of that environment's stack (``--environment``): the deployments
        to it only, and its value of each variable with one value per environment. An environment the
        project does not have raises :class:`ConnectionSettingsError`.
    :param definitions: ``False`` (``--no-definitions``, with ``environment``): only what that
        environment's stack owns, for a stack beside the one that owns the definitions.
    :raises ValueError: ``definitions=False`` without ``environment``.
    :raises NotOnGatewayError: the project or a proxy is not on the gateway.
    """
    _check_stack(environment, definitions)
    said = progress or (lambda _line: None)
    snapshot = read_gateway(client, project, proxies, with_policies=with_policies and definitions,
                            progress=said, with_credentials=definitions)
    snapshot, families = read_families(client, snapshot, said, environment=environment,
                                       definitions=definitions, certificates=False)
    command = command_line(project, proxies, rlcls, retain=retain, environment=environment,
                           definitions=definitions)
    return program_text(snapshot, families, command=command, rlcls=rlcls, retain=retain,
                        environment=environment, definitions=definitions)
