"""What the first check and create of a fresh provider process cost, beside the next ones: its imports.

`pulumi up` starts a provider process whose first check and create import what that path uses.
Each run here is a fresh interpreter that first imports what the SDK's provider server has already
imported (pulumi, dill, gRPC), then checks and creates one endpoint through ``EndpointProvider``
as the server would (password credentials from the environment, as ``request_floor.py``'s stacks
have), then a second one. Its ``__main__`` is named as the server's is, since the provider does
some things there only (``apinizer_pulumi._heap``). It prints the CPU time of the first and of the
second (the difference is mostly imports) and how many modules the first imported; ``--next N``
also times N more creates, and the garbage collector's share of them (``gc.callbacks``).
``--base DIR`` alternates each run with one on another checkout's source (``DIR`` is its
``provider/`` directory, put first on ``sys.path``), in one sitting. ``--importtime TOP`` prints
the TOP modules by time of their own (``-X importtime``'s self column, median of the runs) among
those the first create imported. Run alone:

    .venv/bin/python benchmarks/first_create.py [--runs 7] [--base DIR] [--next 300] [--importtime 25]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from _common import Row, emulator, proxies_fixture, table
from first_delete import SERVER_IMPORTS

RUN = f"""
import importlib.machinery, json, sys, time
{SERVER_IMPORTS}
# The provider tells the server's process by its __main__ (apinizer_pulumi._heap): look like it.
sys.modules["__main__"].__spec__ = importlib.machinery.ModuleSpec("pulumi.dynamic.__main__", None)
before = set(sys.modules)  # what the server had imported: not counted
started = time.process_time()
from apinizer_pulumi.resources.endpoint import EndpointProvider
provider = EndpointProvider()
def create(name):
    news = {{"project_name": "Bench", "api_proxy_name": sys.argv[4], "http_method": "GET",
             "backend_resource_url": "/b", "backend_http_method": "GET", "name": name}}
    checked = provider.check({{}}, news)
    assert not checked.failures, checked.failures
    provider.create(checked.inputs)
create(sys.argv[1])
first = time.process_time()
create(sys.argv[2])
second = time.process_time()
import gc
collecting = [0.0, 0.0]
def collector(phase, info):
    if phase == "start":
        collecting[1] = time.process_time()
    else:
        collecting[0] += time.process_time() - collecting[1]
gc.callbacks.append(collector)
for index in range(int(sys.argv[3])):
    create(sys.argv[2] + "-" + str(index))
nexts = time.process_time()
loaded = set(sys.modules) - before
print(json.dumps({{"first": first - started, "second": second - first, "modules": len(loaded),
                  "next": nexts - second, "collecting": collecting[0],
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
    parser.add_argument("--next", type=int, default=0,
                        help="creates after the second, whose CPU and collector's time are printed too")
    parser.add_argument("--base", default=None, help="another checkout's provider/ directory, alternated")
    parser.add_argument("--importtime", type=int, default=0, metavar="TOP",
                        help="print the TOP modules by self import time (-X importtime)")
    args = parser.parse_args()
    sides: dict[str, str | None] = {"ours": None, **({"base": args.base} if args.base else {})}
    results: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    own_times: dict[str, list[int]] = defaultdict(list)
    loads = [os.getloadavg()[0]]
    # Each run creates on a proxy of its own, so that every run's read-back lists are alike.
    with tempfile.TemporaryDirectory() as tmp, \
            emulator(proxies_fixture(Path(tmp), args.runs * len(sides))) as url:
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("APINIZER_")},
               "APINIZER_URL": url, "APINIZER_USERNAME": "admin", "APINIZER_PASSWORD": "admin",
               "APINIZER_SKIP_CONNECTION_CHECK": "1"}
        flags = ["-X", "importtime"] if args.importtime else []
        for run in range(args.runs):
            for side, source in sides.items():
                proxy = f"P{len(sides) * run + list(sides).index(side)}"
                side_env = {**env, **({"PYTHONPATH": source} if source else {})}
                done = subprocess.run([sys.executable, *flags, "-c", RUN, f"/first-create-{side}-{run}-a",
                                       f"/first-create-{side}-{run}-b", str(args.next), proxy],
                                      capture_output=True, text=True, check=True, env=side_env)
                results[side].append(json.loads(done.stdout.strip().splitlines()[-1]))
                loaded = set(results[side][-1]["loaded"])
                for module, own in self_times(done.stderr).items():
                    if side == "ours" and module in loaded:  # not what the server had imported before
                        own_times[module].append(own)
            loads.append(os.getloadavg()[0])
    load = f"load {min(loads):.1f}-{max(loads):.1f}"
    rows = []
    base_first = statistics.median(r["first"] for r in results["base"]) * 1000 if args.base else None
    for side, measured in results.items():
        first = statistics.median(result["first"] for result in measured) * 1000
        second = statistics.median(result["second"] for result in measured) * 1000
        modules = statistics.median(result["modules"] for result in measured)
        firsts = [result["first"] * 1000 for result in measured]
        spread = f"{min(firsts):.0f}-{max(firsts):.0f} ms"
        after = ""
        if args.next:
            nexts = statistics.median(result["next"] for result in measured) * 1000
            collecting = statistics.median(result["collecting"] for result in measured) * 1000
            after = f"{args.next} more creates {nexts:.0f} ms, of it the collector's {collecting:.0f} ms; "
        note = (f"{side}: {modules:.0f} modules imported; first {spread}; second {second:.1f} ms; {after}"
                f"source {measured[0]['source']}; {load}")
        rows.append(Row(f"first check+create of a fresh process, {side}, CPU (median of {len(measured)})",
                        first, base_first if base_first is not None else second, "ms",
                        "baseline: the base side's first" if args.base else "baseline: the next check+create",
                        note))
    print(table(rows))
    if args.importtime:
        ranked = sorted(own_times.items(), key=lambda item: -statistics.median(item[1]))
        for module, times in ranked[:args.importtime]:
            print(f"{statistics.median(times) / 1000:8.2f} ms  {module}")


if __name__ == "__main__":
    main()
