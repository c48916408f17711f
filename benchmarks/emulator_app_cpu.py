"""The emulator's own CPU per request: its ASGI app called in-process, without a server or sockets.

The requests of ``emulator_request_cpu.py`` (the provider's creates and deletes of endpoints, with a
token) go straight to the app of ``server.build`` over a fresh SQLite file, ``--concurrency`` at a
time on one event loop, the writes on the app's writer thread as when it serves. No HTTP parsing,
no network and no client share the cores, so the figures (the process's CPU, every thread's, per
request) move far less with the machine's load than a served run's; they leave out what uvicorn
and the kernel cost, which the bare FastAPI app pays too. Each side runs in a fresh interpreter;
``--emulator-src`` names another checkout's ``emulator/`` folder to alternate with this one's.

    .venv/bin/python benchmarks/emulator_app_cpu.py [--count 4000] [--concurrency 16] [--rounds 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import TOKEN
from emulator_request_cpu import request_of

KINDS = ("create", "delete")


async def _drive(app: Any, kind: str, count: int, concurrency: int) -> dict[int, int]:
    gate = asyncio.Semaphore(concurrency)
    statuses: dict[int, int] = {}

    async def one(index: int) -> None:
        method, path, content_type, body = request_of(kind, index)
        headers = [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {TOKEN}".encode())]
        if content_type is not None:
            headers += [(b"content-type", content_type.encode()),
                        (b"content-length", str(len(body)).encode())]
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
                 "root_path": "", "headers": headers, "client": ("127.0.0.1", 50000),
                 "server": ("127.0.0.1", 8000)}
        delivered = False

        async def receive() -> dict[str, Any]:
            nonlocal delivered
            if delivered:
                await asyncio.Event().wait()  # a client that stays: no disconnect
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                statuses[message["status"]] = statuses.get(message["status"], 0) + 1

        async with gate:
            await app(scope, receive, send)

    await asyncio.gather(*(one(index) for index in range(count)))
    return statuses


def child(count: int, concurrency: int) -> None:
    """One side: CPU ms per request of each kind, as JSON on stdout."""
    from apinizer_emulator.server import build

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="apinizer-app-cpu-") as folder:
        backend, app = build(Path(folder) / "bench.db", None)
        try:
            for kind in KINDS:
                before = time.process_time()
                statuses = asyncio.run(_drive(app, kind, count, concurrency))
                figures[kind] = (time.process_time() - before) / count * 1000
                if set(statuses) != {200}:
                    raise SystemExit(f"{kind}: statuses {statuses}")
        finally:
            backend.store.close()
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--emulator-src", type=Path, help="the emulator/ folder of another checkout")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.count, args.concurrency)
        return
    sides: dict[str, Path | None] = {"this": None}
    if args.emulator_src is not None:
        sides = {"other": args.emulator_src, "this": None}
    results: dict[str, dict[str, list[float]]] = {side: {kind: [] for kind in KINDS} for side in sides}
    for round_index in range(args.rounds):
        for side, source in sides.items():
            env = dict(os.environ)
            if source is not None:
                env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
            out = subprocess.run([sys.executable, __file__, "--child", "--count", str(args.count),
                                  "--concurrency", str(args.concurrency)],
                                 env=env, check=True, capture_output=True, text=True).stdout
            for kind, value in json.loads(out.splitlines()[-1]).items():
                results[side][kind].append(value)
            load = os.getloadavg()[0]
            print(f"round {round_index + 1}, {side}: {out.strip()} (load {load:.1f})", flush=True)
    print(f"\nThe emulator app's CPU per request, ms (in-process, every thread): {args.count} requests"
          f" a kind, {args.concurrency} at a time, {args.rounds} round(s); medians, then each round")
    print("| side | " + " | ".join(KINDS) + " |\n|---|" + "---:|" * len(KINDS))
    for side in sides:
        cells = [f"{statistics.median(results[side][kind]):.3f} ("
                 + ", ".join(f"{v:.3f}" for v in results[side][kind]) + ")" for kind in KINDS]
        print(f"| {side} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
