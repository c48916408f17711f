"""The gateway configuration of this repository, one stack per environment.

`dev` (Pulumi.dev.yaml) is the local emulator that `bash scripts/up.sh` starts; `prod` (Pulumi.prod.yaml)
is a real gateway. The program is the same for both: what differs (cache lifetimes and sizes, storage,
rate limits) comes from the stack's config, read below with `pulumi.Config()`.

It works on project `Demo` of the emulator's default fixture: REST proxies `PetStore` and `Orders`,
SOAP proxy `Calculator` (operations `Add` and `Subtract`) and the rate-limit list `Standard`.
"""

from typing import cast

import pulumi

import apinizer_pulumi as apinizer
from apinizer_pulumi.resources import CacheStorageTypeName, HttpMethodName

config = pulumi.Config()
# Defaults in Pulumi.yaml, per-stack values in Pulumi.<stack>.yaml.
cache_ttl = config.require_int("cacheTtl")
cache_capacity = config.require_int("cacheCapacity")
# Config values are plain strings; a value outside LOCAL/DISTRIBUTED still fails `pulumi preview`.
cache_storage = cast(CacheStorageTypeName, config.require("cacheStorage"))
standard_per_minute = config.require_int("standardPerMinute")
partner_per_minute = config.require_int("partnerPerMinute")

PROJECT = "Demo"

# --- REST endpoints -----------------------------------------------------------------------------


def rest_endpoint(
    resource_name: str, proxy: str, path: str, method: HttpMethodName, backend_url: str, description: str
) -> apinizer.Endpoint:
    """An endpoint whose backend call uses the same HTTP method as the gateway's."""
    return apinizer.Endpoint(
        resource_name,
        project_name=PROJECT,
        api_proxy_name=proxy,
        name=path,
        http_method=method,
        backend_resource_url=backend_url,
        backend_http_method=method,
        description=description,
    )


ORDERS_BACKEND = "https://orders.internal.example/api"

# resource name, proxy, path, method, backend URL, description
pet_search = rest_endpoint(
    "petstore-search-pets", "PetStore", "/pets/search", "GET", "/pets/findByTags", "Search pets by tag"
)
pet_update = rest_endpoint(
    "petstore-update-pet", "PetStore", "/pets/{id}", "PUT", "/pets/{id}", "Replace a pet"
)
pet_delete = rest_endpoint(
    "petstore-delete-pet", "PetStore", "/pets/{id}", "DELETE", "/pets/{id}", "Remove a pet"
)
order_create = rest_endpoint(
    "orders-create-order", "Orders", "/orders", "POST", f"{ORDERS_BACKEND}/orders", "Place an order"
)
order_get = rest_endpoint(
    "orders-get-order",
    "Orders",
    "/orders/{orderId}",
    "GET",
    f"{ORDERS_BACKEND}/orders/{{orderId}}",
    "Get one order",
)

# --- Endpoint cache -----------------------------------------------------------------------------
# Settings resources name their endpoint through its outputs, so Pulumi creates the endpoint first
# and removes the settings before the endpoint on destroy.

apinizer.EndpointCache(
    "petstore-search-pets-cache",
    project_name=PROJECT,
    api_proxy_name="PetStore",
    endpoint_name=pet_search.name,
    endpoint_http_method=pet_search.http_method,
    cache_settings=apinizer.CacheSettingsArgs(
        name="pet-search",
        description="Search results keyed by their query string",
        cache_active=True,
        cache_key_type="QUERY_PARAMS",
        cache_storage_type=cache_storage,
        ttl=cache_ttl,
        capacity=cache_capacity,
        handling_action="STOP",
    ),
)
apinizer.EndpointCache(
    "orders-get-order-cache",
    project_name=PROJECT,
    api_proxy_name="Orders",
    endpoint_name=order_get.name,
    endpoint_http_method=order_get.http_method,
    cache_settings=apinizer.CacheSettingsArgs(
        name="order-by-tenant-and-currency",
        description="One entry per tenant and currency: the same order looks different to each",
        cache_active=True,
        cache_key_type="CUSTOM",
        cache_storage_type=cache_storage,
        ttl=cache_ttl,
        capacity=cache_capacity,
        handling_action="STOP",
        variable_list=[
            apinizer.VariableArgs(name="tenant", type="HEADER", header_name="X-Tenant-Id"),
            apinizer.VariableArgs(
                name="currency", type="PARAMETER", param_type="QUERY", param_name="currency"
            ),
        ],
    ),
)

