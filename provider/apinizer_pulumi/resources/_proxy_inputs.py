"""The pydantic models of ``ApiProxy`` and ``ApiProxyDeployment`` inputs, named lazily by their providers.

Kept apart from the resource modules so that declaring a proxy in a Pulumi program does not import
pydantic and the API's models (docs/performance.md). Each settings block is the model of its
settings page, so that check rejects what the page would refuse before anything is sent.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, JsonValue, model_validator

from apinizer_pulumi.models import (
    ApiKeysUpdate,
    ApiModel,
    ApiProxySpecType,
    CacheSettings,
    CircuitBreakerSettings,
    ClientRoute,
    ConnectionSettings,
    CorsSettings,
    ForwardedIpHeaderSettings,
    HeaderMatch,
    HttpMethod,
    JsonErrorTemplate,
    MtlsSettings,
    Name,
    NtlmSettings,
    ProxyServerSettings,
    RoutingAddress,
    RoutingInfo,
    SharingType,
    TrafficLogSettings,
    XmlErrorTemplate,
)
from apinizer_pulumi.models._base import field_errors


class RoutingInput(ApiModel):
    """``routing``: the backend addresses (settings/addresses), and routing on or off (routing-status)."""

    addresses: list[RoutingAddress] = Field(min_length=1)
    enabled: bool | None = None
    mirror_enabled: bool | None = None

    def routing_info(self) -> RoutingInfo:
        return RoutingInfo(routing_address_list=self.addresses, routing_enabled=self.enabled,
                           mirror_enabled=self.mirror_enabled)


class ClientRouteInput(ApiModel):
    """``client_route``: how clients reach the proxy (settings/client-route)."""

    relative_paths: list[str] = Field(min_length=1)
    virtual_hosts: list[str] | None = None
    methods: list[HttpMethod] | None = None
    headers: list[HeaderMatch] | None = None
    buffer_request: bool | None = None
    buffer_response: bool | None = None

    def client_route(self) -> ClientRoute:
        return ClientRoute(relative_path_list=self.relative_paths, virtual_host_list=self.virtual_hosts,
                           method_list=self.methods, header_list=self.headers,
                           buffer_request=self.buffer_request, buffer_response=self.buffer_response)


class MetadataInput(ApiModel):
    """``metadata``: categories and sharing (settings/metadata; name and description are own inputs)."""

    categories: list[str] | None = None
    sharing_type: SharingType | None = None


#: Each optional settings block: its input name, its model and the client method that writes it.
#: The order is the order of the writes.
SETTINGS_BLOCKS: dict[str, tuple[type[ApiModel], str]] = {
    "cors": (CorsSettings, "set_cors"),
    "api_keys": (ApiKeysUpdate, "set_api_keys"),
    "cache": (CacheSettings, "set_cache"),
    "circuit_breaker": (CircuitBreakerSettings, "set_circuit_breaker"),
    "connection_settings": (ConnectionSettings, "set_connection"),
    "forwarded_ip_header": (ForwardedIpHeaderSettings, "set_forwarded_ip_header"),
    "json_error_template": (JsonErrorTemplate, "set_json_error_template"),
    "xml_error_template": (XmlErrorTemplate, "set_xml_error_template"),
    "mtls": (MtlsSettings, "set_mtls"),
    "ntlm": (NtlmSettings, "set_ntlm"),
    "proxy_server": (ProxyServerSettings, "set_proxy_server"),
    "traffic_log": (TrafficLogSettings, "set_traffic_log"),
}


class ApiProxyInputs(ApiModel):
    """The inputs of an ``ApiProxy`` resource, validated offline by ``check``."""

    project_name: Name
    name: Name
    #: None only with ``adopt``: the proxy is taken over with the spec it has (what ``generate`` writes).
    spec_type: ApiProxySpecType | None = None
    #: The spec file's absolute path: the provider reads it when it sends the spec (see api_proxy.py).
    spec_file: str | None = Field(default=None, min_length=1)
    spec_filename: str | None = None
    spec_hash: str | None = None
    spec_url: str | None = Field(default=None, min_length=1)
    description: str | None = None
    routing: RoutingInput | None = None
    client_route: ClientRouteInput | None = None
    metadata: MetadataInput | None = None
    cors: CorsSettings | None = None
    api_keys: ApiKeysUpdate | None = None
    cache: CacheSettings | None = None
    circuit_breaker: CircuitBreakerSettings | None = None
    connection_settings: ConnectionSettings | None = None
    forwarded_ip_header: ForwardedIpHeaderSettings | None = None
    hide_spec_file: bool | None = None
    json_error_template: JsonErrorTemplate | None = None
    xml_error_template: XmlErrorTemplate | None = None
    mtls: MtlsSettings | None = None
    ntlm: NtlmSettings | None = None
    proxy_server: ProxyServerSettings | None = None
    traffic_log: TrafficLogSettings | None = None
    adopt: bool = False

    @model_validator(mode="after")
    def _one_source(self) -> ApiProxyInputs:
        has_file, has_url = self.spec_file is not None, self.spec_url is not None
        if self.spec_type is None:
            if has_file or has_url:
                raise ValueError("spec_file and spec_url need spec_type (OPEN_API, SWAGGER or WSDL)")
            if not self.adopt:
                raise ValueError("spec_type is required (OPEN_API, SWAGGER, WSDL or REVERSE_PROXY); only "
                                 "adopt=True may leave it out, to take a proxy over with the spec it has")
        elif self.spec_type is ApiProxySpecType.REVERSE_PROXY:
            if has_file or has_url:
                raise ValueError("a REVERSE_PROXY has no spec: leave out spec_file and spec_url")
        elif has_file and has_url:
            raise ValueError(f"an {self.spec_type.value} proxy needs exactly one of spec_file and spec_url")
        elif not (has_file or has_url or self.adopt):
            # Adopted without a spec, a proxy keeps the spec it has; only a new one needs one.
            raise ValueError(f"an {self.spec_type.value} proxy needs exactly one of spec_file and spec_url "
                             "(or adopt=True, to take over an existing proxy and keep its spec)")
        return self


class ApiProxyDeploymentInputs(ApiModel):
    """The inputs of an ``ApiProxyDeployment`` resource."""

    project_name: Name
    api_proxy_name: Name
    environment_name: Name
    triggers: dict[str, JsonValue] | None = None
    promote_from: Name | None = None

    @model_validator(mode="after")
    def _promoted_from_elsewhere(self) -> ApiProxyDeploymentInputs:
        promoted_from_elsewhere(self, self.promote_from, self.environment_name)
        return self


def promoted_from_elsewhere(inputs: ApiModel, promote_from: str | None, environment_name: str) -> None:
    """A deployment cannot be promoted from the environment it deploys to."""
    if promote_from is not None and promote_from == environment_name:
        raise field_errors(type(inputs).__name__, [
            ("promote_from", "names the environment this deploys to: name the one it is promoted from, "
             "e.g. promote_from='test' for a deployment to production", None)])


def block_dump(value: Any) -> Any:
    """A settings block's model as the snake_case dict that inputs and outputs hold."""
    return value.model_dump(mode="json", exclude_none=True) if isinstance(value, ApiModel) else value
