"""List latency while a flood of wrong-password token requests runs against the emulator.

The emulator runs as a subprocess on a temporary SQLite file (or ``--url`` names one already
running). One client lists a proxy's endpoints, one request after another, for ``--seconds``
with nothing else running, then again while another process sends ``--flood`` parallel token
requests with a wrong password (each one a PBKDF2 check, slow on purpose). Everything stays on
127.0.0.1 and is bounded in time. Run:

    .venv/bin/python benchmarks/emulator_password_flood.py [--seconds 5] [--flood 16]

The goal: with 16 parallel wrong passwords, the list's p99 stays under 20 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing as mp
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from _common import AUTH, endpoints_path, stop

from apinizer_emulator.testing import start_subprocess

WRONG_PASSWORD = {"grant_type": "client_credentials", "client_id": "admin", "client_secret": "wrong"}


def _flood(base_url: str, threads: int, seconds: float, answered: mp.Queue[tuple[int, int]]) -> None:
    """``threads`` clients sending wrong passwords until the time is up; puts (401s, others)."""
    counts = [0, 0]
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def loop() -> None:
        with httpx.Client(base_url=base_url, timeout=60) as client:
            while time.perf_counter() < deadline:
                status = client.post("/apiops/auth/token", data=WRONG_PASSWORD).status_code
                with lock:
                    counts[0 if status == 401 else 1] += 1

    workers = [threading.Thread(target=loop) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    answered.put((counts[0], counts[1]))


def _list_latencies(base_url: str, seconds: float) -> list[float]:
    latencies: list[float] = []
    path = endpoints_path()
    with httpx.Client(base_url=base_url, headers=AUTH, timeout=30) as client:
        client.get(path).raise_for_status()  # the connection, opened outside the figures
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            response = client.get(path)
            latencies.append(time.perf_counter() - started)
            response.raise_for_status()
    return latencies


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _show(label: str, latencies: list[float]) -> float:
    p99 = _percentile(latencies, 0.99) * 1000
    print(
        f"{label:<34} {len(latencies):>6} lists  p50 {_percentile(latencies, 0.50) * 1000:6.2f} ms  "
        f"p99 {p99:6.2f} ms  max {max(latencies) * 1000:7.2f} ms"
    )
    return p99


@contextlib.contextmanager
def _emulator(url: str | None) -> Iterator[str]:
    if url is not None:
        yield url
        return
    with tempfile.TemporaryDirectory(prefix="apinizer-bench-") as tmp:
        proc, started = start_subprocess(db=Path(tmp) / "bench.db")
        try:
            yield started
        finally:
            stop(proc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run (default 5)")
    parser.add_argument("--flood", type=int, default=16, help="parallel wrong-password requests (default 16)")
    parser.add_argument("--url", default=None, help="an emulator already running (default: start one)")
    args = parser.parse_args()
    with _emulator(args.url) as url:
        _show("list alone", _list_latencies(url, args.seconds))
        answered: mp.Queue[tuple[int, int]] = mp.Queue()
        flood = mp.Process(target=_flood, args=(url, args.flood, args.seconds + 1.0, answered))
        flood.start()
        time.sleep(0.5)  # the flood under way before the first measured list
        p99 = _show(f"list during {args.flood} wrong passwords", _list_latencies(url, args.seconds))
        wrong, other = answered.get(timeout=120)
        flood.join()
    print(f"wrong-password answers: {wrong} x 401 ({wrong / (args.seconds + 1.0):.1f}/s), {other} other")
    print(f"goal p99 < 20 ms during the flood: {'met' if p99 < 20 else 'NOT met'} ({p99:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
