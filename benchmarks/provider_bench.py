"""The provider process against its floor: requests per refresh and per up, and time per resource.

Drives the SDK's dynamic provider server (``python -m pulumi.dynamic``) over gRPC as the engine
does, against an emulator subprocess. Run alone:

    .venv/bin/python benchmarks/provider_bench.py [--count 100] [--proxies 5] [--overhead 500]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from _common import AUTH, TOKEN, Row, cpu_seconds, emulator, endpoints_path, proxies_fixture, stats, table
from _null_provider import NullProvider

from apinizer_pulumi.resources import EndpointProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer

LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
CREATE = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
DETAILS = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/details/"


def declared(index: int, project: str, proxy: str) -> dict[str, Any]:
    return {
        "project_name": project,
        "api_proxy_name": proxy,
        "name": f"/bench/{index}",
        "http_method": "GET",
        "backend_resource_url": f"/backend/{index}",
        "backend_http_method": "GET",
        "description": f"benchmark endpoint {index}",
    }


def password_config(url: str) -> dict[str, str]:
    return {"apinizer:url": url, "apinizer:username": "admin", "apinizer:password": "admin"}


def counts(count: int, proxies: int) -> list[Row]:
    """``up`` then, in a new provider process as ``pulumi refresh`` gets, a refresh; password auth."""
    with tempfile.TemporaryDirectory() as tmp, emulator(proxies_fixture(Path(tmp), proxies)) as url:
        resources = [declared(i, "Bench", f"P{i % proxies}") for i in range(count)]
        with ProviderServer(password_config(url)) as server:
            engine = Engine(server, EndpointProvider(), "Endpoint")
            checked = [engine.checked(item) for item in resources]
            stats(url)
            # Every Create sent at once (the engine sends at most --parallel at a time, and as it
            # registers them: see cli_counts.py for the CLI's own figures).
            futures = [engine.create_future(item, f"e{i}") for i, item in enumerate(checked)]
            created = [(f.result().id, item) for f, item in zip(futures, checked, strict=True)]
            up = stats(url)
        with ProviderServer(password_config(url)) as server:
            engine = Engine(server, EndpointProvider(), "Endpoint")
            futures = [engine.read_future(id_, {**item, "endpoint_id": "x"}, f"e{i}")
                       for i, (id_, item) in enumerate(created)]
            for future in futures:
                assert future.result().id
            refresh = stats(url)
    return [
        Row(f"refresh of N={count} endpoints on K={proxies} proxies, every Read at once over gRPC (requests)",
            refresh["total"],
            proxies + 1, "req", "<= K + 1", f"lists {refresh['requests'].get(LIST, 0)}"),
        Row(f"up of N={count} endpoints on K={proxies} proxies, every Create at once over gRPC (requests)",
            up["total"], count + proxies + 1, "req",
            "<= N + K + 1", f"lists {up['requests'].get(LIST, 0)}"),
    ]


def sdk_floor(count: int, inflight: int) -> tuple[float, float]:
    """(wall seconds, CPU ms per resource) of the same Check+Create with a provider that sends nothing."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    with ProviderServer({}, env={"PYTHONPATH": path}) as server:
        engine = Engine(server, NullProvider(), "Endpoint")
        engine.up(declared(-1, "Demo", "PetStore"), "warm-up")
        cpu_before = cpu_seconds(server.process.pid)
        started = time.perf_counter()
        with ThreadPoolExecutor(inflight) as pool:
            list(pool.map(lambda i: engine.up(declared(i, "Demo", "PetStore"), f"e{i}"), range(count)))
        wall = time.perf_counter() - started
        return wall, (cpu_seconds(server.process.pid) - cpu_before) / count * 1000


def overhead(count: int, inflight: int) -> list[Row]:
    """``count`` Check+Create over gRPC, ``inflight`` at a time, vs raw httpx sending the same requests."""
    with emulator() as url:
        with ProviderServer({"apinizer:url": url, "apinizer:token": TOKEN}) as server:
            engine = Engine(server, EndpointProvider(), "Endpoint")
            engine.up(declared(-1, "Demo", "PetStore"), "warm-up")  # imports and the first connection
            stats(url)
            cpu_before = cpu_seconds(server.process.pid)
            started = time.perf_counter()
            with ThreadPoolExecutor(inflight) as pool:
                list(pool.map(lambda i: engine.up(declared(i, "Demo", "PetStore"), f"e{i}"), range(count)))
            provider_wall = time.perf_counter() - started
            provider_cpu = cpu_seconds(server.process.pid) - cpu_before
            made = stats(url)
        httpx.post(f"{url}/_emulator/reset", json={}).raise_for_status()
        lists = made["requests"].get(LIST, 0)
        creates = made["requests"].get(CREATE, 0)
        details = made["requests"].get(DETAILS, 0)  # how the id was read before the shared lists
        assert made["total"] == lists + creates + details, made
        # The same requests: each create (followed by its read-back when there was one), and the
        # lists spread among them.
        plan = [("POST", i) for i in range(creates)]
        for j in range(lists):
            plan.insert((j + 1) * len(plan) // (lists + 1), ("GET", j))
        with httpx.Client(base_url=url, headers=AUTH, timeout=30,
                          limits=httpx.Limits(max_connections=20, max_keepalive_connections=10)) as client:
            client.get(endpoints_path()).raise_for_status()  # the first connection, as above

            def send(step: tuple[str, int]) -> None:
                method, i = step
                if method == "GET":
                    client.get(endpoints_path()).raise_for_status()
                    return
                body = {"name": f"/bench/{i}", "httpMethod": "GET", "backendResourceUrl": f"/backend/{i}",
                        "backendHttpMethod": "GET", "description": f"benchmark endpoint {i}"}
                client.post(endpoints_path(), json=body).raise_for_status()
                if i < details:
                    identifier = {"name": f"/bench/{i}", "httpMethod": "GET"}
                    client.post(f"{endpoints_path()}details/", json=identifier).raise_for_status()

            started = time.perf_counter()
            with ThreadPoolExecutor(inflight) as pool:
                list(pool.map(send, plan))
            raw_wall = time.perf_counter() - started
    floor_wall, floor_cpu = sdk_floor(count, inflight)
    return [
        Row(f"{count} Endpoint Check+Create over gRPC, {inflight} in flight (wall)", provider_wall, raw_wall,
            "s", "<= 1.3x raw httpx",
            f"same {made['total']} requests; provider CPU {provider_cpu / count * 1000:.2f} ms per resource"),
        Row(f"... the SDK's server alone: {count} Check+Create of a provider that sends nothing (wall)",
            floor_wall, raw_wall, "s", "(the floor under the row above)",
            f"its CPU {floor_cpu:.2f} ms per resource"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--proxies", type=int, default=5)
    parser.add_argument("--overhead", type=int, default=500)
    parser.add_argument("--inflight", type=int, default=10)
    args = parser.parse_args()
    print(table(counts(args.count, args.proxies) + overhead(args.overhead, args.inflight)))


if __name__ == "__main__":
    main()
