"""``Rlcl``: a rate-limit control list itself (its own fields), and its dynamic provider.

The operations are those of the product's documentation, which the spec does not show:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/index.md (create with
``POST .../rlcl/``, update with ``PUT .../rlcl/{rlclName}/``, delete with ``DELETE .../rlcl/{rlclName}/``).

The provider's module path and class name (``apinizer_pulumi.resources.rlcl.RlclProvider``) are
recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pulumi
import pulumi.dynamic as dyn

from apinizer_pulumi.client import ApinizerClient, APIStatusError, BadRequestError, NotFoundError
from apinizer_pulumi.models import Name, RlclSpec

from . import _named
from ._args import VariableArgs, connection_props, resource_options, resource_props, typed_statically
from ._connection import ConnectionArgs
from ._create import ExactlyOnce
from ._errors import container_gone, translated
from ._named import WrittenOnly
from ._owned_list import OwnedList
from ._types import (
    CacheErrorHandlingTypeName,
    CacheErrorHandlingTypeValue,
    ExecutionOrderName,
    ExecutionOrderValue,
    IntervalWindowTypeName,
    IntervalWindowTypeValue,
)

# The documented answers: "An RLCL with same name (X) already exists in project!" (create) and
# "RLCL (X) is not found!" (update, delete).
_ALREADY_EXISTS = re.compile(r"\bRLCL\b.*\balready exists\b", re.IGNORECASE | re.DOTALL)
_NOT_FOUND = re.compile(r"^RLCL \(.*\) is not found!?$", re.DOTALL)


def _taken(error: BadRequestError) -> bool:
    return bool(_ALREADY_EXISTS.search(error.error_description or ""))


def rlcl_not_found(error: APIStatusError) -> bool:
    """True when the gateway says the RLCL (or, with a 404, its project) does not exist."""
    if isinstance(error, NotFoundError):
        return container_gone(error)
    return error.status_code == 400 and bool(_NOT_FOUND.match(error.error_description.strip()))


class RlclInputs(RlclSpec):
    """The inputs of an ``Rlcl`` resource, validated offline by ``check``: the RLCL's fields and where."""

    project_name: Name
    adopt: bool = False


def rlcl_subject(kind: str, props: Mapping[str, Any], id_: str = "", *, name_key: str = "name") -> str:
    """``apinizer:<kind> <rlcl> in <project>`` for messages, from the props or else the id."""
    return _named.subject(kind, props, id_, name_key=name_key)


def rlcl_identity(id_: str, props: Mapping[str, Any], *, name_key: str = "name") -> tuple[str, str]:
    """(project, RLCL name) from the props, or else from an id ``{project}/{rlcl}``."""
    return _named.identity(id_, props, name_key=name_key)


class RlclList(OwnedList):
    """A list of an RLCL owned whole (``RlclEndpoints``, ``RlclCredentials``, ``RlclCondition``):
    named by ``project_name`` and ``rlcl_name``, gone with its RLCL."""

    replace_fields = ("project_name", "rlcl_name")
    parent_gone = staticmethod(rlcl_not_found)


class RlclProvider(WrittenOnly):
    """Create, update and delete one RLCL; with ``adopt``, create takes over an RLCL of that name."""

    kind = "Rlcl"
    inputs_model = RlclInputs

    @translated(lambda self, props: self.subject(props))
    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        project, name = self.identity("", props)
        client = self.client(props)
        spec = RlclSpec.model_validate(props)
        create = ExactlyOnce.blind(lambda: client.rlcl.create(project, spec), _taken,
                                   noun="RLCL", namesake="an RLCL with this name")
        # The API cannot read an RLCL back: taking it over means writing every declared field.
        self.create_once(create, _taken, props, self.subject(props),
                         lambda: client.rlcl.update(project, spec))
        return dyn.CreateResult(f"{project}/{name}", self.outputs(props))

    @translated(lambda self, id_, olds, news: self.subject(news, id_))
    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dyn.UpdateResult:
        project, _ = self.identity(id_, news)
        self.client(news).rlcl.update(project, RlclSpec.model_validate(news))
        return dyn.UpdateResult(self.outputs(news))

    def remove(self, client: ApinizerClient, project: str, name: str) -> None:
        client.rlcl.delete(project, name)

    gone = staticmethod(rlcl_not_found)


