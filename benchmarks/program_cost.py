"""The program process's CPU per resource: N ``Endpoint``s beside N resources of a provider that does nothing.

Each side runs in a fresh interpreter under Pulumi's mocks (no engine): the constructors and the
SDK's registration of every resource, to the end. This is the part of ``pulumi preview`` and
``pulumi up`` that the program's interpreter spends, where the two programs of
``engine_floor.py`` differ only by what this package adds. Alternated, best of the runs. Run alone:

    .venv/bin/python benchmarks/program_cost.py [--count 2000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from _common import Row, table

HERE = Path(__file__).resolve().parent

CHILD = """
import asyncio, sys, time
import pulumi, pulumi.runtime
from pulumi.runtime.stack import wait_for_rpcs


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        return [args.name + "-id", args.inputs]

    def call(self, args):
        return {}


pulumi.runtime.set_mocks(Mocks(), preview=True)
count, side = int(sys.argv[1]), sys.argv[2]
props = [dict(project_name="Bench", api_proxy_name=f"P{i * 50 // count}", name=f"/bench/{i}",
              http_method="GET", backend_resource_url=f"/backend/{i}", backend_http_method="GET")
         for i in range(count)]
if side == "ours":
    import apinizer_pulumi as apinizer

    def declare():
        for index, item in enumerate(props):
            apinizer.Endpoint(f"bench-{index}", **item)
else:
    import pulumi.dynamic as dyn
    from _null_provider import NullProvider

    provider = NullProvider()

    class Null(dyn.Resource):
        pass

    def declare():
        for index, item in enumerate(props):
            Null(provider, f"bench-{index}", item)
started = time.process_time()
declare()
asyncio.get_event_loop().run_until_complete(wait_for_rpcs())
print(time.process_time() - started)
"""


def cpu(side: str, count: int) -> float:
    path = os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run([sys.executable, "-c", CHILD, str(count), side], capture_output=True, text=True,
                          env=env, check=True, timeout=600)
    return float(done.stdout.strip().splitlines()[-1])


def row(count: int, runs: int) -> Row:
    seconds: dict[str, list[float]] = {"ours": [], "floor": []}
    for number in range(runs):
        for side in ("ours", "floor") if number % 2 == 0 else ("floor", "ours"):
            seconds[side].append(cpu(side, count))
    ours, floor = min(seconds["ours"]), min(seconds["floor"])
    return Row(f"program process CPU per resource, {count} `Endpoint`s under Pulumi's mocks (best of {runs})",
               ours / count * 1e3, floor / count * 1e3, "ms", "(part of the engine-floor rows)",
               "baseline: the same inputs on a dynamic provider that does nothing")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(table([row(args.count, args.runs)]))


if __name__ == "__main__":
    main()
