"""An Endpoint create whose answers are lost: never two creates, never an endpoint the stack does not know.

The emulator's faults strike the provider's own requests (the provider server is a separate
process with its own client); ``after`` faults carry the request out and then lose its answer.
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.resources._create import LOOKUP_ATTEMPTS
from apinizer_pulumi.resources.testing import DIFF_SOME, Engine

from .conftest import Gateway

ENDPOINTS = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
CREATE = f"POST {ENDPOINTS}"
DETAILS = f"POST {ENDPOINTS}details/"
LIST = f"GET {ENDPOINTS}"
TOYS = {
    "project_name": "Demo",
    "api_proxy_name": "PetStore",
    "name": "/toys",
    "http_method": "GET",
    "backend_resource_url": "/toys",
    "backend_http_method": "GET",
    "description": "List toys",
}
#: Enough failures in a row to outlast the client's own retries of an idempotent request.
OUTLAST_RETRIES = 4


def fault(gateway: Gateway, **rule: Any) -> None:
    # A short Retry-After keeps the client's waits short through its own rule of honouring it.
    if "status" in rule:
        rule.setdefault("retry_after", 0.01)
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()


def toys_on_gateway(gateway: Gateway) -> list[dict[str, Any]]:
    state = emulator_http.get(f"{gateway.url}/_emulator/state").json()
    proxy = next(p for p in state["projects"][0]["apiProxies"] if p["name"] == "PetStore")
    return [e for e in proxy["endpoints"] if e["endpoint"] == "/toys"]


def last_line(failure: pytest.ExceptionInfo[grpc.RpcError]) -> str:
    return str(failure.value.details()).strip().splitlines()[-1]


@pytest.mark.parametrize(
    "lost",
    [{"drop": True, "after": True}, {"status": 504, "after": True}, {"status": 503, "after": True}],
    ids=["connection dropped after the create", "504 after the create", "503 after the create"],
)
def test_a_create_whose_answer_was_lost_is_recognised_not_repeated(
    endpoints: Engine, gateway: Gateway, lost: dict[str, Any]
) -> None:
    fault(gateway, method="POST", path="/endpoints/", count=1, **lost)

    id_, outs = endpoints.up(TOYS)

    [live] = toys_on_gateway(gateway)
    assert id_ == "Demo/PetStore/GET//toys"
    assert outs["endpoint_id"] == live["id"]
    assert gateway.stats()["requests"][CREATE] == 1, "the create was sent again"


def test_a_create_that_never_arrived_is_sent_again_after_looking(endpoints: Engine, gateway: Gateway) -> None:
    fault(gateway, method="POST", path="/endpoints/", count=1, drop=True)

    _, outs = endpoints.up(TOYS)

    [live] = toys_on_gateway(gateway)
    assert outs["endpoint_id"] == live["id"]
    requests = gateway.stats()["requests"]
    assert requests[CREATE] == 2
    assert requests[DETAILS] == 1  # the look-up that found nothing
    assert requests[LIST] == 1  # the id's read-back: a list sent after the create was acknowledged


def test_a_repeat_answered_already_exists_after_a_lost_answer_is_ours(
    endpoints: Engine, gateway: Gateway
) -> None:
    # The look-up misses the endpoint that the lost create made (on a real gateway: a create still
    # on its way), so the create is sent again and answered "already exists".
    fault(gateway, method="POST", path="/endpoints/", count=1, drop=True, after=True)
    fault(gateway, method="POST", path="/details/", count=1, status=400, error="bad_request",
          error_description="Endpoint with name (/toys) and HTTP method (GET) is not found!")

    _, outs = endpoints.up(TOYS)

    [live] = toys_on_gateway(gateway)
    assert outs["endpoint_id"] == live["id"]
    assert gateway.stats()["requests"][CREATE] == 2


def test_someone_elses_endpoint_found_after_a_lost_answer_is_not_taken(
    endpoints: Engine, gateway: Gateway
) -> None:
    before = gateway.endpoint("Demo", "PetStore", "GET", "/pets")
    pets = {**TOYS, "name": "/pets", "backend_resource_url": "/elsewhere"}
    fault(gateway, method="POST", path="/endpoints/", count=1, drop=True)

    with pytest.raises(grpc.RpcError) as failure:
        endpoints.up(pets)

    assert "already exists" in last_line(failure) and "set adopt=True" in last_line(failure)
    assert gateway.endpoint("Demo", "PetStore", "GET", "/pets") == before


def test_an_outcome_that_stays_unknown_fails_and_says_what_to_do(endpoints: Engine, gateway: Gateway) -> None:
    fault(gateway, status=503, count=1 + LOOKUP_ATTEMPTS * OUTLAST_RETRIES)

    with pytest.raises(grpc.RpcError) as failure:
        endpoints.up(TOYS)

    message = last_line(failure)
    assert "apinizer:Endpoint GET /toys in Demo/PetStore: the gateway never confirmed the create" in message
    assert "503" in message and "set adopt=True" in message
    assert toys_on_gateway(gateway) == []  # every 503 struck before the backend


def test_a_create_the_gateway_keeps_failing_gives_up_knowing_nothing_was_made(
    endpoints: Engine, gateway: Gateway
) -> None:
    # A delay-only rule ahead of the 503s takes every look-up, so that only the creates fail.
    fault(gateway, path="/details/", delay=0.001, count=100)
    fault(gateway, method="POST", path="/endpoints/", status=503, count=100)

    with pytest.raises(grpc.RpcError) as failure:
        endpoints.up(TOYS)

    assert last_line(failure).endswith(
        "apinizer:Endpoint GET /toys in Demo/PetStore: the gateway failed the create 4 times "
        "(503 service_unavailable: Fault injected by the emulator (503)); it is not on the gateway: "
        "run `pulumi up` again"
    )
    assert gateway.stats()["requests"][CREATE] == 4
    assert toys_on_gateway(gateway) == []


def test_someone_elses_endpoint_while_the_creates_keep_failing_is_not_taken(
    endpoints: Engine, gateway: Gateway
) -> None:
    before = gateway.endpoint("Demo", "PetStore", "GET", "/pets")
    fault(gateway, path="/details/", delay=0.001, count=100)
    fault(gateway, method="POST", path="/endpoints/", status=503, count=100)

    with pytest.raises(grpc.RpcError) as failure:
        endpoints.up({**TOYS, "name": "/pets", "backend_resource_url": "/elsewhere"})

    assert last_line(failure).endswith(
        "apinizer:Endpoint GET /pets in Demo/PetStore: an endpoint with this name and method exists on "
        "the gateway and differs from this declaration; set adopt=True to take it over"
    )
    assert gateway.stats()["requests"][CREATE] == 4
    assert gateway.endpoint("Demo", "PetStore", "GET", "/pets") == before


def test_a_failed_read_back_of_the_id_still_records_the_endpoint(endpoints: Engine, gateway: Gateway) -> None:
    # The id is read back from the proxy's list (docs/performance.md), and, when that fails, from
    # the endpoint itself, each read tried five times: make every try of both fail.
    fault(gateway, method="GET", path="/endpoints/", status=503, count=5 * OUTLAST_RETRIES)
    fault(gateway, method="POST", path="/details/", status=503, count=5 * OUTLAST_RETRIES)

    id_, outs = endpoints.up(TOYS)

    [live] = toys_on_gateway(gateway)
    assert id_ == "Demo/PetStore/GET//toys"
    assert outs.get("endpoint_id") is None  # None is sent as absent
    # The next refresh fills the id in, and so would the next update.
    _, refreshed, _ = endpoints.read(id_, outs)
    assert refreshed["endpoint_id"] == live["id"]
    news = endpoints.checked({**TOYS, "description": "All toys"})
    assert endpoints.update(id_, outs, news)["endpoint_id"] == live["id"]


def test_a_failed_disable_after_the_create_shows_active_and_the_next_up_disables(
    endpoints: Engine, gateway: Gateway
) -> None:
    fault(gateway, method="PATCH", path="/status/", status=503, count=OUTLAST_RETRIES)
    inputs = endpoints.checked({**TOYS, "active": False})

    id_, outs = endpoints.create(inputs)

    assert outs["active"] is True and toys_on_gateway(gateway)[0]["active"] is True
    diff = endpoints.diff(id_, outs, inputs)
    assert diff.changes == DIFF_SOME
    assert endpoints.update(id_, outs, inputs)["active"] is False
    assert toys_on_gateway(gateway)[0]["active"] is False


def test_look_ups_that_fail_with_500_are_tried_again_after_pauses(
    endpoints: Engine, gateway: Gateway
) -> None:
    # The client never repeats a 500 by itself; the look-ups after an unknown create do.
    fault(gateway, status=500, after=True, method="POST", path="/endpoints/", count=1)
    fault(gateway, status=500, path="/details/", count=3)

    _, outs = endpoints.up(TOYS)

    [live] = toys_on_gateway(gateway)
    assert outs["endpoint_id"] == live["id"]
    requests = gateway.stats()["requests"]
    assert requests[CREATE] == 1, "the create was sent again"
    assert requests[DETAILS] == 4  # three that failed, one that found it


@pytest.mark.parametrize("status", [408, 499])
def test_a_4xx_that_may_follow_a_carried_out_create_is_an_unknown_outcome(
    endpoints: Engine, gateway: Gateway, status: int
) -> None:
    fault(gateway, status=status, after=True, method="POST", path="/endpoints/", count=1)

    _, outs = endpoints.up(TOYS)

    [live] = toys_on_gateway(gateway)
    assert outs["endpoint_id"] == live["id"]
    assert gateway.stats()["requests"][CREATE] == 1
