"""Endpoint-level cache settings on the Orders proxy: both key types and both storage types.

Each `EndpointCache` overrides the proxy's cache for one endpoint. Destroying it writes the spec's
defaults with the cache off, so the endpoint falls back to the proxy-level cache.
"""

import pulumi

import apinizer_pulumi as apinizer
from apinizer_pulumi.resources import HttpMethodName

PROJECT, PROXY = "Demo", "Orders"


def endpoint(resource_name: str, path: str, method: HttpMethodName, description: str) -> apinizer.Endpoint:
    return apinizer.Endpoint(
        resource_name,
        project_name=PROJECT,
        api_proxy_name=PROXY,
        name=path,
        http_method=method,
        backend_resource_url=f"https://orders.internal.example/api{path}",
        backend_http_method=method,
        description=description,
    )


search = endpoint("orders-search", "/orders/search", "GET", "Search orders")
items = endpoint("order-items", "/orders/{orderId}/items", "GET", "Items of one order")
quote = endpoint("order-quote", "/orders/quote", "POST", "Price a basket")

# QUERY_PARAMS key, shared by every worker: the same query string is one entry cluster-wide.
apinizer.EndpointCache(
    "orders-search-cache",
    project_name=PROJECT,
    api_proxy_name=PROXY,
    endpoint_name=search.name,
    endpoint_http_method=search.http_method,
    cache_settings=apinizer.CacheSettingsArgs(
        name="orders-search",
        cache_active=True,
        cache_key_type="QUERY_PARAMS",
        cache_storage_type="DISTRIBUTED",
        ttl=300,
        capacity=10_000,
        handling_action="STOP",
    ),
)

# CUSTOM key from a path parameter and a header, kept per worker; on a hit the backend is still
# called (CONTINUE), which keeps its access log complete.
apinizer.EndpointCache(
    "order-items-cache",
    project_name=PROJECT,
    api_proxy_name=PROXY,
    endpoint_name=items.name,
    endpoint_http_method=items.http_method,
    cache_settings=apinizer.CacheSettingsArgs(
        name="order-items-by-language",
        cache_active=True,
        cache_key_type="CUSTOM",
        cache_storage_type="LOCAL",
        ttl=60,
        capacity=1_000,
        handling_action="CONTINUE",
        variable_list=[
            apinizer.VariableArgs(
                name="order-id",
                type="PARAMETER",
                param_type="PATH",
                param_name="orderId",
                param_path="/orders/{orderId}/items",
            ),
            apinizer.VariableArgs(name="language", type="HEADER", header_name="Accept-Language"),
        ],
    ),
)

# A POST cached too (cache_only_http_get_requests=False): the key is the basket in the JSON body and
# the calendar day in Istanbul, so quotes renew at local midnight. Clearing it needs authentication.
apinizer.EndpointCache(
    "order-quote-cache",
    project_name=PROJECT,
    api_proxy_name=PROXY,
    endpoint_name=quote.name,
    endpoint_http_method=quote.http_method,
    cache_settings=apinizer.CacheSettingsArgs(
        name="daily-quotes",
        description="One price per basket per day",
        cache_active=True,
        cache_only_http_get_requests=False,
        cache_key_type="CUSTOM",
        cache_storage_type="DISTRIBUTED",
        ttl=86_400,
        capacity=50_000,
        handling_action="STOP",
        invalidation_requires_authn=True,
        cache_null_value=False,
        variable_list=[
            apinizer.VariableArgs(
                name="basket", type="BODY", message_content_type="JSON", json_path_value="$.items"
            ),
            apinizer.VariableArgs(
                name="day",
                type="CONTEXT_VALUES",
                context_value="DATE_FORMATTED_TEXT",
                zone_id="Europe/Istanbul",
            ),
        ],
    ),
)

pulumi.export("cachedEndpointIds", [search.endpoint_id, items.endpoint_id, quote.endpoint_id])
