"""``EndpointWsa``: the WS-Addressing settings of one SOAP endpoint, and its dynamic provider.

The provider's module path and class name (``apinizer_pulumi.resources.endpoint_wsa.EndpointWsaProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pulumi

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models import WsaSettings

from ._args import one_line_arguments
from ._connection import ConnectionArgs
from ._settings import EndpointSettingsInputs, EndpointSettingsProvider, EndpointSettingsResource
from ._types import HttpMethodValue, WsaMustUnderstandValue, WsaVersionValue


@dataclasses.dataclass(kw_only=True, frozen=True)
class WsaSettingsArgs:
    """WS-Addressing headers of a SOAP endpoint. Every field is optional; all off by default.

    Addresses (``wsa_action``, ``wsa_to``, ``wsa_reply_to``, ``wsa_message_id``, ``wsa_from``,
    ``wsa_fault_to``) must be absolute URIs.
    """

    wsa_enabled: pulumi.Input[bool] | None = None
    wsa_must_understand: pulumi.Input[WsaMustUnderstandValue] | None = None
    wsa_version: pulumi.Input[WsaVersionValue] | None = None
    wsa_add_default_action: pulumi.Input[bool] | None = None
    wsa_action: pulumi.Input[str] | None = None
    wsa_add_default_to: pulumi.Input[bool] | None = None
    wsa_to: pulumi.Input[str] | None = None
    wsa_reply_to: pulumi.Input[str] | None = None
    wsa_generate_message_id: pulumi.Input[bool] | None = None
    wsa_message_id: pulumi.Input[str] | None = None
    wsa_from: pulumi.Input[str] | None = None
    wsa_fault_to: pulumi.Input[str] | None = None
    wsa_relates_to: pulumi.Input[str] | None = None
    wsa_relation_ship_type: pulumi.Input[str] | None = None


class EndpointWsaInputs(EndpointSettingsInputs):
    """The inputs of an ``EndpointWsa`` resource, validated offline by ``check``."""

    wsa_settings: WsaSettings


class EndpointWsaProvider(EndpointSettingsProvider):
    """Write an endpoint's WS-Addressing settings; on delete, write the defaults (WS-Addressing off)."""

    kind = "EndpointWsa"
    inputs_model = EndpointWsaInputs
    settings_field = "wsa_settings"

    def declared(self, props: Mapping[str, Any]) -> WsaSettings:
        return WsaSettings.model_validate(props.get("wsa_settings") or {})

    def defaults(self, props: Mapping[str, Any]) -> WsaSettings:
        return WsaSettings()

    def send(self, client: ApinizerClient, target: tuple[str, str, str, str], settings: Any) -> None:
        project, proxy, method, name = target
        client.endpoints.set_wsa(project, proxy, name, method, settings)


class EndpointWsa(EndpointSettingsResource, module="apinizer", name="EndpointWsa"):
    """The WS-Addressing settings of one endpoint of a SOAP API proxy.

    Id: ``{project}/{proxy}/{METHOD}/{name}`` of the endpoint. Changing any of the four
    identifiers replaces it; ``wsa_settings`` changes in place (one write of the whole object).
    Create writes the whole object, so it takes over whatever settings the endpoint had. Destroy
    writes the API's defaults (WS-Addressing off). The API cannot read these settings back, so
    refresh only notices that the endpoint is gone.
    """

    wsa_settings: pulumi.Output[dict[str, Any]]
    """The settings as written, with every default filled in (snake_case keys)."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        api_proxy_name: pulumi.Input[str],
        endpoint_name: pulumi.Input[str],
        endpoint_http_method: pulumi.Input[HttpMethodValue],
        wsa_settings: pulumi.Input[WsaSettingsArgs | Mapping[str, Any]],
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare the WS-Addressing settings of a SOAP endpoint.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the API proxy.
        :param api_proxy_name: The SOAP API proxy that holds the endpoint.
        :param endpoint_name: The endpoint's name, e.g. ``Add``.
        :param endpoint_http_method: The endpoint's HTTP method (usually POST).
        :param wsa_settings: A :class:`WsaSettingsArgs` or a dict with the same snake_case keys.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        self._register(EndpointWsaProvider(), resource_name,
                       (project_name, api_proxy_name, endpoint_name, endpoint_http_method),
                       wsa_settings, connection, opts)


# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).
one_line_arguments(WsaSettingsArgs, prefix="apinizer")
