"""A new service behind the gateway: its OpenAPI spec becomes an API proxy, deployed to one environment.

`specs/orders.yaml` (in this folder) is the whole contract: the proxy is created from it, and each of its
operations becomes an endpoint. Editing the file and running `pulumi up` re-parses the proxy in place
(the file is compared by its content) and, through the deployment's trigger, deploys it again.
On top of what the spec made: a cache on one endpoint and a rate limit in a new rate-limit control list.

One program, one stack per environment of ONE management API (docs/stacks.md): the dev stack owns the
definitions (the proxy, its cache, its rate limit) and their deployment to `test`; the prod stack owns
only the deployment to `production`, which promotes exactly what `test` runs (`promote_from`). Each stack
also owns its own environment's value of the variable `ORDERS_PAYMENTS_URL` (`EnvironmentVariableValue`):
the variable holds one value per environment, and each stack's write leaves the other's value as it is.
With one management API per environment instead, every stack owns the definitions (`ownsDefinitions:
true`, the default) and names its own `backendUrl`.
"""

import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
environment = config.require("environment")
owns_definitions = config.get_bool("ownsDefinitions") is not False
PROJECT = "Demo"
PROXY = "Orders-v2"


def definitions(backend_url: str) -> apinizer.ApiProxyDeployment:
    """The proxy, its cache and its rate limit, and their deployment to this stack's environment."""
    orders = apinizer.ApiProxy(
        "orders-v2",
        project_name=PROJECT,
        name=PROXY,
        spec_type="OPEN_API",
        spec_file="specs/orders.yaml",
        description="Orders of the web shop, version 2",
        routing=apinizer.RoutingArgs(
            addresses=[apinizer.RoutingAddressArgs(address=backend_url, weight=100)]),
        client_route=apinizer.ClientRouteArgs(relative_paths=["/orders/v2"]),
    )

    # The spec made the endpoints; the cache and the rate limit name them through the proxy's outputs, so
    # they wait for the proxy (and are made again if it is replaced).
    items_cache = apinizer.EndpointCache(
        "order-items-cache",
        project_name=PROJECT,
        api_proxy_name=orders.name,
        endpoint_name="/orders/{orderId}/items",
        endpoint_http_method="GET",
        cache_settings=apinizer.CacheSettingsArgs(
            name="order-items",
            cache_active=True,
            cache_key_type="QUERY_PARAMS",
            cache_storage_type="DISTRIBUTED",
            ttl=120,
            capacity=5_000,
            handling_action="STOP",
        ),
    )

    limits = apinizer.Rlcl(
        "orders-v2-limits",
        project_name=PROJECT,
        name="Orders-v2-limits",
        description="Rate limits of the Orders v2 API",
    )
    limit_entries = apinizer.RlclEndpoints(
        "orders-v2-limits-endpoints",
        project_name=PROJECT,
        rlcl_name=limits.name,
        endpoints=[
            # Placing orders: 10 a minute per API key.
            apinizer.EndpointRateLimitArgs(
                api_proxy_name=orders.name,
                endpoint_name="/orders",
                endpoint_http_method="POST",
                permitted_message_count=10,
                time_interval_period_length=1,
                time_interval="ONE_MINUTE",
                time_interval_window_type="FIXED",
                cache_connection_timeout_in_seconds=3,
                cache_error_handling_type="CONTINUE",
                target_variable=apinizer.VariableArgs(name="api-key", type="HEADER", header_name="X-Api-Key"),
            ),
        ],
    )
    pulumi.export(
        "endpoints", orders.endpoints.apply(lambda items: [f"{e['http_method']} {e['name']}" for e in items])
    )

    return apinizer.ApiProxyDeployment(
        f"orders-v2-{environment}",
        project_name=PROJECT,
        api_proxy_name=orders.name,
        environment_name=environment,
        # A new spec (or backend) reaches the environment with the next `pulumi up`: the deployment is redone.
        triggers={"spec": orders.spec_hash, "backend": backend_url},
        # Deploy once the cache is in place: a setting changed after a deployment leaves the environment
        # behind (the gateway marks the proxy "redeploy required").
        opts=pulumi.ResourceOptions(depends_on=[items_cache, limit_entries]),
    )


def promotion(source: str) -> apinizer.ApiProxyDeployment:
    """This environment's deployment of the proxy another stack defines, referred to by its name: it
    deploys only what `source` runs, and again whenever the gateway shows this environment behind."""
    return apinizer.ApiProxyDeployment(
        f"orders-v2-{environment}",
        project_name=PROJECT,
        api_proxy_name=PROXY,
        environment_name=environment,
        promote_from=source,
    )


# This environment's value of a variable of the project, owned by this stack whichever else it owns: the
# variable is made with the first environment's value written and deleted with the last one removed.
payments_url = apinizer.EnvironmentVariableValue(
    f"payments-url-{environment}",
    project_name=PROJECT,
    variable_name="ORDERS_PAYMENTS_URL",
    environment_name=environment,
    value=config.require("paymentsUrl"),
)

if owns_definitions:
    deployment = definitions(config.require("backendUrl"))
else:
    deployment = promotion(config.require("promoteFrom"))

pulumi.export("apiProxy", deployment.api_proxy_name)
pulumi.export("environment", deployment.environment_name)
pulumi.export("deployed", deployment.deployed)
pulumi.export("paymentsUrl", payments_url.value)