# --- WS-Addressing on a SOAP operation ----------------------------------------------------------

apinizer.EndpointWsa(
    "calculator-add-wsa",
    project_name=PROJECT,
    api_proxy_name="Calculator",
    endpoint_name="Add",
    endpoint_http_method="POST",
    wsa_settings=apinizer.WsaSettingsArgs(
        wsa_enabled=True,
        wsa_version="V200508",
        wsa_must_understand="NONE",
        wsa_add_default_action=True,
        wsa_add_default_to=True,
        wsa_generate_message_id=True,
        wsa_reply_to="http://www.w3.org/2005/08/addressing/anonymous",
    ),
)

# --- Rate limits: the whole endpoint list of the `Standard` RLCL --------------------------------


def per_minute(
    proxy: str,
    endpoint: pulumi.Input[str],
    method: pulumi.Input[HttpMethodName],
    count: int,
    *,
    target_variable: apinizer.VariableArgs | None = None,
    target_identity_value: str | None = None,
) -> apinizer.EndpointRateLimitArgs:
    """An entry with the rules this list shares: a sliding one-minute window that fails open."""
    return apinizer.EndpointRateLimitArgs(
        api_proxy_name=proxy,
        endpoint_name=endpoint,
        endpoint_http_method=method,
        permitted_message_count=count,
        time_interval_period_length=1,
        time_interval="ONE_MINUTE",
        time_interval_window_type="SLIDING",
        cache_connection_timeout_in_seconds=3,
        cache_error_handling_type="CONTINUE",
        show_rate_limit_statistics_in_response_header=True,
        target_variable=target_variable,
        target_identity_value=target_identity_value,
    )


apinizer.RlclEndpoints(
    "standard-rate-limits",
    project_name=PROJECT,
    rlcl_name="Standard",
    endpoints=[
        # Every endpoint and method of PetStore, counted per client address.
        per_minute(
            "PetStore",
            "ALL",
            "ALL",
            standard_per_minute,
            target_variable=apinizer.VariableArgs(
                name="client-ip", type="CONTEXT_VALUES", context_value="REQUEST_REMOTE_ADDRESS"
            ),
        ),
        # Placing orders, counted per API key: a tenth of a client's PetStore budget.
        per_minute(
            "Orders",
            order_create.name,
            order_create.http_method,
            max(1, standard_per_minute // 10),
            target_variable=apinizer.VariableArgs(name="api-key", type="HEADER", header_name="X-Api-Key"),
        ),
        # Partners under contract share one larger budget for reading orders.
        per_minute(
            "Orders",
            order_get.name,
            order_get.http_method,
            partner_per_minute,
            target_identity_value="partners",
        ),
    ],
)

# --- Outputs ------------------------------------------------------------------------------------

pulumi.export(
    "endpointIds",
    {
        "PetStore GET /pets/search": pet_search.endpoint_id,
        "PetStore PUT /pets/{id}": pet_update.endpoint_id,
        "PetStore DELETE /pets/{id}": pet_delete.endpoint_id,
        "Orders POST /orders": order_create.endpoint_id,
        "Orders GET /orders/{orderId}": order_get.endpoint_id,
    },
)

report = apinizer.get_organization_access_report()
pulumi.export(
    "externallySharedProxies",
    sorted(proxy.api_proxy_name for proxy in report.result.api_proxy_list),
)
