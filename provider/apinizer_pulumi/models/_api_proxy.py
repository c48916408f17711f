"""API proxies: what their create, update, list, get, delete and deployment operations send and answer.

Sources (each page read whole):
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/crud/index.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/deployment/index.md

Where the pages disagree with one another, these models accept every documented shape
(``docs/docs-disagreements.md`` lists each place):

- ``clientRoute`` names its hosts ``virtualHostList`` (URL pages, get) or ``hostList`` (file pages);
  :class:`ClientRoute` reads both and :attr:`ClientRoute.hosts` gives whichever came.
- ``sharingType`` is PROJECT/ORGANIZATION/PUBLIC on the get page and EXTERNAL/INTERNAL/BOTH/NONE
  in the report; :attr:`ApiProxy.sharing_type` takes either set.
- ``deploymentResult`` comes in three shapes (``deploymentResults``; ``message`` with
  ``environmentResults``; ``responseTime`` with per-pod ``detailList``);
  :meth:`DeploymentResult.per_environment` reads all three alike.
- The routing algorithm values differ between the create and update file pages; the enum holds both.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, field_validator

from ._base import ApiModel
from ._enums import HttpMethod, SharingType
from ._project import ResultEnvelope


class ApiProxySpecType(StrEnum):
    """EnumApiProxySpecType, the ``apiProxyCreationType`` of create and update."""

    OPEN_API = "OPEN_API"
    SWAGGER = "SWAGGER"
    WSDL = "WSDL"
    REVERSE_PROXY = "REVERSE_PROXY"


class ApiType(StrEnum):
    """EnumApiType. The pages show REST and SOAP; the enum reference adds GRPC and WEBSOCKET."""

    REST = "REST"
    SOAP = "SOAP"
    GRPC = "GRPC"
    WEBSOCKET = "WEBSOCKET"


class ApiProxySharingType(StrEnum):
    """``sharingType`` as the get page lists it (the report uses :class:`SharingType`)."""

    PROJECT = "PROJECT"
    ORGANIZATION = "ORGANIZATION"
    PUBLIC = "PUBLIC"


class RoutingAlgorithm(StrEnum):
    """EnumRoutingAlgorithm: the create page's five values, the update page's two others and the
    import page's two others."""

    ROUND_ROBIN = "ROUND_ROBIN"
    LRU = "LRU"
    WEIGHTED = "WEIGHTED"
    RANDOM = "RANDOM"
    PICK_FIRST = "PICK_FIRST"
    WEIGHTED_ROUND_ROBIN = "WEIGHTED_ROUND_ROBIN"
    LEAST_CONNECTIONS = "LEAST_CONNECTIONS"
    IP_HASH = "IP_HASH"
    URL_HASH = "URL_HASH"


class SoapApiPortType(StrEnum):
    """EnumSoapApiPortType: the SOAP version of a routing address."""

    SOAP11 = "SOAP11"
    SOAP12 = "SOAP12"


class HeaderMatch(ApiModel):
    """A header a client route matches (``headerList`` items of the client-route page)."""

    name: str = Field(min_length=1)
    value: str


class ClientRoute(ApiModel):
    """How clients reach the proxy. ``relative_path_list`` must hold at least one path on create.

    Hosts arrive as ``virtualHostList`` or ``hostList``; both are kept as given.
    """

    relative_path_list: list[str] | None = None
    virtual_host_list: list[str] | None = None
    host_list: list[str] | None = None
    method_list: list[HttpMethod] | None = None
    header_list: list[HeaderMatch] | None = None
    buffer_request: bool | None = None
    buffer_response: bool | None = None

    @property
    def hosts(self) -> list[str]:
        """The virtual hosts, whichever of the two names carried them (``virtualHostList`` first)."""
        return list(self.virtual_host_list or self.host_list or [])


class RoutingAddress(ApiModel):
    """One backend address. ``weight`` defaults to 100 on the URL pages and to 1 on the file
    page, so no default is assumed here: the gateway's own applies when it is left out."""

    address: str = Field(min_length=1)
    weight: int | None = None
    health_check_enabled: bool | None = None
    soap_type: SoapApiPortType | None = None


