"""Who may call the APIs, as code: a partner's credential, an IP allow-list and an environment variable.

- ``partner``: the partner's credential, with access to the proxies PetStore and Orders;
- ``partner-networks``: an IP group of the partner's networks (``partnerNetworks`` in the stack config),
  whose addresses an allowed IP list policy (``policy-white-ip``) on PetStore takes;
- ``partner-backend-url``: an environment variable whose value is the stack's own
  (``partnerBackendUrl``: the partner's sandbox in ``dev``, its production API in ``prod``);
- ``partner-apis``: an API proxy group of the same two proxies under ``/partner``, deployed to the
  environment the stack names (``environment``: ``test``).

Each stack owns all of these on a management API of its own (one management API per environment,
docs/stacks.md); on one management API shared by the environments, split the program as
examples/new-service does (README.md).
"""

from __future__ import annotations

import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
PROJECT = "Demo"

# Set it with `pulumi config set --secret partnerPassword <password>`; a stand-in where it is not set
# (the dev stack), so that the example runs as it ships.
password = config.get_secret("partnerPassword") or pulumi.Output.secret("dev-only-Partner-Pa55")

partner = apinizer.Credential(
    "partner",
    project_name=PROJECT,
    username="partner-app",
    password=password,
    email="api@partner.example",
    full_name="Partner Inc.",
    # The proxies the partner may call (`partnerProxies`, comma-separated; PetStore and Orders by default).
    access=[
        apinizer.CredentialAccessArgs(name=proxy, type="API_PROXY")
        for proxy in (config.get("partnerProxies") or "PetStore,Orders").split(",")
    ],
)

networks = apinizer.IpGroup(
    "partner-networks",
    project_name=PROJECT,
    name="PartnerNetworks",
    description="The partner's networks",
    addresses=config.require("partnerNetworks").split(","),
)

allow_partner = apinizer.Policy(
    "petstore-allow-partner",
    project_name=PROJECT,
    api_proxy_name="PetStore",
    name="allow-partner-networks",
    pipeline="REQUEST",
    order=1,
    description="Only the partner's networks",
    settings=apinizer.policies.WhiteIp(ip_list=networks.addresses),
)

backend_url = apinizer.EnvironmentVariable(
    "partner-backend-url",
    project_name=PROJECT,
    name="PARTNER_BACKEND_URL",
    description="Where the partner's API is, per stack",
    global_value=config.require("partnerBackendUrl"),
)

group = apinizer.ApiProxyGroup(
    "partner-apis",
    project_name=PROJECT,
    name="PartnerApis",
    description="What the partner calls, under one route",
    client_route=apinizer.ClientRouteArgs(relative_paths=["/partner"]),
    api_proxy_names=["PetStore", "Orders"],
)
group_deployment = apinizer.ApiProxyGroupDeployment(
    "partner-apis-deployment",
    project_name=PROJECT,
    api_proxy_group_name=group.name,
    environment_name=config.get("environment") or "test",
    triggers={"members": group.api_proxy_names},
)

pulumi.export("credential", partner.username)
pulumi.export("access", partner.access.apply(lambda items: sorted(f"{a['type']} {a['name']}" for a in items)))
pulumi.export("allowedNetworks", networks.addresses)
pulumi.export("partnerBackendUrl", backend_url.global_value)
pulumi.export("proxyGroup", group.name)
pulumi.export("proxyGroupDeployed", group_deployment.deployed)
