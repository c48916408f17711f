"""Requests per second the emulator serves for list and create, measured from other processes.

The emulator runs as a subprocess (``python -m apinizer_emulator serve``) on a temporary SQLite
file; the load comes from worker processes (each a few threads with keep-alive httpx clients)
over loopback, bounded by a duration and a request count. Run:

    .venv/bin/python benchmarks/emulator_throughput.py [--seconds 5] [--workers 2] [--threads 4]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx

from apinizer_emulator.testing import start_subprocess

LIST_PATH = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"
AUTH = {"Authorization": "Bearer dev-admin-token"}


def _thread_loop(
    base_url: str,
    scenario: str,
    tag: str,
    deadline: float,
    budget: int,
    latencies: list[float],
    errors: list[int],
) -> None:
    with httpx.Client(base_url=base_url, headers=AUTH, timeout=30) as client:
        for i in range(budget):
            if time.perf_counter() >= deadline:
                break
            started = time.perf_counter()
            if scenario == "list":
                response = client.get(LIST_PATH)
            else:
                name = f"/bench/{tag}/{i}"
                response = client.post(
                    LIST_PATH,
                    json={
                        "name": name,
                        "httpMethod": "GET",
                        "backendResourceUrl": name,
                        "backendHttpMethod": "GET",
                    },
                )
            latencies.append(time.perf_counter() - started)
            if response.status_code != 200:
                errors.append(response.status_code)


def _worker(
    base_url: str,
    scenario: str,
    worker: int,
    threads: int,
    seconds: float,
    budget: int,
    start_at: float,
    out: mp.Queue,
) -> None:  # type: ignore[type-arg]
    while time.time() < start_at:  # all workers start together
        time.sleep(0.001)
    deadline = time.perf_counter() + seconds
    latencies: list[float] = []
    errors: list[int] = []
    pool = [
        threading.Thread(
            target=_thread_loop,
            args=(base_url, scenario, f"w{worker}t{t}", deadline, budget // threads, latencies, errors),
        )
        for t in range(threads)
    ]
    begun = time.perf_counter()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    out.put((latencies, errors, time.perf_counter() - begun))


def run(
    base_url: str, scenario: str, workers: int, threads: int, seconds: float, budget: int
) -> dict[str, float]:
    ctx = mp.get_context("spawn")
    queue: mp.Queue = ctx.Queue()  # type: ignore[type-arg]
    start_at = time.time() + 1.0
    procs = [
        ctx.Process(
            target=_worker, args=(base_url, scenario, w, threads, seconds, budget // workers, start_at, queue)
        )
        for w in range(workers)
    ]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=seconds + 120) for _ in procs]
    for proc in procs:
        proc.join()
    latencies = sorted(x for lat, _, _ in results for x in lat)
    errors = sum(len(err) for _, err, _ in results)
    elapsed = max(e for _, _, e in results)
    return {
        "requests": len(latencies),
        "errors": errors,
        "seconds": elapsed,
        "rps": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="duration of each scenario")
    parser.add_argument("--workers", type=int, default=2, help="load-generating processes")
    parser.add_argument("--threads", type=int, default=4, help="threads (connections) per process")
    parser.add_argument("--max-requests", type=int, default=50_000, help="cap per scenario")
    parser.add_argument("--scenarios", default="list,create")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        proc, base_url = start_subprocess(db=db)
        try:
            print(
                f"emulator: {base_url} (db {db}); load: {args.workers} processes x {args.threads} threads, "
                f"{args.seconds:g} s or {args.max_requests} requests per scenario"
            )
            for scenario in args.scenarios.split(","):
                httpx.post(f"{base_url}/_emulator/stats/reset", json={}).raise_for_status()
                result = run(base_url, scenario, args.workers, args.threads, args.seconds, args.max_requests)
                served = httpx.get(f"{base_url}/_emulator/stats").json()["total"]
                print(
                    f"{scenario:>7}: {result['rps']:8.0f} req/s  ({result['requests']} requests in "
                    f"{result['seconds']:.2f} s, p50 {result['p50_ms']:.1f} ms, "
                    f"p99 {result['p99_ms']:.1f} ms, {result['errors']} errors, server counted {served})"
                )
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