@typed_statically
class Rlcl(dyn.Resource, module="apinizer", name="Rlcl"):
    """A rate-limit control list (RLCL): its own fields, not its endpoint list.

    Id: ``{project}/{name}``. Changing ``project_name`` or ``name`` replaces it; every other
    field changes in place (one write of all of them). Create makes an empty RLCL; with
    ``adopt=True`` an RLCL of that name that already exists is taken over by writing the declared
    fields. Destroy deletes the RLCL with everything in it (endpoints, credentials, conditions).
    The API cannot read an RLCL back, so refresh keeps the recorded state. Give ``rlcl.name`` to
    an :class:`RlclEndpoints` to fill the new RLCL in the same program.
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/create-rlcl.md
    """

    project_name: pulumi.Output[str]
    """The project that holds the RLCL."""
    name: pulumi.Output[str]
    """The RLCL's name, unique within the project."""
    description: pulumi.Output[str | None]
    """The RLCL's description."""
    enabled: pulumi.Output[bool]
    """Whether the RLCL is enabled."""
    execution_order: pulumi.Output[ExecutionOrderName]
    """FIRST (before the other RLCLs) or LAST."""
    cache_connection_timeout_in_seconds: pulumi.Output[int]
    """Cache connection timeout, seconds."""
    cache_error_handling_type: pulumi.Output[CacheErrorHandlingTypeName]
    """FAIL or CONTINUE on a cache error."""
    time_interval_window_type: pulumi.Output[IntervalWindowTypeName]
    """FIXED or SLIDING."""
    show_rate_limit_statistics_in_response_header: pulumi.Output[bool]
    """Whether rate-limit statistics go into the response header."""
    target_variable: pulumi.Output[dict[str, Any] | None]
    """The variable that tells clients apart (snake_case keys); none rate-limits per credential."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over an RLCL that already exists."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        name: pulumi.Input[str],
        description: pulumi.Input[str] | None = None,
        enabled: pulumi.Input[bool] | None = None,
        execution_order: pulumi.Input[ExecutionOrderValue] | None = None,
        cache_connection_timeout_in_seconds: pulumi.Input[int] | None = None,
        cache_error_handling_type: pulumi.Input[CacheErrorHandlingTypeValue] | None = None,
        time_interval_window_type: pulumi.Input[IntervalWindowTypeValue] | None = None,
        show_rate_limit_statistics_in_response_header: pulumi.Input[bool] | None = None,
        target_variable: pulumi.Input[VariableArgs | Mapping[str, Any]] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare an RLCL. Unset fields take the documented defaults.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the RLCL.
        :param name: The RLCL's name, unique within the project; it cannot change in place.
        :param description: Free text.
        :param enabled: Whether the RLCL is enabled (default true).
        :param execution_order: ``FIRST`` (default) or ``LAST``.
        :param cache_connection_timeout_in_seconds: Cache connection timeout (default 3).
        :param cache_error_handling_type: ``FAIL`` (default) or ``CONTINUE``.
        :param time_interval_window_type: ``FIXED`` (default) or ``SLIDING``.
        :param show_rate_limit_statistics_in_response_header: Default false.
        :param target_variable: A :class:`VariableArgs` (or dict) that identifies clients; a CUSTOM
            variable needs ``script_language`` and ``script_body``.
        :param adopt: Take over an existing RLCL of the same name (default false).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(
            project_name=project_name,
            name=name,
            description=description,
            enabled=enabled,
            execution_order=execution_order,
            cache_connection_timeout_in_seconds=cache_connection_timeout_in_seconds,
            cache_error_handling_type=cache_error_handling_type,
            time_interval_window_type=time_interval_window_type,
            show_rate_limit_statistics_in_response_header=show_rate_limit_statistics_in_response_header,
            target_variable=target_variable,
            adopt=adopt,
        )
        props["connection"] = connection_props(connection)
        super().__init__(RlclProvider(), resource_name, props, resource_options(opts))
