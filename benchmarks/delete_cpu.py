"""The CPU of a delete once the process is warm, ours and the emulator's, with the engine's threads.

Creates N endpoints, then deletes them through ``EndpointProvider.delete`` from a pool of threads
(as many as the provider server runs calls at once), after one delete that pays the imports. Prints
the provider's and the emulator's CPU per delete and the wall time: the per-request part of
`pulumi destroy` without the engine, the gRPC server and the SDK's own work. Run alone:

    .venv/bin/python benchmarks/delete_cpu.py [--count 2000] [--threads 64]
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

from _common import Row, cpu_seconds, emulator_process, table

from apinizer_pulumi.client import ApinizerClient

INPUTS = {"project_name": "Demo", "api_proxy_name": "PetStore", "http_method": "GET",
          "backend_resource_url": "/b", "backend_http_method": "GET"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=64)
    args = parser.parse_args()
    names = [f"/delete-cpu-{index}" for index in range(args.count + 1)]
    with emulator_process() as (emulator, url):
        with ApinizerClient(url, username="admin", password="admin") as client:
            for name in names:
                client.endpoints.create("Demo", "PetStore", {**INPUTS, "name": name})
        os.environ.update(APINIZER_URL=url, APINIZER_USERNAME="admin", APINIZER_PASSWORD="admin")
        from apinizer_pulumi.resources.endpoint import EndpointProvider

        provider = EndpointProvider()

        def delete(name: str) -> None:
            provider.delete(f"Demo/PetStore/GET/{name}", {**INPUTS, "name": name})

        delete(names[0])
        emulator_before, before, started = cpu_seconds(emulator.pid), time.process_time(), time.perf_counter()
        with ThreadPoolExecutor(args.threads) as pool:
            list(pool.map(delete, names[1:]))
        ours = (time.process_time() - before) / args.count * 1000
        gateway = (cpu_seconds(emulator.pid) - emulator_before) / args.count * 1000
        wall = time.perf_counter() - started
    note = f"{args.count} deletes, {args.threads} threads, {wall:.2f} s; load {os.getloadavg()[0]:.1f}"
    figure = "CPU per delete: the provider's (ours) and the emulator's (baseline)"
    print(table([Row(figure, ours, gateway, "ms", "", note)]))


if __name__ == "__main__":
    main()