class RoutingInfo(ApiModel):
    """``routingInfo`` of create and update, ``routing`` of the get answer.

    The URL pages show ``routingEnabled`` (default true) and ``mirrorEnabled`` (default false); the
    file pages the algorithm, timeouts (seconds) and retries. Every field is optional, and one
    left out is left to the gateway (on update: kept as it is).
    """

    routing_address_list: list[RoutingAddress] | None = None
    routing_enabled: bool | None = None
    mirror_enabled: bool | None = None
    load_balance_algorithm: RoutingAlgorithm | None = None
    connect_timeout: int | None = Field(default=None, ge=0)
    read_timeout: int | None = Field(default=None, ge=0)
    retry_count: int | None = Field(default=None, ge=0)
    failover_retry_count: int | None = Field(default=None, ge=0)
    ignore_routing_error: bool | None = None


class MaintenanceModeSetting(ApiModel):
    """Maintenance mode: an answer the gateway gives instead of calling the backend."""

    enabled: bool = False
    http_status_code: int = Field(default=503, ge=100, le=599)
    content_type: str = "application/json"
    message: str | None = None


class SpecAuthorizationValue(ApiModel):
    """A header sent when the gateway fetches ``specUrl``. The value is a credential: kept out of reprs."""

    header_name: str = Field(min_length=1)
    header_value: str = Field(repr=False)


class ApiProxyRequest(ApiModel):
    """The JSON body of create and update from a URL, and the ``metadata`` part of the file uploads.

    ``spec_url`` belongs to the URL operations (not needed for ``REVERSE_PROXY``); the file
    operations send the spec as the ``specFile`` part instead. ``re_parse`` is false on create
    and true on update.
    """

    api_proxy_name: str = Field(min_length=1)
    api_proxy_description: str | None = None
    api_proxy_creation_type: ApiProxySpecType
    spec_url: str | None = None
    client_route: ClientRoute | None = None
    routing_info: RoutingInfo | None = None
    deploy: bool = False
    deploy_target_environment_name_list: list[str] = Field(default_factory=list)
    re_parse: bool = False
    soap_to_rest: bool = False
    enable_wsa: bool = Field(default=False, alias="enableWSA")
    enable_wsrm: bool = Field(default=False, alias="enableWSRM")
    backend_api_version: str | None = None
    maintenance_mode_setting: MaintenanceModeSetting | None = None
    spec_authorization_value_list: list[SpecAuthorizationValue] = Field(default_factory=list)


class ApiProxySummary(ApiModel):
    """One item of ``GET .../apiProxies/``. ``relative_path`` is the client route's first path."""

    name: str
    description: str | None = None
    type: ApiType | None = None
    relative_path: str | None = None
    soap_to_rest: bool | None = None


class ApiProxyList(ResultEnvelope):
    """``GET /apiops/projects/{projectName}/apiProxies/``: the project's proxies, ordered by name."""

    result_list: list[ApiProxySummary] = Field(default_factory=list)
    result_count: int = 0


class ProxyDeployment(ApiModel):
    """One environment's line of a proxy's ``deploymentList``."""

    environment_name: str
    deployed: bool = False
    redeploy_required: bool = False

    @field_validator("deployed", "redeploy_required", mode="before")
    @classmethod
    def _null_is_false(cls, value: Any) -> Any:
        return False if value is None else value


class ApiProxy(ApiModel):
    """``GET .../apiProxies/{apiProxyName}/``: the proxy with its route, routing and deployments."""

    name: str
    description: str | None = None
    api_type: ApiType | None = None
    category_list: list[str] = Field(default_factory=list)
    sharing_type: ApiProxySharingType | SharingType | None = None
    client_route: ClientRoute | None = None
    routing: RoutingInfo | None = None
    deployment_list: list[ProxyDeployment] = Field(default_factory=list)

    def deployment(self, environment: str) -> ProxyDeployment | None:
        """The deployment line of ``environment``, or None when the proxy was never deployed there."""
        return next((d for d in self.deployment_list if d.environment_name == environment), None)


