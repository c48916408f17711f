"""What the first delete of a fresh provider process costs, beside the next one: its imports.

`pulumi destroy` starts a provider process whose first delete imports what the delete path uses.
Each run here is a fresh interpreter that first imports what the SDK's provider server has already
imported (pulumi, dill, gRPC), then deletes one endpoint through ``EndpointProvider.delete`` as the
server would (password credentials from the environment, as ``request_floor.py``'s stacks have),
then a second one. It prints the CPU time of each (the first minus the second is the imports),
how many modules the first delete imported, and whether pydantic was among them. Run alone:

    .venv/bin/python benchmarks/first_delete.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from _common import Row, emulator, table

from apinizer_pulumi.client import ApinizerClient

#: What the SDK's provider server has imported before it serves a call.
SERVER_IMPORTS = "import pulumi, pulumi.dynamic, dill, grpc, pulumi.runtime.proto.provider_pb2_grpc"

RUN = f"""
import json, sys, time
{SERVER_IMPORTS}
before = set(sys.modules)
started = time.process_time()
from apinizer_pulumi.resources.endpoint import EndpointProvider
provider = EndpointProvider()
inputs = {{"project_name": "Demo", "api_proxy_name": "PetStore", "http_method": "GET",
          "backend_resource_url": "/b", "backend_http_method": "GET"}}
provider.delete("Demo/PetStore/GET/" + sys.argv[1], {{**inputs, "name": sys.argv[1]}})
first = time.process_time()
provider.delete("Demo/PetStore/GET/" + sys.argv[2], {{**inputs, "name": sys.argv[2]}})
second = time.process_time()
loaded = set(sys.modules) - before
print(json.dumps({{"first": first - started, "second": second - first, "modules": len(loaded),
                  "pydantic": "pydantic" in loaded}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    results = []
    with emulator() as url:
        names = [f"/first-delete-{index}" for index in range(2 * args.runs)]
        with ApinizerClient(url, username="admin", password="admin") as client:
            for name in names:
                client.endpoints.create("Demo", "PetStore", {"name": name, "http_method": "GET",
                                                             "backend_resource_url": "/b",
                                                             "backend_http_method": "GET"})
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("APINIZER_")},
               "APINIZER_URL": url, "APINIZER_USERNAME": "admin", "APINIZER_PASSWORD": "admin",
               "APINIZER_SKIP_CONNECTION_CHECK": "1"}
        for run in range(args.runs):
            done = subprocess.run([sys.executable, "-c", RUN, names[2 * run], names[2 * run + 1]],
                                  capture_output=True, text=True, check=True, env=env)
            results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    first = statistics.median(result["first"] for result in results) * 1000
    second = statistics.median(result["second"] for result in results) * 1000
    modules = statistics.median(result["modules"] for result in results)
    pydantic = sum(result["pydantic"] for result in results)
    note = (f"{modules:.0f} modules imported; pydantic in {pydantic} of {len(results)} runs; "
            f"load {os.getloadavg()[0]:.1f}")
    print(table([Row(f"first delete of a fresh process, CPU (median of {len(results)})", first, second, "ms",
                     "the next delete's CPU is the baseline", note)]))


if __name__ == "__main__":
    main()
