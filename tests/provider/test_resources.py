"""The resource classes as a Pulumi program registers them (Pulumi's mocks stand in for the engine)."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pulumi
import pytest
from pulumi.runtime import rpc
from pulumi.runtime.mocks import MockMonitor
from pulumi.runtime.settings import reset_options

import apinizer_pulumi as apinizer

REGISTERED: list[pulumi.runtime.MockResourceArgs] = []


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        REGISTERED.append(args)
        return f"{args.name}-id", dict(args.inputs)

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]] | None]:
        return {}, None


@pytest.fixture(autouse=True)
def mocks() -> Iterator[None]:
    yield from mocked_runtime()


def mocked_runtime(monitor: MockMonitor | None = None) -> Iterator[None]:
    """Pulumi's mocks on a fresh event loop (with ``monitor`` when given), and the SDK's global
    settings put back afterwards."""
    REGISTERED.clear()
    loop = asyncio.new_event_loop()
    # The mock monitor runs in the loop's executor and gives each worker thread its own event
    # loop; one worker lets the teardown close that loop too.
    executor = ThreadPoolExecutor(max_workers=1)
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    pulumi.runtime.set_mocks(Mocks(), project="apinizer-tests", stack="test", preview=False, monitor=monitor)
    try:
        yield
    finally:
        reset_options()
        executor.submit(_close_thread_loop).result()
        asyncio.set_event_loop(None)
        loop.close()


def _close_thread_loop() -> None:
    policy = asyncio.get_event_loop_policy()
    try:
        thread_loop = policy.get_event_loop()
    except RuntimeError:
        return
    policy.set_event_loop(None)
    thread_loop.close()


def _registered(name: str) -> pulumi.runtime.MockResourceArgs:
    return next(args for args in REGISTERED if args.name == name)


@pulumi.runtime.test
def test_resources_register_typed_nested_inputs_as_snake_case_dicts() -> Any:
    endpoint = apinizer.Endpoint(
        "users", project_name="Demo", api_proxy_name="PetStore", name="/api/users", http_method="GET",
        backend_resource_url="/users", backend_http_method="GET",
        connection=apinizer.ConnectionArgs(url="http://gw", token="tok-123"),
    )
    cache = apinizer.EndpointCache(
        "users-cache", project_name="Demo", api_proxy_name="PetStore", endpoint_name="/api/users",
        endpoint_http_method="GET",
        cache_settings=apinizer.CacheSettingsArgs(
            name="users", handling_action="STOP", cache_key_type="CUSTOM",
            variable_list=[apinizer.VariableArgs(name="tenant", type="HEADER", header_name="X-Tenant")],
        ),
    )
    wsa = apinizer.EndpointWsa(
        "add-wsa", project_name="Demo", api_proxy_name="Calculator", endpoint_name="Add",
        endpoint_http_method="POST", wsa_settings={"wsa_enabled": True},
    )
    rlcl = apinizer.RlclEndpoints(
        "standard", project_name="Demo", rlcl_name="Standard",
        endpoints=[apinizer.EndpointRateLimitArgs(
            api_proxy_name="PetStore", endpoint_name="/pets", endpoint_http_method="GET",
            permitted_message_count=10, time_interval_period_length=1, time_interval="ONE_MINUTE",
            cache_connection_timeout_in_seconds=3, cache_error_handling_type="FAIL",
            time_interval_window_type="FIXED",
        )],
    )

    def verify(values: list[Any]) -> None:
        endpoint_id, settings, entries = values
        assert endpoint_id is None or isinstance(endpoint_id, str)
        assert settings["variable_list"] == [{"name": "tenant", "type": "HEADER", "header_name": "X-Tenant"}]
        assert entries[0]["api_proxy_name"] == "PetStore"
        types = {args.name: args.typ for args in REGISTERED}
        assert types == {
            "users": "pulumi-python:dynamic/apinizer:Endpoint",
            "users-cache": "pulumi-python:dynamic/apinizer:EndpointCache",
            "add-wsa": "pulumi-python:dynamic/apinizer:EndpointWsa",
            "standard": "pulumi-python:dynamic/apinizer:RlclEndpoints",
        }
        blob = base64.b64decode(_registered("users").inputs["__provider"])
        assert b"apinizer_pulumi.resources.endpoint" in blob and b"EndpointProvider" in blob
        assert b"tok-123" not in blob

    def verify_name(name: str) -> None:
        assert name == "/api/users"

    endpoint.name.apply(verify_name)
    return pulumi.Output.all(endpoint.endpoint_id, cache.cache_settings, rlcl.endpoints, wsa.wsa_settings
                             ).apply(lambda values: verify(values[:3]))


@pulumi.runtime.test
def test_connection_secrets_are_marked_secret() -> Any:
    endpoint = apinizer.Endpoint(
        "users", project_name="Demo", api_proxy_name="PetStore", name="/api/users", http_method="GET",
        backend_resource_url="/users", backend_http_method="GET",
        connection={"url": "http://gw", "username": "admin", "password": "pw-123"},
    )

    async def verify() -> None:
        assert await endpoint.connection.is_secret()
        inputs = _registered("users").inputs
        # The engine receives the whole connection as a secret; the provider blob is not one.
        assert rpc.is_rpc_secret(inputs["connection"])
        assert rpc.unwrap_rpc_secret(inputs["connection"])["password"] == "pw-123"
        assert isinstance(inputs["__provider"], str)
        assert b"pw-123" not in base64.b64decode(inputs["__provider"])

    return pulumi.Output.from_input(asyncio.ensure_future(verify()))


@pulumi.runtime.test
def test_resource_options_and_enum_values_reach_the_engine() -> Any:
    from apinizer_pulumi.models import CacheHandlingAction, HttpMethod

    parent = pulumi.ComponentResource("acme:gateway:Routes", "routes")
    endpoint = apinizer.Endpoint(
        "users", project_name="Demo", api_proxy_name="PetStore", name="/api/users",
        http_method=HttpMethod.GET, backend_resource_url="/users", backend_http_method=HttpMethod.POST,
        opts=pulumi.ResourceOptions(parent=parent),
    )
    cache = apinizer.EndpointCache(
        "users-cache", project_name="Demo", api_proxy_name="PetStore", endpoint_name="/api/users",
        endpoint_http_method=HttpMethod.GET,
        cache_settings=apinizer.CacheSettingsArgs(name="users", handling_action=CacheHandlingAction.STOP),
        opts=pulumi.ResourceOptions(parent=parent),
    )

    def verify(urns: list[str]) -> None:
        urn = urns[0]
        # The caller's options are kept (here the parent, which shows in the URN).
        assert urn.endswith("::acme:gateway:Routes$pulumi-python:dynamic/apinizer:Endpoint::users")
        inputs = _registered("users").inputs
        assert (inputs["http_method"], inputs["backend_http_method"]) == ("GET", "POST")
        cache_inputs = _registered("users-cache").inputs
        assert cache_inputs["endpoint_http_method"] == "GET"
        # Args fields left out are left out, not sent as nulls that check would refuse.
        assert cache_inputs["cache_settings"] == {"name": "users", "handling_action": "STOP"}

    # Both registered before the check: the endpoint's URN alone may resolve before the cache's
    # registration has reached the mocks.
    return pulumi.Output.all(endpoint.urn, cache.urn).apply(verify)
