"""30 RLCLs created and destroyed while 30% of the gateway's answers fail: none orphaned, none twice.

The RLCL create is the write the API cannot read back. Before it followed the exactly-once rule,
an answer lost after the gateway had made the RLCL failed the step, and the re-run said "already
exists ... set adopt=True": at 30% faults about 18 of 60 were left that way. Here the emulator
strikes 30% of all ``/apiops`` requests from a seeded generator (503s, 502s after the request was
carried out, connections dropped before and after), the provider runs in the SDK's dynamic
provider server, four steps at a time, and failed steps are re-run the way a user re-runs
``pulumi up``. After every run, every RLCL on the gateway is one the stack knows; at the end
each declared RLCL is there with its declared fields, and after ``destroy`` none is left.

Thirty are enough: with the exactly-once create taken out again (a lost answer failing the step), all
ten runs failed on five orphans after the first run (60 left nine).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.models import RlclSpec
from apinizer_pulumi.resources import RlclProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer

from .conftest import Gateway

COUNT = 30
PARALLEL = 4
MAX_RUNS = 25
SEED = 20261124
PREFIX = "converge-"


def fault_rules() -> list[dict[str, Any]]:
    """Four kinds at 7.5% of all requests each (rules are tried in order, each takes its share)."""
    share, left, rules = 0.075, 1.0, []
    for rule in (
        {"status": 503, "retry_after": 0.01},
        {"status": 502, "after": True, "retry_after": 0.01},
        {"drop": True},
        {"drop": True, "after": True},
    ):
        rules.append({**rule, "fraction": share / left})
        left -= share
    rules[0]["seed"] = SEED
    return rules


def declared(i: int) -> dict[str, Any]:
    return {"project_name": "Demo", "name": f"{PREFIX}{i:02d}", "description": f"tier {i}",
            "enabled": i % 3 != 0}


def on_gateway(gateway: Gateway) -> dict[str, dict[str, Any]]:
    state = emulator_http.get(f"{gateway.url}/_emulator/state").json()
    [demo] = [project for project in state["projects"] if project["name"] == "Demo"]
    return {rlcl["name"]: rlcl["settings"] for rlcl in demo["rlcls"] if rlcl["name"].startswith(PREFIX)}


@pytest.fixture
def lists(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, RlclProvider(), "Rlcl")


def test_rlcls_converge_without_orphans_under_30_percent_faults(lists: Engine, gateway: Gateway) -> None:
    for rule in fault_rules():
        emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()
    stack: dict[int, tuple[str, dict[str, Any]]] = {}
    failures: list[str] = []

    def create(i: int) -> None:
        try:
            stack[i] = lists.create(lists.checked(declared(i)), name=f"r{i}")
        except grpc.RpcError as error:
            failures.append(str(error.details()).strip().splitlines()[-1])

    runs = 0
    while len(stack) < COUNT:
        runs += 1
        assert runs <= MAX_RUNS, f"not converged after {MAX_RUNS} runs: {failures[-3:]}"
        with ThreadPoolExecutor(PARALLEL) as pool:
            list(pool.map(create, [i for i in range(COUNT) if i not in stack]))
        orphans = set(on_gateway(gateway)) - {outs["name"] for _, outs in stack.values()}
        assert not orphans, f"run {runs}: on the gateway but not in the stack: {sorted(orphans)}"
    assert not [message for message in failures if "already exists" in message], failures

    live = on_gateway(gateway)
    for i in range(COUNT):
        spec = RlclSpec.model_validate(declared(i))
        assert live[spec.name] == spec.to_api()

    runs = 0
    while stack:
        runs += 1
        assert runs <= MAX_RUNS, "destroy did not converge"

        def delete(i: int) -> None:
            id_, outs = stack[i]
            try:
                lists.delete(id_, outs)
            except grpc.RpcError:
                return
            del stack[i]

        with ThreadPoolExecutor(PARALLEL) as pool:
            list(pool.map(delete, list(stack)))
    assert on_gateway(gateway) == {}
