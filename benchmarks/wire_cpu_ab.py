"""The provider's CPU per create and per delete, two versions of the provider side by side.

``delete_cpu.py`` runs one version at a time, and on a shared machine two runs a minute apart
differ by more than most changes to the request path gain. Here two provider processes, one
importing the worktree's package and one importing ``--base`` (a copy of another commit's
``provider/`` folder, e.g. ``git archive HEAD~1 provider | tar -x -C /tmp/base``), take turns
in short blocks against one emulator, so that whatever else runs on the machine falls on both
alike. Each block creates ``--block`` endpoints through ``EndpointProvider.create`` (the create,
then its read-back) and deletes them through ``EndpointProvider.delete``, from ``--threads``
threads; the CPU of each phase is the process's own. Prints the median per request of each side
and their ratio::

    .venv/bin/python benchmarks/wire_cpu_ab.py --base /tmp/base/provider [--blocks 12] [--block 300]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _common import Row, emulator_process, table

INPUTS = {"project_name": "Demo", "api_proxy_name": "PetStore", "http_method": "GET",
          "backend_resource_url": "/b", "backend_http_method": "GET"}


def serve(side: str, threads: int) -> None:
    """A provider process: for each ``<first> <count>`` line, create then delete those endpoints;
    answers the CPU of each phase in seconds, as JSON."""
    from apinizer_pulumi.resources.endpoint import EndpointProvider

    provider = EndpointProvider()

    def create(name: str) -> None:
        provider.create({**INPUTS, "name": name})

    def delete(name: str) -> None:
        provider.delete(f"Demo/PetStore/GET/{name}", {**INPUTS, "name": name})

    with ThreadPoolExecutor(threads) as pool:
        for line in sys.stdin:
            first, count = map(int, line.split())
            names = [f"/ab-{side}-{index}" for index in range(first, first + count)]
            before = time.process_time()
            list(pool.map(create, names))
            created = time.process_time()
            list(pool.map(delete, names))
            deleted = time.process_time()
            print(json.dumps({"create": created - before, "delete": deleted - created}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the other version's provider/ folder")
    parser.add_argument("--blocks", type=int, default=12)
    parser.add_argument("--block", type=int, default=300, help="endpoints created and deleted per block")
    parser.add_argument("--threads", type=int, default=64)
    parser.add_argument("--serve", choices=("ours", "base"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.threads)
        return
    with emulator_process() as (_, url):
        sides: dict[str, subprocess.Popen[str]] = {}
        for side, path in (("ours", None), ("base", args.base)):
            env = {**os.environ, "APINIZER_URL": url,
                   "APINIZER_USERNAME": "admin", "APINIZER_PASSWORD": "admin"}
            if path is not None:
                env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(path.resolve()),
                                                                  env.get("PYTHONPATH")]))
            sides[side] = subprocess.Popen(
                [sys.executable, __file__, "--base", str(args.base), "--serve", side,
                 "--threads", str(args.threads)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        figures: dict[str, dict[str, list[float]]] = {side: {"create": [], "delete": []} for side in sides}
        loads = []
        try:
            for block in range(args.blocks + 1):  # the first block pays the imports: not counted
                order = ("ours", "base") if block % 2 else ("base", "ours")
                for side in order:
                    process = sides[side]
                    assert process.stdin is not None and process.stdout is not None
                    process.stdin.write(f"{block * args.block} {args.block}\n")
                    process.stdin.flush()
                    spent = json.loads(process.stdout.readline())
                    if block:
                        for phase, seconds in spent.items():
                            figures[side][phase].append(seconds / args.block * 1000)
                loads.append(os.getloadavg()[0])
        finally:
            for process in sides.values():
                assert process.stdin is not None
                process.stdin.close()
                process.wait(timeout=60)
    rows = []
    for phase in ("create", "delete"):
        ours, base = figures["ours"][phase], figures["base"][phase]
        # Neighbouring blocks met the same machine: their ratios, and the quartiles of those.
        paired = statistics.quantiles([mine / theirs for mine, theirs in zip(ours, base, strict=True)], n=4)
        note = (f"median of {args.blocks} blocks of {args.block}, {args.threads} threads; paired ratios' "
                f"quartiles {paired[0]:.2f} {paired[1]:.2f} {paired[2]:.2f}; "
                f"load {min(loads):.1f}-{max(loads):.1f}")
        rows.append(Row(f"CPU per {phase}: this worktree (ours) and --base (baseline)",
                        statistics.median(ours), statistics.median(base), "ms", "", note))
    print(table(rows))


if __name__ == "__main__":
    main()
