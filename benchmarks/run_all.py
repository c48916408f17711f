"""Every figure of the performance table, each beside its baseline, in one run; prints the table.

    .venv/bin/python benchmarks/run_all.py [--quick] [--large]

``scripts/bench.sh`` runs this (and installs wrk first when it is missing).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

import api_proxy_group_requests
import api_proxy_requests
import cli_counts
import emulator_bench
import engine_floor
import fault_run
import generate_bench
import import_bench
import program_cost
import provider_bench
import request_floor
import spec_parse
from _common import Row, table


def machine() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            model = next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{platform.node()}: {os.cpu_count()} CPUs ({model}), Linux {platform.release()}, " \
           f"Python {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts and shorter loads")
    parser.add_argument("--large", action="store_true",
                        help="also the engine's and the request floor at 5,000 endpoints on 50 proxies "
                             "(one round)")
    args = parser.parse_args()
    seconds, overhead, runs = (2, 100, 5) if args.quick else (5, 500, 15)
    started = time.perf_counter()
    rows: list[Row] = []
    # The engine's floor first: the figure users feel (N endpoints beside N resources that do nothing).
    rows += engine_floor.rows(100, 1, 1, 64) if args.quick else engine_floor.rows(500, 5, 3, 64)
    if args.large:
        rows += engine_floor.rows(5000, 50, 1, 64)
    # What one request per resource costs at the least (up and destroy), beside the same floor.
    rows += request_floor.rows(100, 1, 1, 64) if args.quick else request_floor.rows(500, 5, 3, 64)
    if args.large:
        rows += request_floor.rows(5000, 50, 1, 64)
    rows.append(program_cost.row(500 if args.quick else 2000, 3))
    rows += generate_bench.rows(*((500, 5) if args.quick else (5000, 50)))
    rows += cli_counts.counts(100, 5)
    rows += provider_bench.counts(100, 5)
    rows += api_proxy_requests.counts(10, 200, 3 if args.quick else 5)
    rows += api_proxy_group_requests.counts(10)
    # Every kind with a write after its create, at 30% faults: the bad outcomes, each 0.
    rows += fault_run.rows(5 if args.quick else 20)
    rows += provider_bench.overhead(overhead, 10)
    rows += emulator_bench.http_rows(seconds, 32)
    rows += emulator_bench.big_rows(seconds, 32, 5_000 if args.quick else 50_000)
    rows.append(emulator_bench.list_serialization(10_000))
    rows.append(import_bench.row(runs))
    rows += spec_parse.rows(1 if args.quick else 3, ["json", "yaml"])
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{now}, {machine()}; {time.perf_counter() - started:.0f} s\n")
    print(table(rows))


if __name__ == "__main__":
    main()
