"""The base of an RLCL's lists (``RlclEndpoints``, ``RlclCredentials``, ``RlclCondition``): the outputs
they share and their registration, as ``_settings.EndpointSettingsResource`` is the endpoint settings'.
Private, so that each public module holds one kind (``resources/__init__.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, resource_options, resource_props, typed_statically
from ._base import CONNECTION
from ._connection import ConnectionArgs

if TYPE_CHECKING:
    from .rlcl import RlclList


@typed_statically
class RlclListResource(dyn.Resource):
    """The outputs that an RLCL's lists share, and their registration (replaced delete-first: the
    list keeps its identity, its RLCL)."""

    project_name: pulumi.Output[str]
    """The project that holds the RLCL."""
    rlcl_name: pulumi.Output[str]
    """The RLCL's name."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def _register(self, provider: RlclList, resource_name: str, project_name: pulumi.Input[str],
                  rlcl_name: pulumi.Input[str], declared: Mapping[str, Any],
                  connection: ConnectionArgs | Mapping[str, Any] | None,
                  opts: pulumi.ResourceOptions | None) -> None:
        props = resource_props(project_name=project_name, rlcl_name=rlcl_name, **declared)
        props[CONNECTION] = connection_props(connection)
        dyn.Resource.__init__(self, provider, resource_name, props, resource_options(opts, delete_first=True))
