"""Quickstart: two endpoints on the PetStore proxy of the emulator's `Demo` project, then a look at the proxy.

    cd examples/quickstart && pulumi stack init dev && pulumi up

The gateway comes from the stack config `apinizer:url` / `apinizer:token` (see Pulumi.dev.yaml).
"""

import pulumi

import apinizer_pulumi as apinizer

vaccinations = apinizer.Endpoint(
    "pet-vaccinations",
    project_name="Demo",
    api_proxy_name="PetStore",
    name="/pets/{id}/vaccinations",
    http_method="GET",
    backend_resource_url="/pets/{id}/vaccinations",
    backend_http_method="GET",
    description="Vaccination record of one pet",
)

# Declared now, switched on at launch: flipping `active` is an in-place update (a status call).
adoption = apinizer.Endpoint(
    "pet-adoption",
    project_name="Demo",
    api_proxy_name="PetStore",
    name="/pets/{id}/adoption",
    http_method="POST",
    backend_resource_url="/adoptions",
    backend_http_method="POST",
    description="Start the adoption of a pet",
    active=False,
)

pulumi.export("vaccinationsEndpointId", vaccinations.endpoint_id)
pulumi.export("adoptionEndpointId", adoption.endpoint_id)
pulumi.export("adoptionActive", adoption.active)

# Functions read the gateway from the program. Inside `apply`, this one waits until both endpoints exist
# (during a preview of new endpoints it does not run, and the output shows as unknown).
pulumi.export(
    "petStoreEndpoints",
    pulumi.Output.all(vaccinations.endpoint_id, adoption.endpoint_id).apply(
        lambda _: sorted(f"{e.http_method} {e.endpoint}" for e in apinizer.get_endpoints("Demo", "PetStore"))
    ),
)
