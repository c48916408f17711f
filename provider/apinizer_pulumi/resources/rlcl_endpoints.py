"""``RlclEndpoints``: the endpoint list of a rate-limit control list, and its dynamic provider.

The provider's module path and class name (``apinizer_pulumi.resources.rlcl_endpoints.RlclEndpointsProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
import pulumi.dynamic as dyn
from pydantic import Field

from apinizer_pulumi.client import ApinizerClient, BadRequestError
from apinizer_pulumi.models import ApiModel, EndpointRateLimit, Name

from ._args import (
    VariableArgs,
    one_line_arguments,
    typed_statically,
)
from ._connection import ConnectionArgs
from ._rlcl_list import RlclListResource
from ._types import (
    CacheErrorHandlingTypeValue,
    HttpMethodValue,
    IntervalWindowTypeValue,
    RateLimitTimeIntervalValue,
)
from .rlcl import RlclList, rlcl_not_found


@dataclasses.dataclass(kw_only=True, frozen=True)
class EndpointRateLimitArgs:
    """Rate-limiting rules for one endpoint of an API proxy (or ``ALL`` of them) in an RLCL.

    ``endpoint_name="ALL"`` goes with ``endpoint_http_method="ALL"`` (or none), and conversely.
    Clients are told apart by ``target_variable``, or share ``target_identity_value``.
    """

    api_proxy_name: pulumi.Input[str]
    permitted_message_count: pulumi.Input[int]
    time_interval_period_length: pulumi.Input[int]
    time_interval: pulumi.Input[RateLimitTimeIntervalValue]
    cache_connection_timeout_in_seconds: pulumi.Input[int]
    cache_error_handling_type: pulumi.Input[CacheErrorHandlingTypeValue]
    time_interval_window_type: pulumi.Input[IntervalWindowTypeValue]
    endpoint_name: pulumi.Input[str] | None = None
    endpoint_http_method: pulumi.Input[HttpMethodValue] | None = None
    target_variable: pulumi.Input[VariableArgs | Mapping[str, Any]] | None = None
    target_identity_value: pulumi.Input[str] | None = None
    show_rate_limit_statistics_in_response_header: pulumi.Input[bool] | None = None
    enabled: pulumi.Input[bool] | None = None


class RlclEndpointsInputs(ApiModel):
    """The inputs of an ``RlclEndpoints`` resource, validated offline by ``check``."""

    project_name: Name
    rlcl_name: Name
    endpoints: list[EndpointRateLimit] = Field(min_length=1)


def _entries(props: Mapping[str, Any]) -> list[EndpointRateLimit]:
    return [EndpointRateLimit.model_validate(entry) for entry in props.get("endpoints") or []]


class RlclEndpointsProvider(RlclList):
    """Own the endpoint list of an RLCL: create and update replace it whole, delete removes its entries."""

    kind = "RlclEndpoints"
    inputs_model = RlclEndpointsInputs

    def extra_failures(self, model: Any) -> list[dyn.CheckFailure]:
        seen: dict[tuple[str, str, str], int] = {}
        failures: list[dyn.CheckFailure] = []
        for index, entry in enumerate(model.endpoints):
            key = entry.normalized_key
            if key in seen:
                failures.append(dyn.CheckFailure(
                    f"endpoints.{index}",
                    f"duplicate entry for {key[2]} {key[1]} of {key[0]} (first at endpoints.{seen[key]})",
                ))
            else:
                seen[key] = index
        return failures

    def replace(self, client: ApinizerClient, project: str, parent: str, props: Mapping[str, Any], *,
                created: bool) -> None:
        client.rlcl.replace_endpoints(project, parent, _entries(props))

    def remove(self, client: ApinizerClient, project: str, parent: str, props: Mapping[str, Any]) -> None:
        entries = _entries(props)
        try:
            client.rlcl.delete_endpoints(project, parent, entries)
        except BadRequestError as error:
            if rlcl_not_found(error):
                raise  # the documented 400 for an unknown RLCL: its list went with it (parent_gone)
            # One entry names an endpoint or proxy deleted since; its entry went with it. Remove
            # the others one by one so that exactly the managed entries that still exist go.
            for entry in entries:
                try:
                    client.rlcl.delete_endpoints(project, parent, [entry])
                except BadRequestError:
                    continue

    def declares_any(self, props: Mapping[str, Any]) -> bool:
        return bool(_entries(props))


@typed_statically
class RlclEndpoints(RlclListResource, module="apinizer", name="RlclEndpoints"):
    """The endpoint list of a rate-limit control list (RLCL), owned whole by this resource.

    Id: ``{project}/{rlcl}``. Changing ``project_name`` or ``rlcl_name`` replaces it; a change
    of ``endpoints`` replaces the RLCL's list with the declared one in one call (entries added
    outside Pulumi are removed then). Create does the same, so it takes over the RLCL's list.
    Destroy removes exactly the declared entries. The API cannot read an RLCL's list, so refresh
    keeps the recorded state. Declare at most one ``RlclEndpoints`` per RLCL.
    """

    endpoints: pulumi.Output[list[dict[str, Any]]]
    """The entries as written, with every default filled in (snake_case keys)."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        rlcl_name: pulumi.Input[str],
        endpoints: pulumi.Input[Sequence[EndpointRateLimitArgs | Mapping[str, Any]]],
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare the endpoint list of an RLCL.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the RLCL.
        :param rlcl_name: The RLCL's name.
        :param endpoints: At least one :class:`EndpointRateLimitArgs` (or dict with the same
            snake_case keys); one entry per (proxy, endpoint, method).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        self._register(RlclEndpointsProvider(), resource_name, project_name, rlcl_name,
                       {"endpoints": endpoints}, connection, opts)


# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).
one_line_arguments(EndpointRateLimitArgs, prefix="apinizer")
