"""A payments API behind a pipeline of policies, in order: who may call, from where, how often, and
what reaches the backend.

The proxy is made here (a reverse proxy, no spec), and its REQUEST pipeline runs five policies in
the declared order: authentication, an IP allow-list, throttling per user, a JSON transformation of
the request body, and a script that stamps each request. Writes send ``deploy: false``; the
deployment to ``test`` redeploys whenever a policy changes, through its ``triggers``.
"""

import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
environment = config.get("environment") or "test"

proxy = apinizer.ApiProxy(
    "payments",
    project_name="Demo",
    name="Payments",
    spec_type="REVERSE_PROXY",
    description="Payments, guarded by policies",
    routing=apinizer.RoutingArgs(addresses=[apinizer.RoutingAddressArgs(address="http://payments.internal")]),
    client_route=apinizer.ClientRouteArgs(relative_paths=["/payments"]),
)

user = apinizer.policies.PolicyVariableArgs(name="user", type="HEADER", header_name="X-Authenticated-User")
pipeline: list[tuple[str, object]] = [
    # 1. Basic authentication: the caller's credentials, the user passed on to the backend.
    ("authenticate", apinizer.policies.AuthBasic(
        username_var=apinizer.policies.PolicyVariableArgs(type="HEADER", header_name="Authorization"),
        add_user_to_header=True,
        user_header_name="X-Authenticated-User",
    )),
    # 2. Only the office and the VPN.
    ("office-only", apinizer.policies.WhiteIp(ip_list=["10.0.0.0/8", "192.168.10.0/24"])),
    # 3. 100 calls a minute per user, over a sliding window.
    ("per-user-limit", apinizer.policies.ApiBasedThrottling(
        target_variable_for_identity=user,
        message_count_for_interval=100,
        throttling_interval="ONE_MINUTE",
        interval_window_type="SLIDING",
    )),
    # 4. The request body reshaped for the backend (a JOLT specification).
    ("reshape-request", apinizer.policies.JsonTransformation(
        transformation_type="JSON2JSON",
        jolt_value='[{"operation": "shift", "spec": {"amount": "payment.amount"}}]',
    )),
    # 5. A script that stamps each request.
    ("stamp", apinizer.policies.Script(
        script_language="GROOVY",
        script_body="requestHeaderMapToTarget.put('X-Gateway', 'apinizer')",
    )),
]

policies = [
    apinizer.Policy(
        f"payments-{name}",
        project_name="Demo",
        api_proxy_name=proxy.name,
        name=name,
        pipeline="REQUEST",
        order=position,
        settings=settings,
    )
    for position, (name, settings) in enumerate(pipeline, start=1)
]

deployment = apinizer.ApiProxyDeployment(
    f"payments-{environment}",
    project_name="Demo",
    api_proxy_name=proxy.name,
    environment_name=environment,
    # A changed policy changes its revision: the proxy is deployed again in the same `up`.
    triggers={name: policy.revision for (name, _), policy in zip(pipeline, policies, strict=True)},
    opts=pulumi.ResourceOptions(depends_on=policies),
)

pulumi.export("policies", [name for name, _ in pipeline])
pulumi.export("deployed", deployment.deployed)
