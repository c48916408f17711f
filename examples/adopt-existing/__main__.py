"""Take over endpoints that already exist on the gateway, then manage them as code.

Pulumi's `import` option does not work for dynamic resources, so `Endpoint` has `adopt=True`: when the
(name, method) already exists, the first `pulumi up` takes it over (it keeps its id and its policies,
and is brought to the declared description, backend and status) instead of failing. From then on it
is an ordinary resource: change a field and `up` updates it, `refresh` shows drift, and `destroy`
DELETES it from the gateway, as for anything Pulumi manages (`pulumi state delete <urn>` lets go of one
without deleting it).
"""

import pulumi

import apinizer_pulumi as apinizer

# Three endpoints of the default fixture, declared as they should be from now on.
list_pets = apinizer.Endpoint(
    "list-pets",
    project_name="Demo",
    api_proxy_name="PetStore",
    name="/pets",
    http_method="GET",
    backend_resource_url="/pets",
    backend_http_method="GET",
    description="List all pets (managed by Pulumi)",
    adopt=True,
)
get_pet = apinizer.Endpoint(
    "get-pet",
    project_name="Demo",
    api_proxy_name="PetStore",
    name="/pets/{id}",
    http_method="GET",
    backend_resource_url="/v2/pets/{id}",
    backend_http_method="GET",
    description="Get one pet, from the v2 backend",
    adopt=True,
)
list_orders = apinizer.Endpoint(
    "list-orders",
    project_name="Demo",
    api_proxy_name="Orders",
    name="/orders",
    http_method="GET",
    backend_resource_url="https://orders.internal.example/api/orders",
    backend_http_method="GET",
    description="List orders (switched off while the new orders service is rolled out)",
    active=False,
    adopt=True,
)

# Settings resources take over by nature: they write their whole state on create.
apinizer.EndpointCache(
    "get-pet-cache",
    project_name="Demo",
    api_proxy_name="PetStore",
    endpoint_name=get_pet.name,
    endpoint_http_method=get_pet.http_method,
    cache_settings=apinizer.CacheSettingsArgs(
        name="pet-by-id", cache_active=True, ttl=120, capacity=2_000, handling_action="STOP"
    ),
)

pulumi.export(
    "adoptedEndpointIds",
    {
        "PetStore GET /pets": list_pets.endpoint_id,
        "PetStore GET /pets/{id}": get_pet.endpoint_id,
        "Orders GET /orders": list_orders.endpoint_id,
    },
)
