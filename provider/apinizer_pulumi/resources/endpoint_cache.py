"""``EndpointCache``: the endpoint-level cache settings of one endpoint, and its dynamic provider.

The provider's module path and class name (``apinizer_pulumi.resources.endpoint_cache.EndpointCacheProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models import CacheSettings

from ._args import VariableArgs, one_line_arguments
from ._connection import ConnectionArgs
from ._settings import EndpointSettingsInputs, EndpointSettingsProvider, EndpointSettingsResource
from ._types import CacheHandlingActionValue, CacheKeyTypeValue, CacheStorageTypeValue, HttpMethodValue


@dataclasses.dataclass(kw_only=True, frozen=True)
class CacheSettingsArgs:
    """Endpoint-level cache settings; they override the proxy's cache settings for this endpoint.

    Defaults are the API's: cache off, only GET requests cached, key from the query parameters,
    distributed storage. ``variable_list`` forms the key when ``cache_key_type`` is CUSTOM.
    """

    name: pulumi.Input[str]
    handling_action: pulumi.Input[CacheHandlingActionValue]
    description: pulumi.Input[str] | None = None
    cache_active: pulumi.Input[bool] | None = None
    cache_only_http_get_requests: pulumi.Input[bool] | None = None
    cache_key_type: pulumi.Input[CacheKeyTypeValue] | None = None
    cache_storage_type: pulumi.Input[CacheStorageTypeValue] | None = None
    capacity: pulumi.Input[int] | None = None
    ttl: pulumi.Input[int] | None = None
    invalidation_requires_authn: pulumi.Input[bool] | None = None
    cache_null_value: pulumi.Input[bool] | None = None
    variable_list: pulumi.Input[Sequence[VariableArgs | Mapping[str, Any]]] | None = None


class EndpointCacheInputs(EndpointSettingsInputs):
    """The inputs of an ``EndpointCache`` resource, validated offline by ``check``."""

    cache_settings: CacheSettings


class EndpointCacheProvider(EndpointSettingsProvider):
    """Write an endpoint's cache settings; on delete, write the defaults with the cache off."""

    kind = "EndpointCache"
    inputs_model = EndpointCacheInputs
    settings_field = "cache_settings"

    def declared(self, props: Mapping[str, Any]) -> CacheSettings:
        return CacheSettings.model_validate(props["cache_settings"])

    def defaults(self, props: Mapping[str, Any]) -> CacheSettings:
        settings = props.get("cache_settings")
        name = settings.get("name") if isinstance(settings, Mapping) else None
        return CacheSettings.disabled(name) if name else CacheSettings.disabled()

    def send(self, client: ApinizerClient, target: tuple[str, str, str, str], settings: Any) -> None:
        project, proxy, method, name = target
        client.endpoints.set_cache(project, proxy, name, method, settings)


class EndpointCache(EndpointSettingsResource, module="apinizer", name="EndpointCache"):
    """The endpoint-level cache settings of one endpoint (REST or SOAP proxy).

    Id: ``{project}/{proxy}/{METHOD}/{name}`` of the endpoint. Changing any of the four
    identifiers replaces it; ``cache_settings`` changes in place (one write of the whole object).
    Create writes the whole object, so it takes over whatever settings the endpoint had. Destroy
    writes the API's defaults with the cache off (keeping the settings' name): the endpoint falls
    back to the proxy-level cache. The API cannot read these settings back, so refresh only
    notices that the endpoint is gone.
    """

    cache_settings: pulumi.Output[dict[str, Any]]
    """The settings as written, with every default filled in (snake_case keys)."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        api_proxy_name: pulumi.Input[str],
        endpoint_name: pulumi.Input[str],
        endpoint_http_method: pulumi.Input[HttpMethodValue],
        cache_settings: pulumi.Input[CacheSettingsArgs | Mapping[str, Any]],
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare the cache settings of an endpoint.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the API proxy.
        :param api_proxy_name: The API proxy that holds the endpoint.
        :param endpoint_name: The endpoint's path, e.g. ``/api/users``.
        :param endpoint_http_method: The endpoint's HTTP method.
        :param cache_settings: A :class:`CacheSettingsArgs` or a dict with the same snake_case keys.
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        self._register(EndpointCacheProvider(), resource_name,
                       (project_name, api_proxy_name, endpoint_name, endpoint_http_method),
                       cache_settings, connection, opts)


# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).
one_line_arguments(CacheSettingsArgs, prefix="apinizer")
