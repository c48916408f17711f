"""The CPU of a create once the process is warm, ours and the emulator's, with the engine's threads.

Checks, then creates, N endpoints on K proxies through ``EndpointProvider.check`` and ``.create``
from a pool of threads (as many as the provider server runs calls at once), after one check and
create that pay the imports. The endpoints come proxy by proxy, as `request_floor.py`'s programs
declare them, so each create reads its id back from its proxy's shared list as under the CLI.
Prints the provider's CPU per check and per create, the emulator's per create, the lists sent and
the wall times: the per-resource part of `pulumi up` without the engine, the gRPC server and the
SDK's own work. Run alone:

    .venv/bin/python benchmarks/create_cpu.py [--count 5000] [--proxies 50] [--threads 64] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from _common import Row, cpu_seconds, emulator_process, proxies_fixture, stats, table


def inputs(index: int, proxies: int, per_proxy: int) -> dict[str, Any]:
    """The n-th endpoint's inputs, as the engine sends them to check: the first ``per_proxy`` on P0 ..."""
    return {"project_name": "Bench", "api_proxy_name": f"P{min(index // per_proxy, proxies - 1)}",
            "name": f"/create-cpu-{index}", "http_method": "GET",
            "backend_resource_url": f"/b/{index}", "backend_http_method": "GET"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--proxies", type=int, default=50)
    parser.add_argument("--threads", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=1, help="runs, each on a fresh emulator")
    args = parser.parse_args()
    per_proxy = -(-args.count // args.proxies)
    rows: list[Row] = []
    for run in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="apinizer-create-cpu-") as tmp, \
                emulator_process(proxies_fixture(Path(tmp), args.proxies)) as (emulator, url):
            os.environ.update(APINIZER_URL=url, APINIZER_USERNAME="admin", APINIZER_PASSWORD="admin")
            from apinizer_pulumi.resources._reads import forget_every_list
            from apinizer_pulumi.resources.endpoint import EndpointProvider

            forget_every_list()
            provider = EndpointProvider()

            def check(news: dict[str, Any], provider: EndpointProvider = provider) -> dict[str, Any]:
                result = provider.check({}, news)
                assert not result.failures, result.failures
                return dict(result.inputs)

            def create(props: dict[str, Any], provider: EndpointProvider = provider) -> None:
                assert provider.create(props).outs["endpoint_id"]

            # A warm process: the first check and create pay the imports and the token.
            create(check({**inputs(args.count, 1, 1), "name": "/create-cpu-warm", "api_proxy_name": "P0"}))
            news = [inputs(index, args.proxies, per_proxy) for index in range(args.count)]
            stats(url)
            before, started = time.process_time(), time.perf_counter()
            with ThreadPoolExecutor(args.threads) as pool:
                checked = list(pool.map(check, news))
            check_cpu, check_wall = time.process_time() - before, time.perf_counter() - started
            emulator_before = cpu_seconds(emulator.pid)
            before, started = time.process_time(), time.perf_counter()
            with ThreadPoolExecutor(args.threads) as pool:
                list(pool.map(create, checked))
            create_cpu, create_wall = time.process_time() - before, time.perf_counter() - started
            gateway = cpu_seconds(emulator.pid) - emulator_before
            requests = stats(url).get("requests", {})
        lists = sum(count for route, count in requests.items() if route.startswith("GET ")) \
            if isinstance(requests, dict) else "?"
        note = (f"run {run + 1}: {args.count} on {args.proxies} proxies, {args.threads} threads; "
                f"checks {check_wall:.2f} s, creates {create_wall:.2f} s; {lists} GETs; "
                f"load {os.getloadavg()[0]:.1f}")
        per = 1000 / args.count
        rows.append(Row("CPU per check: the provider's (ours); the emulator's none (baseline 0)",
                        check_cpu * per, 0.0, "ms", "", note))
        rows.append(Row("CPU per create with its read-back: the provider's (ours), the emulator's (baseline)",
                        create_cpu * per, gateway * per, "ms", "", note))
    print(table(rows))


if __name__ == "__main__":
    main()
