"""What the first check and create of a fresh provider process cost, beside the next ones: its imports.

`pulumi up` starts a provider process whose first check and create import what that path uses.
Each run here is a fresh interpreter that first imports what the SDK's provider server has already
imported (pulumi, dill, gRPC), then checks and creates one endpoint through ``EndpointProvider``
as the server would (password credentials from the environment, as ``request_floor.py``'s stacks
have), then a second one. It prints the CPU time of each (the first minus the second is mostly the
imports) and how many modules the first imported. ``--importtime`` also prints the modules that
took the most time of their own among those the first create imported (``-X importtime``'s
self column, the runs' median),
and ``--provider`` runs another checkout's source (``/path/to/checkout/provider``) for an
alternated comparison. Run alone:

    .venv/bin/python benchmarks/first_create.py [--runs 7] [--importtime 25] [--provider DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict

from _common import Row, emulator, table
from first_delete import SERVER_IMPORTS

RUN = f"""
import json, sys, time
{SERVER_IMPORTS}
before = set(sys.modules)  # what the server had imported: not counted
started = time.process_time()
from apinizer_pulumi.resources.endpoint import EndpointProvider
provider = EndpointProvider()
def create(name):
    news = {{"project_name": "Demo", "api_proxy_name": "PetStore", "http_method": "GET",
             "backend_resource_url": "/b", "backend_http_method": "GET", "name": name}}
    checked = provider.check({{}}, news)
    assert not checked.failures, checked.failures
    provider.create(checked.inputs)
create(sys.argv[1])
first = time.process_time()
create(sys.argv[2])
second = time.process_time()
loaded = set(sys.modules) - before
print(json.dumps({{"first": first - started, "second": second - first, "modules": len(loaded),
                  "loaded": sorted(loaded), "source": sys.modules["apinizer_pulumi"].__file__}}))
"""


def self_times(stderr: str) -> dict[str, int]:
    """``module -> self µs`` from ``-X importtime``'s lines."""
    found: dict[str, int] = {}
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _cumulative, module = line[len("import time:"):].split("|", 2)
        found[module.strip()] = int(own)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--importtime", type=int, default=0, metavar="TOP",
                        help="print the TOP modules by self import time (-X importtime)")
    parser.add_argument("--provider", default=None,
                        help="another checkout's provider/ directory, put first on sys.path")
    args = parser.parse_args()
    results = []
    own_times: dict[str, list[int]] = defaultdict(list)
    with emulator() as url:
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("APINIZER_")},
               "APINIZER_URL": url, "APINIZER_USERNAME": "admin", "APINIZER_PASSWORD": "admin",
               "APINIZER_SKIP_CONNECTION_CHECK": "1"}
        if args.provider:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.provider, env.get("PYTHONPATH")]))
        flags = ["-X", "importtime"] if args.importtime else []
        for run in range(args.runs):
            done = subprocess.run([sys.executable, *flags, "-c", RUN, f"/first-create-{run}-a",
                                   f"/first-create-{run}-b"],
                                  capture_output=True, text=True, check=True, env=env)
            results.append(json.loads(done.stdout.strip().splitlines()[-1]))
            loaded = set(results[-1]["loaded"])
            for module, own in self_times(done.stderr).items():
                if module in loaded:  # not what the server had imported before
                    own_times[module].append(own)
    first = statistics.median(result["first"] for result in results) * 1000
    second = statistics.median(result["second"] for result in results) * 1000
    modules = statistics.median(result["modules"] for result in results)
    note = (f"{modules:.0f} modules imported; source {results[0]['source']}; "
            f"load {os.getloadavg()[0]:.1f}")
    print(table([Row(f"first check+create of a fresh process, CPU (median of {len(results)})", first,
                     second, "ms", "the next check+create's CPU is the baseline", note)]))
    if args.importtime:
        ranked = sorted(own_times.items(), key=lambda item: -statistics.median(item[1]))
        for module, times in ranked[:args.importtime]:
            print(f"{statistics.median(times) / 1000:8.2f} ms  {module}")


if __name__ == "__main__":
    main()