class EnvironmentDeploymentResult(ApiModel):
    """The outcome in one environment (``deploymentResults`` and ``environmentResults`` items)."""

    environment_name: str
    success: bool
    message: str | None = None


class PodDeploymentResult(ApiModel):
    """The outcome on one pod (``detailList`` items of the policy pages' shape)."""

    env_name: str
    pod_name: str | None = None
    pod_ip: str | None = None
    success: bool
    response_time: int | None = None


class DeploymentResult(ApiModel):
    """``deploymentResult`` in any of its three documented shapes."""

    success: bool | None = None
    message: str | None = None
    response_time: int | None = None
    deployment_results: list[EnvironmentDeploymentResult] | None = None
    environment_results: list[EnvironmentDeploymentResult] | None = None
    detail_list: list[PodDeploymentResult] | None = None

    def per_environment(self) -> list[EnvironmentDeploymentResult]:
        """One result per environment, whatever the shape: the pods of an environment succeed
        together or the environment failed (its message then names the failed pods)."""
        if self.deployment_results is not None:
            return list(self.deployment_results)
        if self.environment_results is not None:
            return list(self.environment_results)
        by_env: dict[str, list[PodDeploymentResult]] = {}
        for pod in self.detail_list or []:
            by_env.setdefault(pod.env_name, []).append(pod)
        results = []
        for env, pods in by_env.items():
            failed = [p.pod_name or p.pod_ip or "?" for p in pods if not p.success]
            message = f"failed on pod(s) {', '.join(failed)}" if failed else None
            results.append(
                EnvironmentDeploymentResult(environment_name=env, success=not failed, message=message)
            )
        return results

    def failures(self) -> list[EnvironmentDeploymentResult]:
        """The environments where the operation did not succeed."""
        return [r for r in self.per_environment() if not r.success]

    @property
    def ok(self) -> bool:
        """False when the overall flag or any environment says it failed."""
        return self.success is not False and not self.failures()


class DeploymentResponse(ResultEnvelope):
    """The answer of create, update, delete, deploy and undeploy: ``success`` and, where the
    operation deployed or undeployed, ``deploymentResult``."""

    deployment_result: DeploymentResult | None = None


class ImportRoutingAddress(ApiModel):
    """A backend address in the import metadata's ``routing.addressList`` (weight: the gateway's
    default, 1, when left out)."""

    address: str = Field(min_length=1)
    weight: int | None = None
    soap_type: SoapApiPortType | None = None


class ImportRouting(ApiModel):
    """``routing`` of the import metadata: its own names (``algorithm``, ``addressList``)."""

    algorithm: RoutingAlgorithm | None = None
    address_list: list[ImportRoutingAddress] | None = None


class ImportMetadata(ApiModel):
    """The ``metadata`` part of import-and-override: every field optional.

    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/import-export/import-api-proxy-and-override.md
    """

    deploy: bool = False
    deploy_target_environment_name_list: list[str] | None = None
    routing: ImportRouting | None = None
    maintenance_mode: bool | None = None


class ReportEndpoint(ApiModel):
    """An endpoint in the API proxies report: ``name`` is ``"<METHOD> <path>"``."""

    id: str | None = None
    name: str
    method: HttpMethod | None = None
    path: str | None = None


class ApiProxyReportItem(ApiModel):
    """One proxy of ``GET /apiops/reports/api-proxies``; ``endpoints`` only with ``includeEndpoints=true``.

    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/14-reports/api-report.md
    """

    id: str | None = None
    name: str
    description: str | None = None
    type: ApiType | None = None
    endpoints: list[ReportEndpoint] | None = None


class ApiProxiesReport(ResultEnvelope):
    """The API proxies report (system administrators and analyzers)."""

    result_list: list[ApiProxyReportItem] = Field(default_factory=list)
    result_count: int = 0


# -- settings pages: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/settings/index.md


