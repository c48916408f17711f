"""Gateway requests made by a preview, an up and a refresh of N endpoints through the providers.

Drives the SDK's dynamic provider server (``python -m pulumi.dynamic``) over gRPC as the engine
does, against an in-process emulator, and reads the emulator's request counters after each
phase. Run: ``.venv/bin/python benchmarks/provider_requests.py [--count 100] [--auth token|password]``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import httpx

from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.resources import EndpointProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer, deserialize


def declared(index: int) -> dict[str, Any]:
    return {
        "project_name": "Demo",
        "api_proxy_name": "PetStore",
        "name": f"/bench/{index}",
        "http_method": "GET",
        "backend_resource_url": f"/backend/{index}",
        "backend_http_method": "GET",
        "description": f"benchmark endpoint {index}",
    }


def counters(url: str) -> dict[str, Any]:
    stats: dict[str, Any] = httpx.get(f"{url}/_emulator/stats").json()
    httpx.post(f"{url}/_emulator/stats/reset", json={}).raise_for_status()
    return stats


def report(phase: str, url: str, start: float) -> None:
    seconds = time.perf_counter() - start
    stats = counters(url)
    print(f"{phase}: {stats['total']} gateway requests in {seconds:.2f} s")
    for key, value in sorted(stats["requests"].items()):
        print(f"    {value:5d}  {key}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--auth", choices=("token", "password"), default="password")
    args = parser.parse_args()

    with EmulatorServer() as emulator:
        url = emulator.base_url
        config = {"apinizer:url": url}
        if args.auth == "token":
            config["apinizer:token"] = "dev-admin-token"
        else:
            config.update({"apinizer:username": "admin", "apinizer:password": "admin"})
        with ProviderServer(config) as server:
            engine = Engine(server, EndpointProvider(), "Endpoint")
            counters(url)
            print(f"{args.count} Endpoint resources, {args.auth} auth, "
                  "over gRPC to the SDK's dynamic provider server")

            start = time.perf_counter()
            inputs = [engine.checked(declared(index)) for index in range(args.count)]
            report("preview of a new stack (Check of every resource)", url, start)

            start = time.perf_counter()
            futures = [engine.create_future(item, f"e{index}") for index, item in enumerate(inputs)]
            created = [future.result() for future in futures]
            report("up (Create of every resource, concurrent gRPC calls)", url, start)

            outputs = [(response.id, deserialize(response.properties)) for response in created]
            start = time.perf_counter()
            for index, (id_, outs) in enumerate(outputs):
                engine.diff(id_, outs, engine.checked(declared(index)))
            report("preview of the unchanged stack (Check + Diff)", url, start)

            start = time.perf_counter()
            for id_, outs in outputs:
                engine.read(id_, outs)
            report("refresh (Read)", url, start)


if __name__ == "__main__":
    main()
