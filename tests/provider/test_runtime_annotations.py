"""Resource classes keep at runtime only the output annotations the SDK needs (``_args.typed_statically``).

The SDK resolves a class's annotations at every construction; the pruned classes must still give
back every output as before: strings and booleans as they are, an int output as an int.
"""

from __future__ import annotations

from typing import Any

import pulumi

import apinizer_pulumi as apinizer
from apinizer_pulumi.resources._args import typed_statically

# Pulumi's mocks on a fresh event loop, for every test here (an autouse fixture): each test runs
# under ``pulumi.runtime.test``, which waits for the mocks' registrations.
from .test_resources import mocks  # noqa: F401


@pulumi.runtime.test
def test_only_the_annotations_that_change_a_value_stay_at_runtime() -> None:
    assert apinizer.Endpoint.__annotations__ == {}
    assert apinizer.ApiProxy.__annotations__ == {}
    # Pulumi sends every number as a float: only the type turns it back into an int.
    assert set(apinizer.Rlcl.__annotations__) == {"cache_connection_timeout_in_seconds"}


@pulumi.runtime.test
def test_a_class_whose_annotations_the_sdk_cannot_resolve_keeps_them_all() -> None:
    class Unresolved(pulumi.dynamic.Resource):
        value: pulumi.Output[NotDefinedAnywhere]  # type: ignore[name-defined]  # noqa: F821

    assert typed_statically(Unresolved).__annotations__ == {"value": "pulumi.Output[NotDefinedAnywhere]"}


@pulumi.runtime.test
def test_outputs_come_back_as_they_were_declared() -> Any:
    endpoint = apinizer.Endpoint(
        "users", project_name="Demo", api_proxy_name="PetStore", name="/api/users", http_method="GET",
        backend_resource_url="/users", backend_http_method="GET", active=False,
    )
    rlcl = apinizer.Rlcl("standard", project_name="Demo", name="Standard",
                         cache_connection_timeout_in_seconds=3)

    def verify(values: list[Any]) -> None:
        name, method, active, timeout = values
        assert (name, method, active) == ("/api/users", "GET", False)
        assert timeout == 3 and type(timeout) is int

    return pulumi.Output.all(endpoint.name, endpoint.http_method, endpoint.active,
                             rlcl.cache_connection_timeout_in_seconds).apply(verify)