class RoutingAddressesUpdate(ApiModel):
    """``PATCH .../settings/addresses/``: the backend addresses, replaced as a whole."""

    routing_address_list: list[RoutingAddress]


class RoutingStatusUpdate(ApiModel):
    """``PATCH .../settings/routing-status/``: only the fields given change."""

    routing_enabled: bool | None = None
    mirror_enabled: bool | None = None


class MetadataUpdate(ApiModel):
    """``PATCH .../settings/metadata/``: name, description, categories and sharing, each optional.

    ``sharing_type`` takes the report's values (EXTERNAL, INTERNAL, BOTH, NONE), as this page lists them.
    """

    name: str | None = Field(default=None, min_length=1)
    description: str | None = None
    category_list: list[str] | None = None
    sharing_type: SharingType | None = None


class CorsSettings(ApiModel):
    """``PATCH .../settings/cors/``. ``allow_credentials`` is the string ``"true"`` or ``"false"``,
    as the page insists; a boolean is read as its string."""

    name: str = Field(min_length=1)
    description: str | None = None
    cors_active: bool = False
    allow_origin_list: list[str] = Field(default_factory=list)
    allow_method_list: list[HttpMethod] = Field(default_factory=list)
    allow_header_list: list[str] = Field(default_factory=list)
    expose_header_list: list[str] = Field(default_factory=list)
    allow_credentials: Literal["true", "false"] = "false"
    max_age: int = Field(default=3600, ge=0)

    @field_validator("allow_credentials", mode="before")
    @classmethod
    def _boolean_as_string(cls, value: Any) -> Any:
        return str(value).lower() if isinstance(value, bool) else value


class ApiKeysUpdate(ApiModel):
    """``PATCH .../settings/keys/``: at least one key; a key given must not be blank. Both are
    credentials, kept out of reprs."""

    public_key: str | None = Field(default=None, repr=False)
    secret_key: str | None = Field(default=None, repr=False)


class ErrorThresholdType(StrEnum):
    """EnumErrorThresholdType of the circuit breaker."""

    COUNT = "COUNT"
    PERCENT = "PERCENT"


class CircuitBreakerSettings(ApiModel):
    """``PATCH .../settings/circuit-breaker/``: only the fields given change (windows in seconds)."""

    circuit_breaker_enabled: bool | None = None
    error_window: int | None = Field(default=None, ge=0)
    error_threshold_value: int | None = Field(default=None, ge=0)
    enum_error_threshold_type: ErrorThresholdType | None = None
    sleep_window: int | None = Field(default=None, ge=0)
    half_open_enabled: bool | None = None


class ConnectionPoolManagementType(StrEnum):
    """EnumConnectionPoolManagementType."""

    GENERAL = "GENERAL"
    CUSTOM = "CUSTOM"
    NONE = "NONE"


class ConnectionSettings(ApiModel):
    """``PATCH .../settings/connection/``: only the fields given change (timeouts in seconds).
    ``custom_connection_pool_size`` is needed with ``connection_pool_management_type`` CUSTOM."""

    connection_settings_enabled: bool | None = None
    connect_timeout: int | None = Field(default=None, ge=0)
    read_timeout: int | None = Field(default=None, ge=0)
    connection_request_timeout: int | None = Field(default=None, ge=0)
    redirects_enabled: bool | None = None
    max_redirects: int | None = Field(default=None, ge=0)
    relative_redirects_allowed: bool | None = None
    disable_content_compression: bool | None = None
    enable_streaming: bool | None = None
    retry_count: int | None = Field(default=None, ge=0)
    failover_retry_count: int | None = Field(default=None, ge=0)
    ignore_routing_error: bool | None = None
    connection_pool_management_type: ConnectionPoolManagementType | None = None
    custom_connection_pool_size: int | None = Field(default=None, gt=0)


class XffOrder(StrEnum):
    """EnumPolicyXFFOrder: which address of X-Forwarded-For is the client's."""

    FIRST = "FIRST"
    SECOND = "SECOND"
    THIRD = "THIRD"
    FOURTH = "FOURTH"
    FIFTH = "FIFTH"
    LAST = "LAST"


