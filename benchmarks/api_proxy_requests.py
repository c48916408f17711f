"""API proxies through the provider: requests of a refresh of P proxies with their deployments, and of
creating a proxy from a spec with N operations and reading it back.

Drives ``ApiProxyProvider`` and ``ApiProxyDeploymentProvider`` through the SDK's dynamic provider server
over gRPC as the engine does, against an emulator subprocess, and counts requests with the emulator's
``GET /_emulator/stats``. The refresh runs in a new provider process (as ``pulumi refresh`` gets), with
every Read sent at once. Run alone:

    .venv/bin/python benchmarks/api_proxy_requests.py [--proxies 10] [--operations 200]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import TOKEN, Row, emulator, stats, table
from api_proxy_create import spec

from apinizer_pulumi.resources import ApiProxyDeploymentProvider, ApiProxyProvider
from apinizer_pulumi.resources.api_proxy import spec_inputs
from apinizer_pulumi.resources.testing import Engine, ProviderServer

PROXY = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/"
ENVIRONMENTS = ("test", "production")
#: Each provider process proves its token once, with one read, before its first request.
SKIP_CHECK = {"APINIZER_SKIP_CONNECTION_CHECK": "1"}


def declared(name: str, spec_file: Path) -> dict[str, Any]:
    return {"project_name": "Demo", "name": name, "spec_type": "OPEN_API", **spec_inputs(spec_file),
            "routing": {"addresses": [{"address": "http://backend.bench:8080", "weight": 100}]},
            "client_route": {"relative_paths": [f"/{name.lower()}"]}}


def config(url: str) -> dict[str, str]:
    return {"apinizer:url": url, "apinizer:token": TOKEN}


def refresh_counts(proxies: int, spec_file: Path) -> Row:
    """P proxies, each deployed to two environments; then a refresh of the 3P resources at once."""
    with emulator() as url:
        states: list[tuple[str, str, dict[str, Any]]] = []
        with ProviderServer(config(url), env=SKIP_CHECK) as server:
            proxy_engine = Engine(server, ApiProxyProvider(), "ApiProxy")
            deployment_engine = Engine(server, ApiProxyDeploymentProvider(), "ApiProxyDeployment")
            for index in range(proxies):
                name = f"Bench{index}"
                id_, outs = proxy_engine.up(declared(name, spec_file), name=name)
                states.append(("ApiProxy", id_, outs))
                for environment in ENVIRONMENTS:
                    id_, outs = deployment_engine.up(
                        {"project_name": "Demo", "api_proxy_name": name, "environment_name": environment},
                        name=f"{name}-{environment}",
                    )
                    states.append(("ApiProxyDeployment", id_, outs))
        stats(url)
        with ProviderServer(config(url), env=SKIP_CHECK) as server:
            engines = {
                "ApiProxy": Engine(server, ApiProxyProvider(), "ApiProxy"),
                "ApiProxyDeployment": Engine(server, ApiProxyDeploymentProvider(), "ApiProxyDeployment"),
            }
            futures = [engines[kind].read_future(id_, outs, name=id_) for kind, id_, outs in states]
            assert all(future.result().id for future in futures)
        refresh = stats(url)
    return Row(
        f"refresh of P={proxies} proxies and their {proxies * len(ENVIRONMENTS)} deployments, every Read at "
        "once over gRPC (requests)",
        refresh["total"], proxies, "req", "<= P (one read per proxy)",
        f"proxy reads {refresh['requests'].get(PROXY, 0)}; {dict(refresh['requests'])}",
    )


def create_counts(operations: int, rounds: int, spec_file: Path) -> list[Row]:
    """Create a proxy from a spec of ``operations`` operations (``rounds`` times), then read each back
    in a new provider process, as the next ``pulumi refresh`` does."""
    create_ms: list[float] = []
    read_ms: list[float] = []
    made: list[tuple[str, dict[str, Any]]] = []
    with emulator() as url:
        with ProviderServer(config(url), env=SKIP_CHECK) as server:
            engine = Engine(server, ApiProxyProvider(), "ApiProxy")
            for round_ in range(rounds):
                checked = engine.checked(declared(f"Big{round_}", spec_file))
                stats(url)
                started = time.perf_counter()
                id_, outs = engine.create(checked, name=f"big{round_}")
                create_ms.append((time.perf_counter() - started) * 1000)
                created = stats(url)
                assert len(outs["endpoints"]) == operations, len(outs["endpoints"])
                made.append((id_, outs))
        with ProviderServer(config(url), env=SKIP_CHECK) as server:
            engine = Engine(server, ApiProxyProvider(), "ApiProxy")
            for id_, outs in made:
                stats(url)
                started = time.perf_counter()
                read_id, _, _ = engine.read(id_, outs)
                read_ms.append((time.perf_counter() - started) * 1000)
                assert read_id == id_
                reread = stats(url)
    return [
        Row(f"create of a proxy from an OpenAPI spec of {operations} operations (requests)",
            created["total"], 1, "req", "(the upload, then the read-back of its outputs)",
            str(dict(created["requests"]))),
        Row(f"... its Create's wall time through the provider, median of {rounds}",
            statistics.median(create_ms), min(create_ms), "ms", "(baseline: the fastest round)",
            "the emulator parses and stores the spec"),
        Row("... reading it back in a new provider process (requests)", reread["total"], 1, "req", "<= 1",
            f"{dict(reread['requests'])}; Read median {statistics.median(read_ms):.1f} ms"),
    ]


def counts(proxies: int, operations: int, rounds: int = 3) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        small, big = Path(tmp) / "small.json", Path(tmp) / "big.json"
        small.write_bytes(spec(8))
        big.write_bytes(spec(operations))
        return [refresh_counts(proxies, small), *create_counts(operations, rounds, big)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--proxies", type=int, default=10)
    parser.add_argument("--operations", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(table(counts(args.proxies, args.operations, args.rounds)))


if __name__ == "__main__":
    main()
