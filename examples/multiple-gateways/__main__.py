"""One program, two gateways: the same endpoints on each, through an explicit connection per gateway.

A resource's `connection` input wins over the stack config `apinizer:*`, so one stack can drive any
number of gateways (a primary and a disaster-recovery site here). Tokens are read as secrets: Pulumi
stores them encrypted, and every resource's `connection` output stays secret.
"""

import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
gateways = {
    "primary": apinizer.ConnectionArgs(
        url=config.require("primaryUrl"), token=config.require_secret("primaryToken")
    ),
    "secondary": apinizer.ConnectionArgs(
        url=config.require("secondaryUrl"), token=config.require_secret("secondaryToken")
    ),
}

for site, connection in gateways.items():
    status = apinizer.Endpoint(
        f"{site}-order-status",
        project_name="Demo",
        api_proxy_name="Orders",
        name="/orders/{orderId}/status",
        http_method="GET",
        backend_resource_url="https://orders.internal.example/api/orders/{orderId}/status",
        backend_http_method="GET",
        description=f"Order status ({site} site)",
        # The standby site keeps the endpoint declared but off until a failover.
        active=site == "primary",
        connection=connection,
    )
    apinizer.EndpointCache(
        f"{site}-order-status-cache",
        project_name="Demo",
        api_proxy_name="Orders",
        endpoint_name=status.name,
        endpoint_http_method=status.http_method,
        cache_settings=apinizer.CacheSettingsArgs(
            name="order-status", cache_active=True, ttl=15, capacity=5_000, handling_action="STOP"
        ),
        connection=connection,
    )
    pulumi.export(f"{site}StatusEndpointId", status.endpoint_id)