class ForwardedIpHeaderSettings(ApiModel):
    """``PATCH .../settings/forwarded-ip-header/`` (defaults on the gateway: off, X-Forwarded-For,
    FIRST); only the fields given change."""

    forwarded_ip_header_param_active: bool | None = None
    value: str | None = Field(default=None, min_length=1)
    xff_order: XffOrder | None = None


class JsonErrorTemplate(ApiModel):
    """``PATCH .../settings/json-error-template/``: ``json_value`` must be JSON (with the
    ``#CORRELATIONID#``-style placeholders inside its strings)."""

    json_error_response_template_active: bool | None = None
    json_value: str | None = None
    content_type: str | None = None
    permit_special_chars: bool | None = None


class XmlErrorTemplate(ApiModel):
    """``PATCH .../settings/xml-error-template/``: ``xml_value`` must be well-formed XML."""

    xml_error_response_template_active: bool | None = None
    xml_value: str | None = None
    content_type: str | None = None
    permit_special_chars: bool | None = None


class SslProtocol(StrEnum):
    """EnumSSLContextProtocolType."""

    TLS_1_3 = "TLS_1_3"
    TLS_1_2 = "TLS_1_2"
    TLS_1_1 = "TLS_1_1"
    TLS_1_0 = "TLS_1_0"
    SSL_3_0 = "SSL_3_0"


class HostnameVerifierType(StrEnum):
    """EnumHostnameVerifierType."""

    NOOP = "NOOP"
    DEFAULT = "DEFAULT"
    STRICT = "STRICT"
    BROWSER_COMPAT = "BROWSER_COMPAT"


class MtlsSettings(ApiModel):
    """``PATCH .../settings/mtls/``: a key store is needed once mTLS is enabled."""

    enabled: bool | None = None
    key_store_id: str | None = None
    trust_store_id: str | None = None
    supported_protocol_list: list[SslProtocol] | None = None
    hostname_verifier_type: HostnameVerifierType | None = None


class NtlmSettings(ApiModel):
    """``PATCH .../settings/ntlm/``: domain, username and password once enabled; the password is
    kept out of reprs."""

    enabled: bool | None = None
    domain: str | None = None
    username: str | None = None
    password: str | None = Field(default=None, repr=False)
    workstation: str | None = None


class ProxyServerSettings(ApiModel):
    """``PATCH .../settings/proxy-server/``: an outbound proxy; the password is kept out of reprs."""

    proxy_enabled: bool | None = None
    proxy_from_header_enabled: bool | None = None
    proxy_host: str | None = None
    proxy_port: int | None = Field(default=None, gt=0, le=65535)
    proxy_authorization_needed: bool | None = None
    proxy_username: str | None = None
    proxy_password: str | None = Field(default=None, repr=False)


class TrafficLogEnvironmentSettings(ApiModel):
    """What is logged, and where it is sent, in one environment."""

    environment_name: str
    log_param_request_from_client: bool = True
    log_header_request_from_client: bool = True
    log_body_request_from_client: bool = True
    log_param_request_to_target: bool = True
    log_header_request_to_target: bool = True
    log_body_request_to_target: bool = True
    log_header_response_from_target: bool = True
    log_body_response_from_target: bool = True
    log_header_response_to_client: bool = True
    log_body_response_to_client: bool = True
    enable_database_connector: bool = False
    enable_elasticsearch_connector: bool = False
    enable_syslog_connector: bool = False
    enable_webhook_connector: bool = False
    enable_rabbit_mq_connector: bool = False
    enable_active_mq_connector: bool = False
    enable_kafka_connector: bool = False
    enable_graylog_connector: bool = False
    enable_logback_connector: bool = False


class TrafficLogSettings(ApiModel):
    """``PATCH .../settings/traffic-log/``: only the fields given change."""

    enabled_trace_log: bool | None = None
    enabled_application_log: bool | None = None
    api_proxy_traffic_log_settings_list: list[TrafficLogEnvironmentSettings] | None = None
